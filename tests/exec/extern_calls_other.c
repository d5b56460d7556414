/* Functions another translation unit defines (extern_calls.h): the
 * annotated functions of test_extern_calls.c call them once per example,
 * and each records its call and arguments (ext_record). */
#include "extern_calls.h"

#include <math.h>
#include <string.h>

static uint64_t bits64(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

double ext_shape(double t) {
  ext_record(8, bits64(t));
  return 0.5 * t * t + sin(t);
}

float ext_shapef(float t) {
  uint32_t u;
  memcpy(&u, &t, sizeof u);
  ext_record(9, u);
  return t * 0.25f + 1.0f;
}

double ext_coef(int k, double c) {
  ext_record(10, (uint64_t)(uint32_t)k ^ bits64(c));
  return 1.0 + 0.125 * k + c;
}

/* Declared only in test_extern_calls.c. */
double ext_mainfile(double t, int k);
int ext_count(int k);

double ext_mainfile(double t, int k) {
  ext_record(11, bits64(t) ^ (uint64_t)(uint32_t)k);
  return t * k - 1.0;
}

int ext_count(int k) {
  ext_record(12, (uint64_t)(uint32_t)k);
  return 2 * k + 1;
}
