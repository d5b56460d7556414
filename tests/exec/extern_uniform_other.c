/* The callees of test_extern_uniform.c, in another translation unit. */
#include "extern_uniform.h"

#include <string.h>

int xu_sum(const unsigned char *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s = s * 3 + p[i];
  xu_record(1, (uint64_t)(uint32_t)s << 8 | (uint32_t)n, p);
  return s % 97;
}

double xu_dot(const double *w, int n, double x) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = s * x + w[i];
  uint64_t u;
  memcpy(&u, &s, sizeof u);
  xu_record(2, u ^ (uint64_t)n, w);
  return s;
}
