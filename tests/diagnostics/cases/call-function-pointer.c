/* An indirect call. */
float (*activation)(float);
__attribute__((batch, diff)) float f(float x) {
  return activation(x);
  // CHECK: call-function-pointer.c:[[@LINE-1]]:10: error: a call through a function pointer is not supported in a batch/diff function; call the function directly
}
