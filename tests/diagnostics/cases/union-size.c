/* A union of other than 4 or 8 bytes. */
#include <stdint.h>
union big { double d[2]; uint64_t u[2]; };
__attribute__((batch)) double f(double x) {
  union big b;
  // CHECK: union-size.c:[[@LINE-1]]:13: error: local variable 'b' of type 'union big' (16 bytes) is not supported in a batch/diff function; use a union of 4 or 8 bytes whose members all have its size (double with uint64_t or uint32_t[2], float with uint32_t)
  b.d[0] = x;
  return b.d[0];
}
