/* The documented maximum of local arrays, four double[65536] (docs/subset.md),
 * for test_frames.c. Compiled without its -Wframe-larger-than: the scalar
 * function's own frame holds the arrays. */
#include <batchdiff.h>

#include <stddef.h>

BATCHDIFF double fr_max(double x, int k) {
  double t[65536], u[65536], v[65536], w[65536];
  for (int i = 0; i < 65536; i++) {
    t[i] = x * i;
    u[i] = t[i] * x;
    v[i] = u[i] + t[i];
    w[i] = v[i] * v[i];
  }
  return w[k & 65535];
}

/* Runs on a thread with a small stack: 1 when both calls returned. */
int frames_max_run(size_t n, const double *x, const int *k, double *ret,
                   double *dx);
int frames_max_run(size_t n, const double *x, const int *k, double *ret,
                   double *dx) {
  double r2[64];
  if (n > 64)
    return 0;
  fr_max_batched(n, x, k, ret);
  for (size_t b = 0; b < n; b++)
    dx[b] = 0.0;
  fr_max_grad(n, x, k, r2, NULL, dx);
  for (size_t b = 0; b < n; b++)
    if (r2[b] != ret[b] && r2[b] == r2[b])
      return 0;
  return 1;
}
