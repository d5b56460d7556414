/* Writing a global of a type without lanes, in a function taking an
   array (one that takes and returns numbers only runs per example as the
   scalar function, docs/calls.md). */
long double acc;
__attribute__((batch)) double f(int n, const double a[n]) {
  double x = a[0];
  acc = x;
  // CHECK: global-write-type.c:[[@LINE-1]]:3: error: writing global 'acc' of type 'long double' is not supported in a batch/diff function; write float, double, integer or _Bool globals
  return x;
}
