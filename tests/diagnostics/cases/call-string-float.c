/* A function given a string literal is called once per example, not inlined:
   it may return only void or an integer. */
double setting(const char *name);
__attribute__((batch, diff)) double f(double x) {
  return x * setting("scale");
  // CHECK: call-string-float.c:[[@LINE-1]]:14: error: a call to 'setting' returning 'double' with a string literal argument is not supported in a batch/diff function; such a call is made once per example, not inlined, and may return only void or an integer (its value has no batched form and no derivative); pass numbers so that its body can be inlined
}
