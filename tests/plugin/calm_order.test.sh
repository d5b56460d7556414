# jn and yn on a side of a per-lane branch: glibc's take O(|n|) steps, and a
# lane that does not take the side may hold an order meant for the other
# one (`n < 50 ? jn(n, x) : 0` with n = 1e9 would run a billion steps for
# a value nobody reads), so the batcher gives those lanes order 0
# (Batcher::calmArg), and a side calling them is never computed for every
# lane (safeSide: not branch-free). Checked in the emitted C, no timing: in
# NAME_batched's kernel, the calls of the runs under a mask get their order
# from a bd_select_i32d(mask, order, 0), those of the runs every lane takes
# (bd_all_md) pass it as it is.
. "$SRC/lib.sh"

cat >calm.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF double f(int n, double x) {
  if (x > 2.0)
    return jn(n + 1, x) + yn(n, x);
  return n < 50 ? jn(n, x) : 0.0;
}
C
expect_ok bdcc -O2 -march=x86-64 -I"$SRC/../../annotations" \
  -fplugin-arg-batchdiff-emit=out -c calm.c -o calm.o
awk '
  /void __bd_f_bk\(/ { on = 1 }
  on && /^}/ { on = 0 }
  !on { next }
  /bd_select_i32d\(.*bd_splat_i32d\(\(\(int32_t\)0x0u\)\)\)/ {
    split($0, w, " "); calm[w[2]] = 1
  }
  /bd_(jn|yn)_f64d\(/ {
    s = $0; sub(/.*bd_(jn|yn)_f64d\(/, "", s); sub(/,.*/, "", s)
    if (s in calm) ncalm++; else nplain++
  }
  END { print ncalm + 0, nplain + 0 }' out/calm.c.batchdiff.c >counts.txt
# Calmed: jn and yn where some lanes take x > 2, the `n < 50` jn where
# some lanes take it, under all lanes or some taking x <= 2 (4). As they
# are: jn and yn where all take x > 2, the jn where all take both x <= 2
# and n < 50 (3). Before, the `?:` was branch-free (its jn called in every
# lane with its own order) where all lanes take x <= 2: 3 and 3.
[ "$(cat counts.txt)" = "4 3" ] || {
  cat out/calm.c.batchdiff.c >&2
  fail "calls with a calmed order, others: $(cat counts.txt), want 4 3"
}
