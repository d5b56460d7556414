/* A helper returning a type without SIMD lanes (a complex value, its
   result discarded). */
static inline _Complex double cw(double x) { return x; }
__attribute__((batch)) double f(double x) {
  cw(x);
  // CHECK: helper-return.c:[[@LINE-1]]:3: error: a helper returning a non-scalar is not supported in a batch/diff function; return a scalar
  return x;
}
