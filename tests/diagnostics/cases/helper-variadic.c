/* A variadic static inline helper. */
static inline float first(float x, ...) { return x; }
__attribute__((batch, diff)) float f(float x) {
  return first(x, 1);
  // CHECK: helper-variadic.c:[[@LINE-1]]:10: error: a call to a variadic function is not supported in a batch/diff function; give the helper a fixed parameter list
}
