/* A struct parameter by value (issue 11 part 1, docs/abi.md "Structs"):
 * varying, one record per example (vec3 is dense: a full group of W records
 * is transposed in registers, bd_aos_load3_f64d, the last partial group read
 * member by member into lanes), and BD_UNIFORM, passed by value; shadows are
 * records (d_a[b].x += ..., bd_aos_load3/store3 for full groups), the uniform
 * one summed over the batch. */
#include <batchdiff.h>
// DEFINES: dist dist_batched dist_grad
// CHECK: void dist_batched(size_t __bd_n, const vec3 *__bd_a0, vec3 __bd_a1, double *__bd_ret) {
// CHECK: void dist_grad(size_t __bd_n, const vec3 *__bd_a0, vec3 __bd_a1, double *__bd_ret, const double *__bd_dret, vec3 *__bd_d0, vec3 *__bd_d1) {

typedef struct {
  double x, y, z;
} vec3;

BATCHDIFF double dist(vec3 a, BD_UNIFORM vec3 c) {
  double dx = a.x - c.x, dy = a.y - c.y, dz = a.z - c.z;
  return dx * dx + dy * dy + dz * dz;
}
