/* A null pointer chosen at run time (a local declared or assigned NULL,
   then assigned on every path before its use, works). */
static const double T[3] = {1, 2, 3};
__attribute__((batch)) double f(double x) {
  const double *p = x > 0 ? T : 0;
  // CHECK: ptr-null.c:[[@LINE-1]]:33: error: a null pointer is not supported in a batch/diff function; point it into an array or at a local
  return p[0] * x;
}
