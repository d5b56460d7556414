/* A variadic annotated function. */
__attribute__((batch, diff)) float f(float x, ...) {
  // CHECK: variadic.c:[[@LINE-1]]:36: error: a variadic function is not supported in a batch/diff function; give the function a fixed parameter list
  return x;
}
