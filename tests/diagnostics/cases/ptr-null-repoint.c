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

/* A local copy of such a parameter that is re-pointed (where it points
   would depend on the path), and such a parameter assigned to a local
   declared without it: only a copy made where it is declared and never
   re-pointed is null wherever it is used. */
static double g(double x, double *o) {
  double t = x;
  double *c = o;
  // CHECK: ptr-null-repoint.c:[[@LINE-1]]:11: error: re-pointing 'c', a copy of 'o', which a call passes a null pointer, is not supported in a batch/diff function; choose where it points where it is declared ('double *c = o ? o : &own;'), or leave the copy as it is and test it ('if (c != NULL) ...')
  if (c == 0)
    c = &t;
  *c = x * x;
  return t;
}
__attribute__((batch, diff)) double f2(double x) { return g(x, 0); }

static double k(double x, double *o) {
  double *c;
  c = o;
  // CHECK: ptr-null-repoint.c:[[@LINE-1]]:5: error: assigning 'o', a null pointer here (the call at line [[@LINE+3]] passes NULL), to 'c' is not supported in a batch/diff function; copy it where 'c' is declared ('double *c = o;') and leave the copy as it is, testing it ('if (c != NULL) ...')
  return c ? *c : x;
}
__attribute__((batch, diff)) double f3(double x) { return k(x, 0); }
