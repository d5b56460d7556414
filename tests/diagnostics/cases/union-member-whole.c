/* A struct member of a union used as a whole (its scalar members work). */
#include <stdint.h>
struct words { uint32_t lsw, msw; };
typedef union { double value; struct words parts; } shape;
__attribute__((batch)) uint32_t f(double x) {
  shape s;
  s.value = x;
  struct words w = s.parts;
  // CHECK: union-member-whole.c:[[@LINE-1]]:20: error: using the union member 'parts' as a whole or through a pointer is not supported in a batch/diff function; read and write its scalar members ('u.parts.msw', 'u.w[1]')
  return w.msw;
}
