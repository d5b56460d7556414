/* A helper writing through a pointer parameter its call passes NULL,
   without testing it first ('if (o != NULL) *o = x;' folds at the call:
   R's lgammafn_sign(x, NULL)). */
static double h(double x, double *o) {
  *o = x;
  // CHECK: ptr-null-use.c:[[@LINE-1]]:4: error: using 'o', a null pointer here (the call at line 10 passes NULL), is not supported in a batch/diff function; test it first ('if (o != NULL) ...'), or pass a local's address
  return x;
}

__attribute__((batch, diff)) double f(double x) { return h(x, 0); }
