/* A helper returning a type without SIMD lanes (a vector of the GNU
   vector extension, its result discarded). */
typedef double v2d __attribute__((vector_size(16)));
static inline v2d cw(double x) { return (v2d){x, x}; }
__attribute__((batch)) double f(double x) {
  cw(x);
  // CHECK: helper-return.c:[[@LINE-1]]:3: error: a helper returning a non-scalar is not supported in a batch/diff function; return a scalar
  return x;
}
