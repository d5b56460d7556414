# Nested loops over per-example lengths left early (tests/exec/
# test_nested_exit.c runs them): the inner loop's counter, set to its start
# in the outer loop's body, is one scalar for all lanes
# (analysis/LoopCounters.cpp tries the loop of each write, not only the
# first write's), and `a[i]`, read at the top of the inner loop at the outer
# counter, is read once before it (transforms/simplify/HoistInvariants.cpp):
# one gather per inner trip (of b[j]) instead of two, and no per-lane
# counter blended on every trip. A counter read after its loop stays per
# lane.
. "$SRC/lib.sh"

cat >ne.c <<'C'
#include <batchdiff.h>
BATCHDIFF double first_pair(const double *a, int n, const double *b, int m,
                            double thr) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (a[i] * b[j] > thr)
        return a[i] - b[j];
  return 0;
}
BATCHDIFF double hit_at(const double *a, int n, const double *b, int m,
                        double thr) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int j;
    for (j = 0; j < m; j++)
      if (a[i] + b[j] > thr)
        break;
    s += a[i] * (double)j;
  }
  return s;
}
C
mkdir -p em
expect_ok bdcc -O2 -march=x86-64-v3 -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c ne.c -o ne.o
expect_syms ne.o first_pair_batched first_pair_grad hit_at_batched hit_at_grad
kernel() { awk "/void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/ne.c.batchdiff.c; }
for k in first_pair_bk first_pair_gk; do
  kernel $k >$k.txt
  [ -s $k.txt ] || fail "no kernel __bd_$k"
  # both counters scalar
  grep -q 'int32_t __bd_v[0-9]*_j = 0;' $k.txt ||
    fail "$k: the inner counter j is not one scalar: $(grep '_j\b' $k.txt | head -3)"
  grep -q 'int32_t __bd_v[0-9]*_i = 0;' $k.txt || fail "$k: i is not one scalar"
  # inside the innermost do-while loop (chain 0, or the one chain): the
  # gathers of a (p0) and of b (p2)
  awk '/do \{/ {d++; if (d == 2) inner = 1}
       inner && /__bd_t[0-9]+(_0)? = bd_gather_f64d\(.*__bd_p0,/ {a++}
       inner && /__bd_t[0-9]+(_0)? = bd_gather_f64d\(.*__bd_p2,/ {b++}
       /\} while/ {if (d == 2) inner = 0; d--}
       END {print a + 0, b + 0}' $k.txt >g.txt
  [ "$(cat g.txt)" = "0 1" ] ||
    fail "$k: gathers of a and b in the inner loop: $(cat g.txt) (want 0 1)"
done
kernel hit_at_bk >h.txt
grep -q 'bd_i32d __bd_v[0-9]*_j_0' h.txt ||
  fail "hit_at_bk: j, read after its loop, should stay per lane"
echo ok
