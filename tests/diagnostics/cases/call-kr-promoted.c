/* A K&R helper, defined after the call, given an argument whose promoted
   type is not its parameter's: C leaves that undefined, so batchdiff
   refuses it (with the definition in sight first, clang converts). */
// FLAGS: -Wno-deprecated-non-prototype
// GENERATED: the declarations of f_batched/f_grad are injected right after f
double scale();
__attribute__((batch, diff)) float f(float x, int k) {
  return x + scale(k);
  // CHECK: call-kr-promoted.c:[[@LINE-1]]:20: error: passing 'int' to the parameter 'x' of type 'double' of a function without a prototype is not supported in a batch/diff function; convert the argument, or declare a prototype so C converts it
}
double scale(x) double x; { return 2.0 * x; }
