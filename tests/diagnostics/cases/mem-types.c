/* memcpy between arrays of different element types. */
#include <string.h>
__attribute__((batch)) float f(const double x[2]) {
  float t[4];
  memcpy(t, x, sizeof t);
  // CHECK: mem-types.c:[[@LINE-1]]:13: error: 'memcpy' from 'const double *' into 'float *' is not supported in a batch/diff function; copy between arrays of the same element type
  return t[0];
}
