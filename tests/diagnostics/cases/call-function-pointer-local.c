/* A local function pointer assigned after its declaration (chosen per
   example): a local function pointer must be initialized with one
   function's name and keep it. */
static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
__attribute__((batch, diff)) double g(double x) {
  double (*f)(double) = sq;
  // CHECK: call-function-pointer-local.c:[[@LINE-1]]:12: error: the function pointer variable 'f' (not initialized with a function's name, or assigned later) is not supported in a batch/diff function; initialize it with the function it calls and do not assign it, or call the functions directly under if/else
  if (x > 1.0)
    f = cube;
  return f(x);
}
