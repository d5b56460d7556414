/* A combined simd directive that shares the loop among threads, tasks or devices (for simd, parallel for simd, taskloop simd, distribute simd, target simd): '#pragma omp simd' alone is lowered as the plain loop. */
// FLAGS: -fopenmp
__attribute__((batch, diff)) double f(const double x[8]) {
  double s = 0;
#pragma omp for simd
  // CHECK: omp-for-simd.c:[[@LINE-1]]:1: error: '#pragma omp for simd' (it shares the loop's iterations among threads, tasks or devices) is not supported in a batch/diff function; use '#pragma omp simd': batchdiff runs the examples in parallel itself
  for (int i = 0; i < 8; i++)
    s += x[i] * x[i];
  return s;
}
