/* Reading a non-const global (a const one with a constant initializer works). */
const float ok = 2.0f;
float scale = 3.0f;
__attribute__((batch, diff)) float f(float x) {
  return ok * scale * x;
  // CHECK: global-read.c:[[@LINE-1]]:15: error: reading of global variable 'scale' is not supported in a batch/diff function; pass it as a BD_UNIFORM parameter or make it a 'const' with a constant initializer
}
