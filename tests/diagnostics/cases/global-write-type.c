/* Writing a global of a type without lanes. */
long double acc;
__attribute__((batch)) double f(double x) {
  acc = x;
  // CHECK: global-write-type.c:[[@LINE-1]]:3: error: writing global 'acc' of type 'long double' is not supported in a batch/diff function; write float, double, integer or _Bool globals
  return x;
}
