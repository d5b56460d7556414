/* A pointer to a struct that is re-pointed. */
typedef struct { double re, im; } cplx;
__attribute__((batch, diff)) double f(double x) {
  cplx a = {x, 0.0}, b = {0.0, x};
  cplx *p = &a;
  // CHECK: struct-pointer-repoint.c:[[@LINE-1]]:9: error: re-pointing the struct pointer 'p' is not supported in a batch/diff function; use one pointer per struct
  if (x > 1.0)
    p = &b;
  return p->re;
}
