/* Every unsupported construct of a file is reported in one compile: one in
   a helper (once, although three times inlined by two functions), two more
   in the same function, one in the next function. A declaration that
   fails makes no follow-on errors where its variable is used. */
#include <math.h>
struct pt {
  double a, b;
};
static double helper(double x) {
  return (double){x};
  // CHECK: errors-several.c:[[@LINE-1]]:10: error: a compound literal '(type){...}' is not supported in a batch/diff function; use arithmetic on scalar locals and parameters
}
__attribute__((batch, diff)) double a(double x, struct pt p) {
  double h = helper(x);
  double h2 = helper(2 * x);
  double m[2][200][200] = {{{x}}};
  // CHECK: errors-several.c:[[@LINE-1]]:10: error: local array 'm' of type 'double[2][200][200]' is not supported in a batch/diff function; use an array of 1..65536 scalars
  double sg = nexttoward(p.a, 1.0L);
  // CHECK: errors-several.c:[[@LINE-1]]:15: error: the library function 'nexttoward' is not supported in a batch/diff function; it has no batched version yet (docs/subset.md lists the <math.h> functions that have one)
  return m[0][0][0] + h + h2 + sg;
}
__attribute__((batch)) double b(double x) {
  _Complex int z = x;
  // CHECK: errors-several.c:[[@LINE-1]]:16: error: local variable 'z' of type '_Complex int' is not supported in a batch/diff function; use double complex or float complex locals
  z *= 2;
  return x * __real__ z;
}
/* The helper's error was reported already. */
__attribute__((batch)) double c(double x) { return helper(x) + 1; }
