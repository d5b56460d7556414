/* memcpy of several elements at the address of a scalar. */
#include <string.h>
__attribute__((batch, diff)) double f(double x) {
  double a = x, b[2];
  memcpy(b, &a, 2 * sizeof(double));
  // CHECK: mem-scalar.c:[[@LINE-1]]:3: error: a 'memcpy' of several elements at a scalar is not supported in a batch/diff function; copy one element, or use arrays
  return b[0];
}
