# The chunk loop prefetches its streams, the arrays it reads and writes one
# example after another, about 1 KB ahead (emit/Wrapper.cpp prefetches(),
# gen_support.h bd_prefetch_r/_w). Checked: the emitted loops of a
# _batched and a _grad (the parameters' arrays and _batched's ret, never
# NULL, unconditionally; _grad's ret, the seed and the shadows under a
# test of their pointer, which may be NULL;
# one test per step that the step ahead is before the chunk's end), none
# for an array parameter (its examples are a stride apart) and none with
# more than 8 streams (9 parameters and ret); the prefetches after the
# step's loads, just before the kernel call (at the step's start their
# branch kept LLVM from merging the chains' full-vector loads: 48.2
# instead of 44.4 instructions per example in lognormal_nll_grad at
# x86-64-v3, docs/performance.md), also in a loop of whole steps; the results
# for every n up to 300 (the step ahead near the chunk's end) bit for bit
# those of one call on all 300, and within 1 ULP of the scalar function's
# (the runtime's log is glibc's bits on some CPUs only, docs/abi.md
# "Accuracy"), with NULL outputs, compiled with -fsanitize=pointer-overflow
# (no offset from a NULL pointer).
. "$SRC/lib.sh"

cat >p.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF double pf(double x, double y) { return x * log(y) + y; }
BATCHDIFF float pa(const float v[4], float s) {
  return v[0] * s + v[3];
}
/* two costly calls in a row (4 chains, whole steps); log1pf(expf(-z)) is
 * one call now (FuseMath.h), which runs one chain */
BATCHDIFF float pw(float z, float y) { return logf(1.0f + expf(-z)) - y * z; }
BATCHDIFF double p9(double a, double b, double c, double d, double e,
                    double f, double g, double h, double i) {
  return a * b + c * d + e * f + g * h + i;
}
C
mkdir -p em
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
  -fsanitize=pointer-overflow -fsanitize-trap=pointer-overflow \
  -fplugin-arg-batchdiff-emit=em -c p.c -o p.o
