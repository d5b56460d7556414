/* A struct parameter. */
struct pair { float a, b; };
__attribute__((batch, diff)) float f(struct pair p) {
  // CHECK: param-struct.c:[[@LINE-1]]:50: error: parameter 'p' of type 'struct pair' is not supported in a batch/diff function; use float, double, integer or _Bool parameters
  return 0.0f;
}
