/* Arrays whose values only reach comparisons (found by tests/robust): no
   gradient flows through them, and their shadow parameters, strides and
   lane offsets in the gradient kernels were unused. */
#include <batchdiff.h>
BATCHDIFF BD_JVP BD_HVP double sign_of(double x, const double *c) {
  return c[0] > 0 ? x : -x;
}
BATCHDIFF BD_JVP BD_HVP double count_pos(double x, int n, const double *c) {
  double s = x;
  for (int i = 0; i < n; i++)
    if (c[i] > 0)
      s += x;
  return s;
}
BATCHDIFF BD_JVP double dead_read(double x, int n, const float c[2][2][3]) {
  for (int i = 0; i < n; i++) {
    if (c[i % 2][1][2] * x > 1.0f)
      continue;
  }
  return x;
}
/* The same in every layout: packed and pointer ragged arrays, a uniform
   array, an output array, arrays of records (one member read). */
BATCHDIFF BD_JVP BD_HVP double cmp_packed(double x, int n,
                                          BD_PACKED const double *c) {
  double s = x;
  for (int i = 0; i < n; i++)
    if (c[i] > 0)
      s += x;
  return s;
}
BATCHDIFF BD_JVP BD_HVP double cmp_pointers(double x, int n,
                                            BD_POINTERS const double *c) {
  double s = x;
  for (int i = 0; i < n; i++)
    if (c[i] > 0)
      s += x;
  return s;
}
BATCHDIFF BD_JVP BD_HVP double cmp_uniform(double x,
                                           BD_UNIFORM const double c[3]) {
  return c[1] > 0 ? x : 2 * x;
}
BATCHDIFF BD_JVP BD_HVP double cmp_output(double x, double *out) {
  out[0] = 1.0;
  return out[0] > x ? x : -x;
}
typedef struct {
  double a, b;
} pt;
BATCHDIFF BD_JVP BD_HVP double cmp_records(double x, const pt p[2]) {
  return p[1].a > 0 ? x * p[0].b : x;
}
