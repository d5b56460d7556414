# Many early returns (`if (x > K) return x * K;` 10,000 times in one
# function: 303 s and 12.6 GB in the plugin). Each return's if holds the
# rest of the function in its else, so the function is a nest of N ifs,
# and several of the plugin's passes kept a copy of the path or of a map
# per level, or walked each if's whole subtree: quadratic in time and
# memory (LoopCounters' paths, CommonSubexpr's map per block, safeSide and
# the fast path's size in Batch, Reverser::computeGuards' nested walks,
# ForwardVars' setsIn, VarScopes' walks up the tree, Uniformity's
# paths). Checked: the plugin generates 4,000 returns' NAME_batched and
# NAME_grad in 1.5 GB of address space (before: 2.1 GB resident, aborted
# by the limit; after: 0.3 GB); with 300 returns, values bit for bit vs
# the scalar function and gradients vs the closed form, each return taken
# by some examples.
. "$SRC/lib.sh"

# gen N: N returns, thresholds from N - 1 down to 0, then `return x`.
gen() {
  awk -v n="$1" 'BEGIN {
    print "#include <batchdiff.h>\nBATCHDIFF double f(double x) {"
    for (k = n - 1; k >= 0; k--) printf "  if (x > %d) return x * %d;\n", k, k
    print "  return x;\n}" }'
}
gen 4000 >big.c
(
  ulimit -v 1500000
  expect_ok bdcc -I"$SRC/../../annotations" -fsyntax-only big.c
)
# A division in each return (by x + K + 1, one quotient each, so each
# keeps its division): ShareReciprocals (b431090) gathered, at each if of
# the nest, the divisions of the if's whole subtree and kept them while it
# went down into it, quadratic in memory and time (c5fe143: one walk).
# 3,000 returns in 1.2 GB of address space (measured: 0.82 GB needed; with
# b431090's walk 1.5-1.65 GB, aborted by the limit).
gendiv() {
  awk -v n="$1" 'BEGIN {
    print "#include <batchdiff.h>\nBATCHDIFF double f(double x) {"
    for (k = n - 1; k >= 0; k--)
      printf "  if (x > %d) return (x - %d) / (x + %d);\n", k, k, k + 1
    print "  return x;\n}" }'
}
gendiv 3000 >div.c
(
  ulimit -v 1200000
  expect_ok bdcc -I"$SRC/../../annotations" -fsyntax-only div.c
)
gen 300 >r.c
cat >main.c <<'MAIN'
#include <stdio.h>
#include <string.h>
#define N 700
double f(double);
void f_batched(size_t, const double *, double *);
void f_grad(size_t, const double *, double *, const double *, double *);
static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
int main(void) {
  static double x[N], r[N], rg[N], d[N];
  int bad = 0;
  for (int i = 0; i < N; i++)
    x[i] = i * 0.5 - 25.25; /* -25.25 .. 324.25 */
  f_batched(N, x, r);
  f_grad(N, x, rg, NULL, d);
  for (int i = 0; i < N; i++) {
    /* the return taken: the largest K < 300 with x > K, else x itself */
    int k = -1;
    for (int K = 299; K >= 0 && k < 0; K--)
      if (x[i] > K)
        k = K;
    double want = k < 0 ? 1 : k;
    if (!same(r[i], f(x[i])) || !same(rg[i], r[i]) || !same(d[i], want)) {
      printf("x %g: f %g batched %g grad ret %g d %g want %g\n", x[i],
             f(x[i]), r[i], rg[i], d[i], want);
      bad++;
    }
  }
  return bad != 0;
}
MAIN
expect_ok bdcc -O1 -march=native -Wall -Wextra -Werror -Wsystem-headers \
  -I"$SRC/../../annotations" -c r.c -o r.o
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o r.o "$RTLIB" -lsleef -lm -lpthread -o both
run_rc 0 ./both
