/* Bit-fields in a union (its words and shifts work). */
#include <stdint.h>
struct ieee { uint64_t man : 52, exp : 11, sign : 1; };
union dbl { double d; struct ieee b; };
__attribute__((batch)) int f(double x) {
  union dbl v;
  // CHECK: union-bitfield.c:[[@LINE-1]]:13: error: bit-field member 'man' of 'struct ieee' is not supported in a batch/diff function; give a union float, double or integer members, or structs or arrays of them (read bit-fields with shifts and masks)
  v.d = x;
  return (int)v.b.exp;
}
