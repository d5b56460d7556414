/* The address of a union's member (its value works). */
#include <stdint.h>
#include <string.h>
__attribute__((batch)) uint64_t f(double x) {
  union { double d; uint64_t u; } v;
  memcpy(&v.d, &x, sizeof x);
  // CHECK: union-address.c:[[@LINE-1]]:10: error: taking the address of a member of a union is not supported in a batch/diff function; read and write the member itself ('u.d = x', 'e = u.w[1]')
  return v.u;
}
