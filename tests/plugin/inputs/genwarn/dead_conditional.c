/* The value of a '?:' nothing reads (found by tests/robust/mutate.py, seed
   5017): its variable in the generated code was set but never used. */
#include <batchdiff.h>
BATCHDIFF double dead_cond(double x) {
  double z = 1.0;
  z = __builtin_isgreater(z, 1.0) ? __builtin_signbit(z) : 0;
  return x;
}
BATCHDIFF void dead_cond_out(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
  double z = 1.0;
  z = z > x[0] ? 2.0 : 0;
}
/* A variable only written under a branch: its stores went, then the read
   the lowering made of it, and the branch's condition stayed, unused. */
BATCHDIFF double dead_flag(double x) {
  int k __attribute__((unused)) = 0;
  if (x > 2.0)
    k = 1;
  return x;
}
