/* -save-temps: batchdiff.h must be included (the -E step runs no AST action,
 * so only the header can bring the runtime into the preprocessed file). */
#include <batchdiff.h>
#include <math.h>

BATCHDIFF double f_st(double x, BD_UNIFORM double k) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += sin(x * i) * k;
  return s;
}

double run_st(void) {
  double x[5] = {1, 2, 3, 4, 5}, out[5], dx[5] = {0}, dk = 0;
  f_st_batched(5, x, 0.5, out);
  f_st_grad(5, x, 0.5, NULL, NULL, dx, &dk);
  return out[0] + dx[0] + dk;
}
