/* memcpy of a size that is not whole elements, or of more than 256 elements. */
#include <string.h>
__attribute__((batch, diff)) double f(double x) {
  double t[300] = {0}, u[300];
  t[0] = x;
  memcpy(u, t, sizeof t);
  // CHECK: mem-size.c:[[@LINE-1]]:16: error: a 'memcpy' of 2400 bytes is not supported in a batch/diff function; copy or clear whole elements, at most 256 of them (else use a loop)
  return u[0];
}
