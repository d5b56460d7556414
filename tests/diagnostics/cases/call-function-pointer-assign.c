/* A helper that assigns its function pointer parameter: the parameter must
   keep the function its call passed. */
static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
static double apply(double (*f)(double), double x) {
  // CHECK: call-function-pointer-assign.c:[[@LINE-1]]:30: error: assigning the function pointer parameter 'f' is not supported in a batch/diff function; call the function the parameter was passed; declare it as a pointer to the function's type
  if (x > 1.0)
    f = cube;
  return f(x);
}
__attribute__((batch, diff)) double g(double x) { return apply(sq, x); }
