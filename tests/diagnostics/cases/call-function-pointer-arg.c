/* A helper's function pointer argument that is not a function's name (a
   choice between two functions per example): the helper is inlined with
   one known function per call. */
static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
static double apply(double (*f)(double), double x) { return f(x) + 1.0; }
__attribute__((batch, diff)) double g(double x) {
  return apply(x > 0.0 ? sq : cube, x);
  // CHECK: call-function-pointer-arg.c:[[@LINE-1]]:16: error: a function pointer argument that is not the name of a function is not supported in a batch/diff function; pass the function itself ('integrate(f, a, b)'): the helper is inlined with it at each call
}
