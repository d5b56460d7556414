/* Reading a global of a type without lanes (global scalars of the
 * supported types are read once per call, as uniform values). */
long double scale = 3.0L;
__attribute__((batch, diff)) float f(float x) {
  return (float)scale * x;
  // CHECK: global-read.c:[[@LINE-1]]:17: error: global 'scale' of type 'long double' is not supported in a batch/diff function; use float, double, integer or _Bool globals
}
