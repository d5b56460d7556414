/* A pointer member of a file-scope struct that is neither const nor
 * static: other files may re-point it between calls (a const one, or a
 * static one this file never changes, is read from its initializer). */
static const double C[3] = {1.0, 2.0, 3.0};
struct poly { int n; const double *c; };
struct poly PL = {3, C};
__attribute__((batch, diff)) double f(double x) {
  return x * PL.c[1];
  // CHECK: global-struct-ptr-nonconst.c:[[@LINE-1]]:14: error: the pointer member 'c' of 'PL', which other code may change, is not supported in a batch/diff function; declare 'PL' const, with its pointers set in its initializer
}
