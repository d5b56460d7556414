/* A local function pointer whose address is taken (a helper sets it
   through a pointer): a function pointer that may hold one of several
   functions is assigned, called and passed on, not pointed to. */
static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
static void choose(double (**out)(double), double x) {
  *out = x > 1.0 ? cube : sq;
}
__attribute__((batch, diff)) double g(double x) {
  double (*f)(double) = sq;
  choose(&f, x);
  // CHECK: call-function-pointer-local.c:[[@LINE-1]]:10: error: taking the address of the function pointer 'f' is not supported in a batch/diff function; assign it functions, call it, or pass it to a helper
  return f(x);
}
