/* An OpenMP directive that runs threads, tasks or devices (parallel, for, sections, single, task, teams, target, ...): batchdiff runs the examples in parallel itself. */
// FLAGS: -fopenmp
__attribute__((batch, diff)) double f(const double x[8]) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  // CHECK: omp-parallel.c:[[@LINE-1]]:1: error: '#pragma omp parallel for' (threads, tasks or devices) is not supported in a batch/diff function; remove it: batchdiff runs the examples in parallel itself (call NAME_batched from threads instead)
  for (int i = 0; i < 8; i++)
    s += x[i] * x[i];
  return s;
}
