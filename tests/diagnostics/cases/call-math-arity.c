/* A <math.h> name called with the wrong number of arguments (possible once
   the user redeclares it). */
// FLAGS: -Wno-incompatible-library-redeclaration
float sinf(float, float);
__attribute__((batch, diff)) float f(float x) {
  return sinf(x, x);
  // CHECK: call-math-arity.c:[[@LINE-1]]:10: error: this call of 'sinf' is not supported in a batch/diff function; pass the arguments <math.h> declares
}
