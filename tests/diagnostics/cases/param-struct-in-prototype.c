/* A struct parameter whose type is declared in the parameter list (visible
 * only inside the function) or anonymous: the generated functions, declared
 * at file scope, cannot name it (reported at the parameter). */
// FLAGS: -Wno-visibility
__attribute__((batch, diff)) double f(struct pt { double a; } s, double x) {
  // CHECK: param-struct-in-prototype.c:[[@LINE-1]]:63: error: parameter 's' of type 'struct pt' declared in the parameter list is not supported in a batch/diff function; declare it at file scope, with a tag or a typedef name, so that the generated functions can name it
  return s.a * x;
}
__attribute__((batch, diff)) double g(const struct { double a; } *s, double x) {
  // CHECK: param-struct-in-prototype.c:[[@LINE-1]]:67: error: parameter 's' of an anonymous struct type is not supported in a batch/diff function; declare it at file scope, with a tag or a typedef name, so that the generated functions can name it
  return s->a * x;
}
