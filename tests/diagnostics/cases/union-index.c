/* A constant index outside a union's array member. */
// FLAGS: -Wno-array-bounds
#include <stdint.h>
__attribute__((batch)) uint32_t f(double x) {
  union { double d; uint32_t w[2]; } v = {x};
  return v.w[2];
  // CHECK: union-index.c:[[@LINE-1]]:14: error: element 2 of a union's array member is not supported in a batch/diff function; index within the array
}
