/* A call through a function pointer that is not a helper's parameter
   bound to a function at its call (a global here). */
float (*activation)(float);
__attribute__((batch, diff)) float f(float x) {
  return activation(x);
  // CHECK: call-function-pointer.c:[[@LINE-1]]:10: error: a call through a function pointer is not supported in a batch/diff function; call the function directly, or pass the function's name to a helper that calls its parameter ('integrate(f, a, b)')
}
