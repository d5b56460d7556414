/* Array parameters whose element type is another C type than the lane
 * type the generated kernel uses, with the same size and representation:
 * `unsigned long long` and `long long` (uint64_t and int64_t are `long`
 * here), `char` and `_Bool` (int8_t and uint8_t). Passing them to the
 * kernel needs a cast (-Wincompatible-pointer-types, -Wpointer-sign;
 * tests/robust seeds 5 and 30149). */
#include <batchdiff.h>
#include <math.h>

BATCHDIFF double next_uniform(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) * 0x1.0p-53;
}
BATCHDIFF double ull_in(const unsigned long long *s, double x) {
  return (double)(s[0] >> 11) * x;
}
BATCHDIFF double ll_inout(long long *s, double x) {
  *s = *s + 1;
  return (double)(*s) * x;
}
BATCHDIFF double ll_uniform(BD_UNIFORM const long long *s, double x) {
  return (double)(*s) * x;
}

#define WBODY(T)                                                               \
  double s = a * b;                                                            \
  for (int i = 0; i < len; i++)                                                \
    x[i] = (T)(int)floor(a * i + b);                                           \
  for (int i = 0; i < len; i++)                                                \
    s += a * (int)x[i];                                                        \
  return s;
#define FNS(T, N)                                                              \
  BATCHDIFF double N##_s(T x[8], int len, double a, double b) { WBODY(T) }     \
  BATCHDIFF double N##_o(BD_PACKED T *x, int len, double a, double b) {        \
    WBODY(T)                                                                   \
  }                                                                            \
  BATCHDIFF double N##_p(BD_POINTERS T *x, int len, double a, double b) {      \
    WBODY(T)                                                                   \
  }
FNS(char, c8)
FNS(_Bool, b1)
FNS(signed char, i8)
FNS(unsigned short, u16)
