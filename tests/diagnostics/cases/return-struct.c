/* Returning a struct (not yet: docs/abi.md, "Structs"). */
struct pair { float a, b; };
__attribute__((batch)) struct pair f(float x) {
  // CHECK: return-struct.c:[[@LINE-1]]:24: error: returning type 'struct pair' is not supported in a batch/diff function; return a scalar, or write each member through a scalar out-parameter such as 'double *re' (struct return values are not supported yet; structs inside the body are)
  struct pair p = {x, x};
  return p;
}
