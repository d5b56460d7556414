/* A union holding a pointer (unions hold numbers only). */
#include <stdint.h>
union ref { const double *p; uint64_t u; };
__attribute__((batch)) double f(const double *x) {
  union ref r;
  // CHECK: union-pointer.c:[[@LINE-1]]:13: error: pointer member 'p' of 'union ref' is not supported in a batch/diff function; give a union float, double or integer members, or structs or arrays of them (read bit-fields with shifts and masks)
  r.p = x;
  return *r.p;
}
