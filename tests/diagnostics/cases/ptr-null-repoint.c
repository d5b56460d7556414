/* A helper re-pointing a pointer parameter its call passes NULL. */
static double h(double x, double *o) {
  // CHECK: ptr-null-repoint.c:[[@LINE-1]]:35: error: re-pointing 'o', which a call passes a null pointer, is not supported in a batch/diff function; leave a parameter that may be NULL as it is, and test it ('if (o != NULL) ...')
  double t = x;
  if (o == 0)
    o = &t;
  *o = x * x;
  return t;
}

__attribute__((batch, diff)) double f(double x) { return h(x, 0); }
