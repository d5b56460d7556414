/* Functions another translation unit defines, taking tables that are not
 * const as cephes' polevl, p1evl and mtherr take them (`void *`, `char *`):
 * each records its call, the table's address and the elements it reads
 * (xt_record, in test_extern_table.c); xt_push also writes its table. */
#include <stdint.h>
#include <string.h>

void xt_record(uint64_t tag, uint64_t v);

static uint64_t b64(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

double xt_polevl(double x, void *coef, int N) {
  const double *c = coef;
  uint64_t h = b64(x) ^ (uint64_t)(uintptr_t)coef;
  double s = c[0];
  for (int i = 1; i <= N; i++)
    s = s * x + c[i];
  for (int i = 0; i <= N; i++)
    h = h * 31 ^ b64(c[i]);
  xt_record(1, h);
  return s;
}

/* The coefficient of x^N is 1 and not in the table. */
double xt_p1evl(double x, void *coef, int N) {
  const double *c = coef;
  uint64_t h = b64(x) ^ (uint64_t)(uintptr_t)coef;
  double s = x + c[0];
  for (int i = 1; i < N; i++)
    s = s * x + c[i];
  for (int i = 0; i < N; i++)
    h = h * 31 ^ b64(c[i]);
  xt_record(2, h);
  return s;
}

int xt_err(char *name, int code) {
  uint64_t h = (uint64_t)(uintptr_t)name ^ (uint64_t)code;
  for (const char *p = name; *p; p++)
    h = h * 31 ^ (unsigned char)*p;
  xt_record(3, h);
  return 0;
}

/* Keeps the last value it was given and a running sum in h: its result
 * depends on the calls before it. */
double xt_push(double x, double *h) {
  double old = h[0];
  h[0] = x;
  h[1] += x;
  xt_record(4, b64(x) ^ b64(old) << 1 ^ b64(h[1]) << 2);
  return old + 0x1p-10 * h[1];
}

void xt_reset(double *h) { h[0] = h[1] = 0.0; }

/* cephes' lgam: a value, and a second result in a global (sgngam). */
int xt_sign = 0;
double xt_eps = 0x1p-52;

double xt_lgam(double x) {
  xt_record(5, b64(x));
  xt_sign = x < 0.0 ? -1 : 1;
  return 0.5 * (x < 0.0 ? -x : x) + 0.25;
}
