/* Arrays of records as parameters (issue 11 part 1, docs/abi.md
 * "Structs"): a varying `const vec3 *p` is strided in records, a record
 * out-parameter `vec3 *out` alike; each member is an array of its own at
 * &p->m with stride p_stride * (sizeof(vec3) / sizeof(double)); shadows are
 * records laid out as the primal. */
#include <batchdiff.h>
// DEFINES: spread spread_batched spread_grad sum2 sum2_batched sum2_grad
// CHECK: void spread_batched(size_t __bd_n, const vec3 *__bd_a0, ptrdiff_t __bd_as0, int __bd_a1, vec3 *__bd_a2, ptrdiff_t __bd_as2, double *__bd_ret) {
// CHECK: void spread_grad(size_t __bd_n, const vec3 *__bd_a0, ptrdiff_t __bd_as0, int __bd_a1, vec3 *__bd_a2, ptrdiff_t __bd_as2, double *__bd_ret, const double *__bd_dret, vec3 *__bd_d0, ptrdiff_t __bd_ds0, vec3 *__bd_d2, ptrdiff_t __bd_ds2) {
// CHECK: void sum2_grad(size_t __bd_n, const vec3 *__bd_a0, const double *__bd_a1, double *__bd_ret, const double *__bd_dret, vec3 *__bd_d0, double *__bd_d1) {

typedef struct {
  double x, y, z;
} vec3;

BATCHDIFF double spread(const vec3 *p, BD_UNIFORM int n, vec3 *out) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += p[i].x * p[i].y - p[i].z;
  out->x = s;
  out->y = p->y;
  out->z = 0.0;
  return s * s;
}

BATCHDIFF double sum2(BD_UNIFORM const vec3 w[2], double t) {
  return w[0].x * t + w[1].z;
}
