/* Using a helper's pointer parameter its call passes NULL without testing it
   first ('if (o != NULL) *o = x;' folds at the call: R's lgammafn_sign(x,
   NULL)), or a local set to NULL before anything points it into an array. */
static double h(double x, double *o) {
  *o = x;
  // CHECK: ptr-null-use.c:[[@LINE-1]]:4: error: using 'o', a null pointer here (the call at line 10 passes NULL), is not supported in a batch/diff function; test it first ('if (o != NULL) ...'), or pass a local's address
  return x;
}

__attribute__((batch, diff)) double f(double x) { return h(x, 0); }

/* A local pointer declared NULL and used where no assignment has pointed
   it anywhere yet. */
static const double T[3] = {1, 2, 3};
__attribute__((batch, diff)) double g(double x) {
  const double *c = 0;
  if (x > 1)
    x = -x;
  double y = c[1] * x;
  // CHECK: ptr-null-use.c:[[@LINE-1]]:14: error: using 'c', a null pointer here (set to NULL at line 16), is not supported in a batch/diff function; point it into an array or at a local before this use
  c = T;
  return y + c[0];
}

/* A call passing NULL and, to another parameter, a local that may still
   be NULL: the parameter given NULL is named as such (it was said to be
   the local's). */
static double pr(const double *p, const double *q, double x) {
  return (p ? p[0] : 1.0) * q[0] * x;
  // CHECK: ptr-null-use.c:[[@LINE-1]]:29: error: using 'q', a null pointer here (the call at line [[@LINE+6]] passes NULL), is not supported in a batch/diff function; test it first ('if (q != NULL) ...'), or pass a local's address
}
__attribute__((batch, diff)) double fe(const double a[2], double x) {
  const double *c = 0;
  if (x > 1)
    c = a;
  return pr(c, 0, x);
}
