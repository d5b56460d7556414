/* An OpenMP synchronization directive (critical, atomic, ordered, ...): NAME_batched and NAME_grad run on one thread. */
// FLAGS: -fopenmp
__attribute__((batch, diff)) double f(double x) {
  double s = 0;
  for (int i = 0; i < 4; i++) {
#pragma omp critical
    // CHECK: omp-critical.c:[[@LINE-1]]:1: error: an OpenMP directive ('#pragma omp critical') is not supported in a batch/diff function; remove it: NAME_batched and NAME_grad run on one thread
    s += x * i;
  }
  return s;
}
