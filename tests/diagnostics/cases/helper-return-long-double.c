/* A helper returning long double, called from a function taking an array
   (a helper that computes in long double and returns a number is called
   per example on the scalar function, and so is a function that takes and
   returns numbers only, docs/calls.md). */
static inline long double wide(double x) { return x; }
__attribute__((batch, diff)) double f(int n, const double x[n]) {
  return (double)wide(x[0]);
  // CHECK: helper-return-long-double.c:[[@LINE-1]]:18: error: a helper returning 'long double' is not supported in a batch/diff function; return a double: a helper that computes in long double and passes and returns numbers is called once per example on the scalar function
}
