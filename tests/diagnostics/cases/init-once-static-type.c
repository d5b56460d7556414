/* A static local of a type the generated code's copies do not take (a
 * struct), named by a block run once under a static local flag. */
struct seg {
  double lo, hi;
};
__attribute__((batch, diff)) double f(double x) {
  static int ready;
  static struct seg s;
  // CHECK: init-once-static-type.c:[[@LINE-1]]:21: error: static local 's' of type 'struct seg' in a block run once is not supported in a batch/diff function; a block run once under a static local flag may use the function's static numbers and tables of numbers; declare the others at file scope, static
  if (!ready) {
    s.lo = -1.0;
    s.hi = 1.0;
    ready = 1;
  }
  return x < s.lo ? s.lo : x;
}
