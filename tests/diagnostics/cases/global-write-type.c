/* Writing a global of a type without lanes, in a function taking a
   struct (one that takes numbers and arrays runs per example as the
   scalar function, docs/calls-long-double.md). */
struct pt {
  double a, b;
};
long double acc;
__attribute__((batch)) double f(struct pt p) {
  double x = p.a;
  acc = x;
  // CHECK: global-write-type.c:[[@LINE-1]]:3: error: writing global 'acc' of type 'long double' is not supported in a batch/diff function; write float, double, integer or _Bool globals
  return x;
}
