/* A function called once per example (here because of its string literal)
   gets numbers, string literals and file-scope pointers (stderr) only: not
   the address of a local. */
#include <stdio.h>
__attribute__((batch, diff)) double f(double x) {
  if (x < 0)
    printf("negative at %p\n", (void *)&x);
  // CHECK: call-extern-argument.c:[[@LINE-1]]:32: error: passing 'void *' to 'printf', which is called once per example, is not supported in a batch/diff function; pass numbers, string literals or file-scope pointer variables (stderr): it gets each example's values
  return x;
}
