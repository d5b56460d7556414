/* Global structs and tables of structs: each member read in place from
 * `&S[0].m`, a table whose stride is sizeof(seg) / sizeof(m) (a short
 * member with the narrow-table gather), gathered at the per-example segment
 * a search loop finds; the loop's `k < 3 && x >= S[k].hi` reads S[k].hi
 * for lanes where C would not (k = 3), so that index is kept inside the
 * table. A const struct's members are constants. */
#include <batchdiff.h>
// DEFINES: seg_eval seg_eval_batched

typedef struct {
  double lo, hi, c0, c1;
  short tag;
} seg;
static const seg S[3] = {
    {-1.0, 0.0, 1.0, 2.0, 3}, {0.0, 1.0, 0.5, -1.0, 4}, {1.0, 2.0, 2.0, 0.25, 5}};
static const struct {
  double scale;
  int n;
} P = {0.5, 3};

BD_BATCH double seg_eval(double x) {
  int k = 0;
  while (k < 3 && x >= S[k].hi)
    k++;
  if (k == P.n)
    k = P.n - 1;
  return P.scale * (S[k].c0 + (x - S[k].lo) * S[k].c1) + S[k].tag;
}
// The search loop's read of S[k].hi (member table __bd_p2), its index
// replaced by 0 outside [0, 15):
// CHECK: = bd_select_i32{{[a-z0-9]*}}({{.*}}, bd_splat_i32{{[a-z0-9]*}}(((int32_t)0x0u)));
// CHECK: = bd_gather_f64{{[a-z0-9]*}}({{.*}}, __bd_p2, {{.*}});
// Each member is a table read in place (5 doubles or 20 shorts apart):
// CHECK: const double *__bd_a2 = (const double *)&S[0].hi;
// CHECK: const int16_t *__bd_a5 = (const int16_t *)&S[0].tag;
