/* A helper returning long double, called from a function taking a struct
   (a helper that computes in long double and returns a number is called
   per example on the scalar function, and so is a function that takes
   numbers and arrays, docs/calls-long-double.md). */
struct pt {
  double a, b;
};
static inline long double wide(double x) { return x; }
__attribute__((batch, diff)) double f(struct pt p) {
  return (double)wide(p.a);
  // CHECK: helper-return-long-double.c:[[@LINE-1]]:18: error: a helper returning 'long double' is not supported in a batch/diff function; return a double: a helper that computes in long double and passes and returns numbers is called once per example on the scalar function
}
