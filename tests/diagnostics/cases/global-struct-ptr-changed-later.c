/* A pointer member of a static struct that is not const, read as its
 * initializer says, which code after the function changes: found at the
 * end of the file (the function was generated before that code came). */
// GENERATED: the function is generated before the change is parsed
static const double C[3] = {1.0, 2.0, 3.0}, D[3] = {4.0, 5.0, 6.0};
struct poly { int n; const double *c; };
static struct poly PL = {3, C};
__attribute__((batch, diff)) double f(double x) {
  return x * PL.c[1];
  // CHECK: global-struct-ptr-changed-later.c:[[@LINE-1]]:14: error: the pointer member 'c' of 'PL', which other code may change, is not supported in a batch/diff function; declare 'PL' const, with its pointers set in its initializer
}
void repoint(void) { PL.c = D; }
// CHECK: global-struct-ptr-changed-later.c:[[@LINE-1]]:27: note: 'PL' may be changed here
