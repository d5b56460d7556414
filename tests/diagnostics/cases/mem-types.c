/* memcpy between arrays of element types of different sizes (one size:
 * a bit cast, supported). */
#include <string.h>
__attribute__((batch)) float f(const double x[2]) {
  float t[4];
  memcpy(t, x, sizeof t);
  // CHECK: mem-types.c:[[@LINE-1]]:13: error: 'memcpy' from 'const double *' into 'float *' is not supported in a batch/diff function; copy between arrays of the same element type, or between 4- or 8-byte types (a bit cast, e.g. double and uint64_t)
  return t[0];
}
