# The extents loops that count pairs, count down from n, or search a table
# give (docs/abi-arrays.md), as the remarks say them: 2 x (n / 2) for pairs
# under `i < n / 2` (the odd element unread), n / 2 for `x[i]` there, n with
# the odd one read as `x[n - 1]`; n for `while (i > 0) { i--; ... }` and
# `while (i-- > 0)`; n for the indices of a bracketing search, for n >= 1.
# tests/exec/test_extent_loops.c runs them.
. "$SRC/lib.sh"

cat >e.c <<'C'
#include <batchdiff.h>
BATCHDIFF double pairs(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < (n >> 1); i++)
    s += x[2 * i] * x[2 * i + 1];
  return s;
}
BATCHDIFF double half(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n / 2; i++)
    s += x[i];
  return s;
}
BATCHDIFF double odd(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n / 2; i++)
    s += x[2 * i] * x[2 * i + 1];
  if (n % 2)
    s += x[n - 1];
  return s;
}
BATCHDIFF double down(const double *x, const double *y, int n) {
  double s = 0.0;
  int i = n, j = n;
  while (i > 0) {
    i--;
    s = s * 0.5 + x[i];
  }
  while (j-- > 0)
    s += y[j];
  return s;
}
BATCHDIFF double interp(const double *xk, const double *yk, int m, double t) {
  int lo = 0, hi = m - 1, mid;
  while (hi - lo > 1) {
    mid = (lo + hi) / 2;
    if (xk[mid] > t)
      hi = mid;
    else
      lo = mid;
  }
  double f = (t - xk[lo]) / (xk[hi] - xk[lo]);
  return yk[lo] + f * (yk[hi] - yk[lo]);
}
C
run_rc 0 bdcc -O2 -march=native -Wall -Wextra -Werror -fno-color-diagnostics \
  -fplugin-arg-batchdiff-remarks -c e.c -o e.o
expect_syms e.o pairs_batched pairs_grad half_batched odd_grad down_grad \
  interp_batched interp_grad
want() { # want LINE PARAM DIMS
  grep "^e.c:$1:" last.out |
    grep -qF "parameter '$2' is varying (one value per example), differentiated; input array, dims $3;" ||
    { cat last.out >&2; fail "line $1: '$2' is not $3"; }
}
want 2 x "dynamic, 2 x (parameter 'n' / 2) (loop bound, indices 2 * i + c)"
want 8 x "dynamic, parameter 'n' / 2 (loop bound)"
want 14 x "dynamic, from parameter 'n' (loop bound)"
want 22 y "dynamic, from parameter 'n' (loop bound)"
want 33 xk "dynamic, from parameter 'm' (indices 'mid', 'lo', 'hi' of a search, within 0 .. 'm' - 1 for 'm' >= 1)"
want 33 yk "dynamic, from parameter 'm' (indices 'lo', 'mid', 'hi' of a search, within 0 .. 'm' - 1 for 'm' >= 1)"
[ "$(grep -c "dims dynamic" last.out)" = 7 ] || { cat last.out >&2; fail "7 arrays"; }
