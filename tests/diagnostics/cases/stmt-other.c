/* Any other statement (here an OpenMP directive) is named by its class. */
// FLAGS: -fopenmp
__attribute__((batch, diff)) float f(float x) {
#pragma omp barrier
  // CHECK: stmt-other.c:[[@LINE-1]]:1: error: the statement 'OMPBarrierDirective' is not supported in a batch/diff function; use assignments, if/else and return
  return x;
}
