/* '#pragma omp simd' with a private, reduction or other clause batchdiff does not lower: private or reduction on an array, a pointer, a struct or a global; a user-defined reduction or one with a modifier; a clause such as allocate (the message names it). */
// FLAGS: -fopenmp-simd
__attribute__((batch, diff)) double f(const double x[4]) {
  double s = 0, t[2];
#pragma omp simd private(t)
  // CHECK: omp-simd-private.c:[[@LINE-1]]:26: error: a 'private' clause on an array, a pointer, a struct or a global is not supported in a batch/diff function; declare the variable inside the loop
  for (int i = 0; i < 4; i++) {
    t[0] = x[i];
    s += t[0] * t[0];
  }
  return s;
}
