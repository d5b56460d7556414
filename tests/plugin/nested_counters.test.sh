# An inner loop's counter set before the loop inside an outer loop whose
# trip count differs per example (`for (n = steps - 1; n >= 0; n--) for (i
# = 0; i <= n; i++) v[i] ...`, a binomial tree) is the same on every lane
# still in the inner loop, so it stays a scalar (analysis/LoopCounters.cpp:
# each loop around one of its writes is tried, not only the first's): the
# local array is read and written at that index with whole vectors, not
# gathered and scattered per lane. Values: tests/exec/test_nested_counters.c.
. "$SRC/lib.sh"

cat >nc.c <<'C'
#include <batchdiff.h>
BATCHDIFF double tree(double s, double p, int steps) {
  double v[65];
  if (steps > 64)
    steps = 64;
  for (int i = 0; i <= steps; i++)
    v[i] = s * i;
  for (int n = steps - 1; n >= 0; n--)
    for (int i = 0; i <= n; i++)
      v[i] = p * v[i] + (1 - p) * v[i + 1];
  return v[0];
}
C
bdcc -O2 -march=x86-64-v3 -fplugin-arg-batchdiff-emit=gen -c nc.c -o nc.o \
  2>err.txt || { cat err.txt >&2; fail "nc.c does not compile"; }
G=$(ls gen/*.c)
if grep -q 'bd_agather\|bd_ascatter' "$G"; then
  fail "tree's local array is gathered or scattered: $(grep -c 'bd_agather\|bd_ascatter' "$G") times"
fi
grep -q 'int32_t __bd_v[0-9]*_i = ' "$G" ||
  fail "no scalar counter 'i' in the generated code"
echo ok