expect_syms p.o pf_batched pf_grad pa_batched p9_batched
chunk() { awk "/static void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/p.c.batchdiff.c; }
chunk pf_bc >b.txt
chunk pf_gc >g.txt
chunk pa_bc >a.txt
# The line of the step-ahead test: after the inputs' last load, before the
# kernel call.
after_loads() {
  local t l k
  t=$(grep -n "if (__bd_i + $2 + " "$1" | cut -d: -f1)
  k=$(grep -n "^    __bd_$3k(" "$1" | cut -d: -f1)
  l=$(head -n "${k:-0}" "$1" | grep -n 'bd_load' | tail -1 | cut -d: -f1)
  [ -n "$t" ] && [ -n "$l" ] && [ -n "$k" ] && [ "$t" -gt "$l" ] && [ "$t" -lt "$k" ] ||
    fail "$1: the prefetches (line $t) not between the last load (line $l) and the kernel call (line $k)"
}
after_loads b.txt 128 pf_b
after_loads g.txt 128 pf_g
after_loads a.txt 256 pa_b
chunk pw_bc >w.txt
grep -q 'if (__bd_all)' w.txt || fail "pw_bc: no loop of whole steps"
after_loads w.txt 256 pw_b
for f in b.txt g.txt; do
  [ "$(grep -c 'if (__bd_i + 128 + ' $f)" -eq 1 ] || fail "$f: not one test of the step ahead"
  for p in __bd_a0 __bd_a1; do
    grep -q "^      bd_prefetch_r($p, (__bd_i + 128) \* 8, " $f ||
      fail "$f: $p not prefetched (unconditionally)"
  done
done
grep -q '^      bd_prefetch_w(__bd_ret, ' b.txt || fail "pf_bc: ret not prefetched unconditionally"
grep -q 'if (__bd_ret) bd_prefetch_w(__bd_ret, ' g.txt || fail "pf_gc: ret not prefetched under its test"
for p in __bd_d0 __bd_d1; do
  grep -q "if ($p) bd_prefetch_w($p, " g.txt || fail "pf_gc: shadow $p not prefetched under its test"
done
grep -q 'if (__bd_dret) bd_prefetch_r(__bd_dret, ' g.txt || fail "pf_gc: the seed not prefetched under its test"
# float streams: 1 KB is 256 examples; the array v is no stream
grep -q 'bd_prefetch_r(__bd_a1, (__bd_i + 256) \* 4, ' a.txt || fail "pa_bc: s not prefetched 256 examples ahead"
if grep -q 'bd_prefetch_r(__bd_a0' a.txt; then fail "pa_bc prefetches the array v"; fi
chunk p9_bc >n.txt
[ -s n.txt ] || fail "no chunk function __bd_p9_bc"
if grep -q 'bd_prefetch' n.txt; then fail "p9_bc prefetches 10 streams"; fi

# The helpers are straight-line for the sizes the chunk loops pass (up to 4
# chains of one 64-byte vector): a loop of 1 to 4 constant trips cost
# LLVM's loop passes at every call (docs/compile-time.md). At -O0, where
# nothing is unrolled, a call for 256 bytes shows 4 prefetches each (a loop:
# one).
cat >h.c <<'C'
#include <batchdiff.h>
void hr(const double *p, size_t i) { bd_prefetch_r(p, i, 256); }
void hw(double *p, size_t i) { bd_prefetch_w(p, i, 256); }
C
expect_ok bdcc -O0 -march=native -S h.c -o h.s
[ "$(grep -c '^[[:space:]]*prefetch' h.s)" -ge 8 ] ||
  fail "bd_prefetch_r/_w loop for 256 bytes: $(grep -c prefetch h.s) prefetches at -O0"

cat >main.c <<'C'
#include <math.h>
#include <stdio.h>
#include <string.h>
double pf(double x, double y);
void pf_batched(size_t n, const double *x, const double *y, double *r);
void pf_grad(size_t n, const double *x, const double *y, double *r,
             const double *dr, double *dx, double *dy);
#define N 300
static int same(double a, double b) { return !memcmp(&a, &b, sizeof a); }
static int near(double a, double b) { /* within 1 ULP */
  return fabs(a - b) <= nextafter(fabs(b), INFINITY) - fabs(b);
}
int main(void) {
  static double x[N], y[N], r[N], dx[N], dy[N], r1[N], r2[N], dx2[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + 0.01 * i;
    y[i] = 1.5 + 0.37 * (i % 17);
  }
  pf_batched(N, x, y, r1);
  pf_grad(N, x, y, r2, NULL, dx2, NULL);
  for (int i = 0; i < N; i++)
    if (!near(r1[i], pf(x[i], y[i])) || !same(r2[i], r1[i])) {
      printf("example %d: %a %a, scalar %a\n", i, r1[i], r2[i], pf(x[i], y[i]));
      return 1;
    }
  for (int n = 1; n <= N; n++) {
    memset(r, 0, sizeof r);
    memset(dx, 0, sizeof dx);
    pf_batched((size_t)n, x, y, r);
    for (int i = 0; i < N; i++)
      if (!same(r[i], i < n ? r1[i] : 0.0)) {
        printf("n %d, example %d: %a\n", n, i, r[i]);
        return 1;
      }
    pf_grad((size_t)n, x, y, NULL, NULL, dx, dy);
    pf_grad((size_t)n, x, y, NULL, NULL, NULL, NULL);
    for (int i = 0; i < N; i++)
      if (!same(dx[i], i < n ? dx2[i] : 0.0)) {
        printf("grad, n %d, example %d: %a %a\n", n, i, dx[i], dx2[i]);
        return 1;
      }
  }
  puts("ok");
  return 0;
}
C
expect_ok "$CLANG" -O2 -march=native -c main.c -o main.o
run_rc 0 "$CLANG" -fsanitize=pointer-overflow -fsanitize-trap=pointer-overflow \
  main.o p.o "$RTLIB" -lsleef -lm -lpthread -o main
run_rc 0 ./main
grep -q '^ok$' "$WORK/last.out" || fail "main did not finish"
