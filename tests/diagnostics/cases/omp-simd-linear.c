/* '#pragma omp simd' with a linear clause on a variable other than the loop's counter (OpenMP sets it to its start plus the iteration's number times the step in each iteration, whatever the loop does with it). */
// FLAGS: -fopenmp-simd
__attribute__((batch, diff)) double f(const double x[8]) {
  double s = 0;
  int k = 0;
#pragma omp simd linear(k : 2)
  // CHECK: omp-simd-linear.c:[[@LINE-1]]:25: error: a 'linear' clause on a variable other than the loop's counter is not supported in a batch/diff function; update the variable in the loop and remove it from the clause
  for (int i = 0; i < 4; i++) {
    s += x[k] * x[k];
    k += 2;
  }
  return s;
}
