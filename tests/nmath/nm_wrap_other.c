/* glibc's functions, for nm_wrap.h (compiled without the plugin). */
#include <math.h>
double bdw_log(double x) { return log(x); }
double bdw_exp(double x) { return exp(x); }
double bdw_pow(double x, double y) { return pow(x, y); }
double bdw_log1p(double x) { return log1p(x); }
double bdw_expm1(double x) { return expm1(x); }
double bdw_sin(double x) { return sin(x); }
double bdw_cos(double x) { return cos(x); }
