/* A local struct. */
struct pair { float a, b; };
__attribute__((batch, diff)) float f(float x) {
  struct pair p;
  // CHECK: local-struct.c:[[@LINE-1]]:15: error: local variable 'p' of type 'struct pair' is not supported in a batch/diff function; use float, double, integer or _Bool locals
  p.a = x;
  return p.a;
}
