/* A helper that gives its function pointer parameter a value whose
   function is not known (a global function pointer): a function pointer
   may be assigned functions, choices of them and elements of const tables
   of functions only. */
static double sq(double t) { return t * t; }
double (*fallback)(double);
static double apply(double (*f)(double), double x) {
  if (x > 1.0)
    f = fallback;
  // CHECK: call-function-pointer-assign.c:[[@LINE-1]]:9: error: giving the function pointer 'f' a value whose function is not known is not supported in a batch/diff function; give it a function's name, a choice of them ('x > 0 ? f : g'), another such pointer or an element of a const table of functions ('ops[k]')
  return f(x);
}
__attribute__((batch, diff)) double g(double x) { return apply(sq, x); }
