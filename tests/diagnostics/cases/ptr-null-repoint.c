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

/* The same where the call passes a local that may still be NULL (NULL in
   some examples): the helper runs again, with NULL, for those, and the
   message names the local and its call, also through a helper that passes
   the parameter on. */
static double hm(double x, const double *o) {
  // CHECK: ptr-null-repoint.c:[[@LINE-1]]:42: error: re-pointing 'o', which may be NULL here (the call at line [[@LINE+9]] passes 'p', which may still be NULL), is not supported in a batch/diff function; leave a parameter that may be NULL as it is, and test it ('if (o != NULL) ...'), or pass 'p' only where a test of it says it is not NULL ('p ? hm(x, p) : 0')
  if (x < 0)
    o = 0;
  return o ? o[0] * x : x;
}
__attribute__((batch, diff)) double fm(const double a[2], double x) {
  const double *p = 0;
  if (x > 1)
    p = a;
  return hm(x, p);
}

static double gm(double x, const double *o) {
  const double *c = o;
  // CHECK: ptr-null-repoint.c:[[@LINE-1]]:17: error: re-pointing 'c', a copy of 'o', which may be NULL here (the call at line [[@LINE+9]] passes 'p', which may still be NULL), is not supported in a batch/diff function; choose where it points where it is declared ('const double *c = o ? o : &own;'), or leave the copy as it is and test it ('if (c != NULL) ...'), or pass 'p' only where a test of it says it is not NULL ('p ? gm(x, p) : 0')
  if (x < 0)
    c = 0;
  return c ? c[0] * x : x;
}
__attribute__((batch, diff)) double fm2(const double a[2], double x) {
  const double *p = 0;
  if (x > 1)
    p = a;
  return gm(x, p);
}

static double km(double x, const double *o) {
  const double *c = 0;
  if (x > 0)
    c = o;
  // CHECK: ptr-null-repoint.c:[[@LINE-1]]:7: error: assigning 'o', which may be NULL here (the call at line [[@LINE+7]] passes 'p', which may still be NULL), to 'c' is not supported in a batch/diff function; copy it where 'c' is declared ('const double *c = o;') and leave the copy as it is, testing it ('if (c != NULL) ...'), or pass 'p' only where a test of it says it is not NULL ('p ? km(x, p) : 0')
  return c ? c[0] * x : x;
}
__attribute__((batch, diff)) double fm3(const double a[2], double x) {
  const double *p = 0;
  if (x > 1)
    p = a;
  return km(x, p);
}

static double on(double x, const double *q) {
  // CHECK: ptr-null-repoint.c:[[@LINE-1]]:42: error: re-pointing 'q', which may be NULL here (the call at line [[@LINE+10]] passes 'p', which may still be NULL), is not supported in a batch/diff function; leave a parameter that may be NULL as it is, and test it ('if (q != NULL) ...'), or pass 'p' only where a test of it says it is not NULL ('p ? pass(x, p) : 0')
  if (x < 0)
    q = 0;
  return q ? q[0] * x : x;
}
static double pass(double x, const double *o) { return on(x, o); }
__attribute__((batch, diff)) double fm4(const double a[2], double x) {
  const double *p = 0;
  if (x > 1)
    p = a;
  return pass(x, p);
}
