/* A struct return value (issue 11 part 1, docs/abi.md "Structs"): n records
 * in ret, written member by member (the int member too); NAME_grad reads a
 * seed per floating member from the d_ret records (1 where d_ret is NULL). */
#include <batchdiff.h>
// DEFINES: polar polar_batched polar_grad
// CHECK: void polar_batched(size_t __bd_n, const double *__bd_a0, const double *__bd_a1, pt *__bd_ret) {
// CHECK: void polar_grad(size_t __bd_n, const double *__bd_a0, const double *__bd_a1, pt *__bd_ret, const pt *__bd_dret, double *__bd_d0, double *__bd_d1) {

typedef struct {
  double r2, t;
  int half;
} pt;

BATCHDIFF pt polar(double x, double y) {
  pt p = {x * x + y * y, y / (x + 2.0), y < 0.0};
  return p;
}
