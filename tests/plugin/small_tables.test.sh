# Small shared tables read at per-lane indices (a binary search over a
# file-scope table of knots, a float table, a BD_UNIFORM array of declared
# extent) go through bd_tgather (registers and a permute, simd.h), not
# gathers; a table past the permute's reach (40 doubles), a table that is
# not const (read with plain loads, bd_lgather) and a BD_UNIFORM pointer
# whose extent was inferred, not declared, keep their reads. Values and
# gradients: tests/exec/test_small_tables.c.
. "$SRC/lib.sh"

cat >t.c <<'C'
#include <batchdiff.h>
static const double K[11] = {0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1};
static const float F[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                            11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
static const double L[40] = {1, 2, 3};
static double S[4] = {1, 2, 3, 4};
BATCHDIFF double knot(double t) {
  int lo = 0, hi = 10;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (K[mid] > t) hi = mid; else lo = mid;
  }
  return K[lo] * t + K[hi];
}
BATCHDIFF float fl(float x) { return F[(int)x & 15] * x; }
BATCHDIFF double big(double x) { return L[(int)x & 31] * x; }
BATCHDIFF double nc(double x) { return S[(int)x & 3] * x; }
BATCHDIFF double decl(BD_UNIFORM const double w[12], double x) {
  return w[(int)x & 7] * x;
}
BATCHDIFF double inferred(BD_UNIFORM const double *w, double x) {
  double s = 0;
  for (int i = 0; i < 4; i++) s += w[i];
  return w[(int)x & 3] * x + s;
}
C
mkdir -p em
expect_ok bdcc -O2 -march=x86-64-v3 -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c t.c -o t.o
expect_syms t.o knot_batched knot_grad fl_batched big_batched decl_batched
kern() { awk "/void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/t.c.batchdiff.c; }
for f in knot_bk knot_gk fl_bk decl_bk decl_gk; do
  kern $f >k.txt
  [ -s k.txt ] || fail "no kernel __bd_$f"
  grep -q 'bd_tgather_' k.txt || fail "__bd_$f: no bd_tgather"
  if grep -q 'bd_gather_' k.txt; then fail "__bd_$f: a gather left"; fi
done
grep -q 'bd_tgather_f64d([^)]*, 11, ' em/t.c.batchdiff.c ||
  fail "K's reads do not pass its 11 elements"
for f in big_bk nc_bk inferred_bk; do
  kern $f >k.txt
  [ -s k.txt ] || fail "no kernel __bd_$f"
  if grep -q 'bd_tgather_' k.txt; then fail "__bd_$f: read as a small table"; fi
done
echo ok
