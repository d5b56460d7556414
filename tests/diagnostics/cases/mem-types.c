/* memcpy between arrays of element types other than 4- or 8-byte ones
 * (between those: a bit cast, supported). */
#include <string.h>
__attribute__((batch)) float f(const double x[2]) {
  short t[8];
  memcpy(t, x, sizeof t);
  // CHECK: mem-types.c:[[@LINE-1]]:13: error: 'memcpy' from 'const double *' into 'short *' is not supported in a batch/diff function; copy between arrays of the same element type, or between 4- or 8-byte types (a bit cast, e.g. double and uint64_t or uint32_t[2])
  return t[0];
}
