/* Any other statement (here an OpenMP directive that is not a loop's, nor one that runs threads) is named in C's words. */
// FLAGS: -fopenmp
__attribute__((batch, diff)) float f(float x) {
#pragma omp barrier
  // CHECK: stmt-other.c:[[@LINE-1]]:1: error: an OpenMP directive ('#pragma omp barrier') is not supported in a batch/diff function; remove it: NAME_batched and NAME_grad run on one thread
  return x;
}
