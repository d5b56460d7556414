/* Included first (-include) by run.sh's exact build of nm_batch.c: the
 * math functions nmath calls go through functions of another file
 * (nm_wrap_other.c), which the batched code calls once per example, so
 * that both versions call glibc and must agree bit for bit; what is left
 * to differ is the lowering. */
#include <math.h>
double bdw_log(double), bdw_exp(double), bdw_pow(double, double),
    bdw_log1p(double), bdw_expm1(double), bdw_sin(double), bdw_cos(double);
#define log bdw_log
#define exp bdw_exp
#define pow bdw_pow
#define log1p bdw_log1p
#define expm1 bdw_expm1
#define sin bdw_sin
#define cos bdw_cos
