# Short counted loops are lowered as copies of their body (plugin/lower/
# LowerUnroll.cpp, docs/loops.md "Short counted loops"): the gradient keeps
# no tape for them. Checked by the remarks: a 3x3 nested loop, a countdown
# and a `!=` loop leave no loop in NAME_batched and no tape in NAME_grad;
# a loop of 17 trips, one left by `break`, one whose body changes its
# counter, one over a per-example bound and one marked `#pragma nounroll`
# stay loops (a tape each in NAME_grad). The values are checked in
# tests/exec/test_short_loops.c.
. "$SRC/lib.sh"

cat >sl.c <<'C'
#include <batchdiff.h>
BATCHDIFF double copies(const double a[9], const double v[3]) {
  double av[3] = {0.0, 0.0, 0.0}, s = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      av[i] += a[i * 3 + j] * v[j];
  for (int i = 2; i >= 0; i--)
    s = s * v[0] + av[i];
  for (unsigned k = 0; k != 4u; k += 2)
    s += v[k / 2] * s;
  return s;
}
BATCHDIFF double loops(const double w[17], double x, int n) {
  double s = 0.0;
  for (int i = 0; i < 17; i++)
    s = s * x + w[i];
  for (int i = 0; i < 4; i++) {
    if (s > 9.0)
      break;
    s += x * w[i];
  }
  for (int i = 0; i < 4; i++) {
    s += x * w[i];
    if (s > 1.0)
      i++;
  }
  for (int i = 0; i < n && i < 4; i++)
    s += x * w[i];
#pragma nounroll
  for (int i = 0; i < 3; i++)
    s = s * x + w[i];
  return s;
}
C
bdcc -O2 -march=x86-64-v3 -fplugin-arg-batchdiff-remarks -c sl.c -o sl.o \
  2>remarks.txt || { cat remarks.txt >&2; fail "sl.c does not compile"; }
grep -q 'copies_batched: .* 0 of 0 loop(s)' remarks.txt ||
  fail "copies_batched still has loops: $(grep copies_batched remarks.txt)"
if grep -q 'copies_grad: .*loop tape' remarks.txt; then
  fail "copies_grad keeps a tape: $(grep 'copies_grad: .*tape' remarks.txt)"
fi
grep -q 'loops_batched: .* of 5 loop(s)' remarks.txt ||
  fail "loops_batched should keep its 5 loops: $(grep loops_batched remarks.txt)"
grep -q 'loops_grad: 5 loop tape(s)' remarks.txt ||
  fail "loops_grad should keep 5 tapes: $(grep 'loops_grad' remarks.txt)"
echo ok
