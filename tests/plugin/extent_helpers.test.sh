# Extents inferred through calls of helpers (docs/abi.md, "Array
# parameters"): the remarks name the extent each shape gives, rows
# 'x + i * d' of a loop to n passed to a helper reading d elements (n x d,
# also through '(size_t)' casts, '&x[i * d]', an output, a helper of a
# helper), rows of 3 (3 x n), a constant offset and count (static 7), a
# count passed through a widening cast from the array's start (d); and the
# shapes left to the error say why. Values and gradients:
# tests/exec/test_extent_helpers.c.
. "$SRC/lib.sh"

cat >e.c <<'C'
#include <stddef.h>
#include <batchdiff.h>
static double dot(const double *a, const double *b, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}
static void axpy(double *y, double a, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
static double sq(const double *a, int m) { return dot(a, a, (size_t)m); }
static double sumrows(const double *m, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++)
    s += sq(&m[i * c], c);
  return s;
}
static double norm2(const double *p) { return p[0] * p[0] + p[1] * p[2]; }
static double wsum(const double *a, int m) {
  double s = 0;
  for (int i = 0; i < m; i++)
    s += a[i];
  return s;
}
BATCHDIFF double rows(const double *x, int n, int d) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += dot(x + (size_t)i * d, x + (size_t)i * d, (size_t)d);
  return s;
}
BATCHDIFF void out(double *y, const double *x, int n, int d, double a) {
  for (int i = 0; i < n; i++)
    axpy(y + i * d, a, x + i * d, d);
}
BATCHDIFF double nest(const double *x, int n, int d) { return sumrows(x, n, d); }
BATCHDIFF double pts(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += norm2(x + 3 * i);
  return s;
}
BATCHDIFF double tail(const double *x) { return wsum(x + 3, 4) * x[0]; }
BATCHDIFF double whole(const double *x, int d) { return sq(x, d); }
C
run_rc 0 bdcc -O2 -march=native -Wall -Wextra -Werror -fno-color-diagnostics \
  -fplugin-arg-batchdiff-remarks -c e.c -o e.o
expect_syms e.o rows_batched rows_grad out_batched out_grad nest_grad \
  pts_grad tail_grad whole_grad
ND="dims dynamic, parameters 'n' x 'd' (rows at i \* d of a loop to 'n', 'd' elements each)"
for want in \
  "e.c:27:.*parameter 'x' .*$ND, through a call of 'dot'" \
  "e.c:33:.*parameter 'y' .*output array, $ND, through a call of 'axpy'" \
  "e.c:33:.*parameter 'x' .*input array, $ND, through a call of 'axpy'" \
  "e.c:37:.*parameter 'x' .*$ND, through a call of 'dot', through a call of 'sq', through a call of 'sumrows'" \
  "e.c:38:.*parameter 'x' .*dims dynamic, 3 x parameter 'n' (loop bound, indices 3 \* i + c), through a call of 'norm2'" \
  "e.c:44:.*parameter 'x' .*dims static 7 (index range of constant-bound loops), through a call of 'wsum'" \
  "e.c:45:.*parameter 'x' .*dims dynamic, from parameter 'd' (loop bound), through a call of 'dot', through a call of 'sq'"; do
  grep -q "$want" last.out || { cat last.out >&2; fail "no remark: $want"; }
done

# Refused: an offset no loop bounds, a helper's index no loop explains, a
# count that is not the rows' length, a helper of a helper refusing.
cat >r.c <<'C'
#include <batchdiff.h>
static double dot(const double *a, const double *b, int m) {
  double s = 0;
  for (int j = 0; j < m; j++)
    s += a[j] * b[j];
  return s;
}
static double sqi(const double *a, int m) {
  double s = 0;
  for (int j = 0; j < m; j++)
    s += a[j * j];
  return s;
}
static double at(const double *a, int k, int c) { return dot(a + k * c, a, c); }
BATCHDIFF double f1(const double *x, int k, int d) { return dot(x + k * d, x, d); }
BATCHDIFF double f2(const double *x, int n, int d) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sqi(x + i * d, d) + dot(x + i * d, x, d + 1);
  return s;
}
BATCHDIFF double f3(const double *x, int k, int d) { return at(x, k, d); }
C
run_rc 1 bdcc -O2 -march=native -fno-color-diagnostics -c r.c -o r.o
for want in \
  "r.c:15:.*it is passed to 'dot' as 'x + k \* d', an offset that is neither a constant nor 'i \* c' or 'k \* i'" \
  "r.c:19:.*it is passed to 'sqi' as 'x + i \* d', where no loop bound or constant explains its indices" \
  "r.c:22:.*it is passed to 'at' as 'x', and from there passed to 'dot' as 'a + k \* c', an offset"; do
  grep -q "$want" last.out || { cat last.out >&2; fail "no error: $want"; }
done
# (f2's second call is the same parameter's: one error per parameter.)
[ "$(grep -c 'error: cannot infer' last.out)" -eq 3 ] ||
  { cat last.out >&2; fail "expected 3 extent errors"; }
