/* Testing a pointer for null. */
static inline double get(const double *p) { return p ? *p : 0.0; }
// CHECK: ptr-test.c:[[@LINE-1]]:52: error: testing or converting a pointer is not supported in a batch/diff function; pointers here always point into an array; test an integer index or count instead
__attribute__((batch, diff)) double f(double x) { return get(&x); }
