/* Reading a global of a type without lanes (global scalars of the
 * supported types are read once per call, as uniform values), in a
 * function taking a struct (one that takes numbers and arrays runs per
 * example as the scalar function, docs/calls-long-double.md). */
struct pt {
  float a, b;
};
long double scale = 3.0L;
__attribute__((batch, diff)) float f(struct pt p) {
  return (float)scale * p.a;
  // CHECK: global-read.c:[[@LINE-1]]:17: error: global 'scale' of type 'long double' is not supported in a batch/diff function; use float, double, integer or _Bool globals
}
