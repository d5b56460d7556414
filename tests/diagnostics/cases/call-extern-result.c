/* A function called once per example (here because of its string literal)
   returning a type without lanes (long double), from a function taking a
   struct (one that takes numbers and arrays and returns a number runs per
   example as the scalar function, docs/calls-long-double.md). */
struct pt {
  double a, b;
};
long double setting(const char *name);
__attribute__((batch, diff)) double f(struct pt p) {
  return p.a * (double)setting("scale");
  // CHECK: call-extern-result.c:[[@LINE-1]]:24: error: a call to 'setting' returning 'long double', which is called once per example, is not supported in a batch/diff function; such a call may return void, an integer, float or double; return one of those, or pass numbers only so that a body in this file can be inlined
}
