/* '#pragma omp simd' with reduction(op:x) where the loop uses x other than to update it by op (OpenMP's private copy of x starts at op's identity, so a read of it there is not the running value the plain loop has; min and max allow any use). */
// FLAGS: -fopenmp-simd
__attribute__((batch, diff)) double f(const double x[8]) {
  double s = 1, t = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < 8; i++) {
    s += x[i];
    t += s > 2;
    // CHECK: omp-simd-reduction-use.c:[[@LINE-1]]:10: error: a use of 's' of a 'reduction(+:s)' clause other than 's += expression' in its loop is not supported in a batch/diff function; update it only by the clause's operator, or remove the clause
  }
  return s + t;
}
