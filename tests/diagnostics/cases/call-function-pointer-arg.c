/* A helper's function pointer argument whose functions are not known (a
   global function pointer here): the helper is inlined with the function
   passed, or with a choice of known functions. */
static double sq(double t) { return t * t; }
double (*activation)(double);
static double apply(double (*f)(double), double x) { return f(x) + 1.0; }
__attribute__((batch, diff)) double g(double x) {
  return apply(x > 0.0 ? sq : activation, x);
  // CHECK: call-function-pointer-arg.c:[[@LINE-1]]:16: error: a function pointer argument whose functions are not known is not supported in a batch/diff function; pass a function's name ('integrate(f, a, b)'), a choice of them ('x > 0 ? f : g'), a local or parameter given only those, or an element of a const table of functions ('ops[k]')
}
