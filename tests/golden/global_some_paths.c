/* A global written on some paths only (a status flag, as old numeric C
 * leaves one): a flag per example says which examples wrote it; each chunk
 * keeps the highest example index that wrote it and its value in its slot,
 * the slots are reduced by the highest index, and the global is set after
 * the chunks ran, when some example wrote it. Next to it a global written
 * on every path, stored as before by the chunk holding example n - 1. */
#include <batchdiff.h>
// DEFINES: safe_log safe_log_batched safe_log_grad

int DOMAIN_ERR;
double LASTX;

BATCHDIFF double safe_log(double x) {
  LASTX = x;
  if (x <= 0.0) {
    DOMAIN_ERR = 1;
    return -1e300;
  }
  return log(x);
}
// The per-example flag, set where the global is written:
// CHECK: __bd_v{{[0-9]+}}_DOMAIN_ERR_written = bd_mfalse_d();
// CHECK: __bd_v{{[0-9]+}}_DOMAIN_ERR_written = bd_select_md(
// LASTX, written on every path: by the chunk holding example n - 1.
// CHECK: if (__bd_i + __bd_k == __bd_nall) {
// Each step keeps the highest writer of its lanes:
// CHECK: int __bd_gm = bd_mbits_d(bd_and_md(__bd_o{{[0-9]+}}, __bd_mk));
// CHECK: if ((__bd_gm >> __bd_j & 1) && __bd_i + __bd_j + 1 > __bd_gw{{[0-9]+}}) {
// The chunks' last writers, reduced by the highest index:
// CHECK: if (__bd_s->__bd_gw{{[0-9]+}} > __bd_c->__bd_gw{{[0-9]+}}) {
// Set once the chunks ran, if some example wrote it:
// CHECK: if (__bd_c.__bd_gw{{[0-9]+}}) DOMAIN_ERR = __bd_c.__bd_gv{{[0-9]+}};
