/* Reading a global of a type without lanes (global scalars of the
 * supported types are read once per call, as uniform values), in a
 * function taking an array (one that takes and returns numbers only runs
 * per example as the scalar function, docs/calls.md). */
long double scale = 3.0L;
__attribute__((batch, diff)) float f(int n, const float x[n]) {
  return (float)scale * x[0];
  // CHECK: global-read.c:[[@LINE-1]]:17: error: global 'scale' of type 'long double' is not supported in a batch/diff function; use float, double, integer or _Bool globals
}
