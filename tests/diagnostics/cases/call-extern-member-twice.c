/* An array member of a struct passed to a function called once per
   example with another argument into the same struct (the struct itself,
   or the member again): each argument gets a copy of the example's
   values, so the callee would not see one struct. */
// GENERATED: f waits for cp's body until the file ends; the declarations of f_batched are injected right after f
struct st { double eb[3]; double em; };
void cp(double p[3], double c[3]);
__attribute__((batch)) double f(double x, struct st *s) {
  s->eb[0] = x;
  cp(s->eb, s->eb);
  // CHECK: call-extern-member-twice.c:[[@LINE-1]]:13: error: passing 's->eb' to 'cp', which is called once per example, with another argument into the same struct is not supported in a batch/diff function; each argument gets a copy of the example's values: pass the member once (copy it into a local array for the other)
  return s->eb[1];
}
