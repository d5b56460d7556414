/* A function called once per example (here because of its string literal)
   gets numbers and string literals only: not stderr. */
#include <stdio.h>
__attribute__((batch, diff)) double f(double x) {
  if (x < 0)
    fprintf(stderr, "negative: %g\n", x);
  // CHECK: call-extern-argument.c:[[@LINE-1]]:13: error: passing 'FILE *' to 'fprintf', which is called once per example, is not supported in a batch/diff function; pass numbers or string literals: it gets each example's values
  return x;
}
