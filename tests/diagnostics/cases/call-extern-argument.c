/* A function called once per example (here because of its string literal)
   gets numbers, string literals, file-scope pointers (stderr), the address
   of a scalar local and read-only tables: not a converted address. */
#include <stdio.h>
__attribute__((batch, diff)) double f(double x) {
  if (x < 0)
    printf("negative at %p\n", (void *)&x);
  // CHECK: call-extern-argument.c:[[@LINE-1]]:32: error: passing 'void *' to 'printf', which is called once per example, is not supported in a batch/diff function; pass numbers, string literals, file-scope pointer variables (stderr), the address of a scalar local ('&v') or a read-only table: it gets each example's values
  return x;
}
