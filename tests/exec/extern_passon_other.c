/* Functions another translation unit defines (extern_passon.h): each
 * records its call, its arguments, what its pointee held or the elements
 * it read, and the address it got (xp_record). */
#include "extern_passon.h"

#include <string.h>

static uint64_t b64(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static uint64_t b32(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

double xp_lgamma_sign(double x, int *sgn) {
  uint32_t was = sgn ? (uint32_t)*sgn : 0x5a5au;
  xp_record(1, b64(x) ^ ((uint64_t)was << 7), sgn);
  /* Not lgamma: a value with no rounding of a math library. */
  double f = x - (double)(long)x;
  if (sgn) /* (R's lgammafn passes NULL) */
    *sgn = f < 0.25 ? -1 : 1;
  return x * 0.5 + f;
}

int xp_bump(float x, short *e) {
  xp_record(2, b32(x) ^ ((uint64_t)(uint16_t)*e << 32), e);
  *e = (short)(*e + (x > 1.0f ? 3 : -2));
  return *e > 10;
}

double xp_sum(const double *x, int n) {
  uint64_t h = (uint64_t)n;
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    h = h * 31 + b64(x[i]);
    s += x[i];
  }
  xp_record(3, h, x);
  return s;
}

int xp_code(const char *s) {
  uint64_t h = 0;
  size_t n = strlen(s);
  for (size_t i = 0; i < n; i++)
    h = h * 131 + (unsigned char)s[i];
  xp_record(4, h, s);
  return (int)(h % 1000);
}
