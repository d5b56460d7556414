/* A helper returning long double (one that declares a long double local
   and returns a number is called per example on the scalar function). */
static inline long double wide(double x) { return x; }
__attribute__((batch, diff)) double f(double x) {
  return (double)wide(x);
  // CHECK: helper-return-long-double.c:[[@LINE-1]]:18: error: a helper returning 'long double' is not supported in a batch/diff function; return a double: a helper that declares a long double local and passes and returns numbers is called once per example on the scalar function
}
