/* Returning a struct. */
struct pair { float a, b; };
__attribute__((batch)) struct pair f(float x) {
  // CHECK: return-struct.c:[[@LINE-1]]:24: error: returning type 'struct pair' is not supported in a batch/diff function; return a float, double, integer or _Bool scalar
  struct pair p = {x, x};
  return p;
}
