/* A pointer member of a static struct that is not const, which code of
 * the file before the function may change: re-pointed by an assignment,
 * its address passed as a pointer to non-const, const cast away from a
 * pointer to it (a static struct the file never changes is read from its
 * initializer). */
static const double C[3] = {1.0, 2.0, 3.0}, D[3] = {4.0, 5.0, 6.0};
struct poly { int n; const double *c; };
static struct poly PA = {3, C}, PB = {3, C}, PC = {3, C};
void repoint(int k) { if (k) PA.c = D; }
void set(struct poly *p) { p->c = D; }
void setb(void) { set(&PB); }
void setc(const struct poly *p) { ((struct poly *)p)->n = 2; }
__attribute__((batch, diff)) double f(double x) {
  double s = x * PA.c[1];
  // CHECK: global-struct-ptr-changed.c:[[@LINE-1]]:18: error: the pointer member 'c' of 'PA', which other code may change, is not supported in a batch/diff function; declare 'PA' const, with its pointers set in its initializer
  // CHECK: global-struct-ptr-changed.c:[[@LINE-7]]:35: note: 'PA' may be changed here
  s += PB.c[2];
  // CHECK: global-struct-ptr-changed.c:[[@LINE-1]]:8: error: the pointer member 'c' of 'PB', which other code may change, is not supported in a batch/diff function; declare 'PB' const, with its pointers set in its initializer
  // CHECK: global-struct-ptr-changed.c:[[@LINE-8]]:23: note: 'PB' may be changed here
  return s * PC.c[0];
  // CHECK: global-struct-ptr-changed.c:[[@LINE-1]]:14: error: the pointer member 'c' of 'PC', which other code may change, is not supported in a batch/diff function; declare 'PC' const, with its pointers set in its initializer
  // CHECK: global-struct-ptr-changed.c:[[@LINE-10]]:36: note: 'PC' may be changed here
}
