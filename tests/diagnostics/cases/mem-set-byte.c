/* memset to a byte other than 0 (the bit pattern is not a number users mean). */
#include <string.h>
__attribute__((batch, diff)) double f(double x) {
  double t[2];
  memset(t, 0xff, sizeof t);
  // CHECK: mem-set-byte.c:[[@LINE-1]]:13: error: 'memset' to a byte other than 0 is not supported in a batch/diff function; assign the elements in a loop
  return t[0] * x;
}
