/* A call through a function pointer whose functions are not known (a
   global here). */
float (*activation)(float);
__attribute__((batch, diff)) float f(float x) {
  return activation(x);
  // CHECK: call-function-pointer.c:[[@LINE-1]]:10: error: a call through a function pointer is not supported in a batch/diff function; call a function, or through a pointer whose functions are known: a function's name, a choice of them ('(x > 0 ? f : g)(x)'), a local or parameter given only those, an element of a const table of functions ('ops[k](x)')
}
