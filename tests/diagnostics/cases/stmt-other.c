/* Any other statement (here an OpenMP directive) is named in C's words. */
// FLAGS: -fopenmp
__attribute__((batch, diff)) float f(float x) {
#pragma omp barrier
  // CHECK: stmt-other.c:[[@LINE-1]]:1: error: an OpenMP directive ('#pragma omp') is not supported in a batch/diff function; use assignments, if/else and return
  return x;
}
