# A loop count or bound assigned only after its loop, in no loop around it,
# is still the extent of the array the loop reads (`for (i = 0; i < n; i++)
# s += p[i]; n = 0;`, the same after `while (n--) s += *p++;` and after a
# walk to `p + n`): inferred (remarks), and each example of a ragged batch
# reads its own n elements only (NaN past them), values bit for bit and
# gradients as the scalar function's. Assigned before its loop, or in a loop
# around it, it is not: diag param-array-extent-reassigned, -walk-reassigned,
# -outer-loop.
. "$SRC/lib.sh"

cat >e.c <<'C'
#include <batchdiff.h>
BATCHDIFF double f(const double *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += p[i] * p[i];
  n = 0;
  return s + n;
}
BATCHDIFF double g(const double *p, int n) {
  double s = 0.0;
  while (n--)
    s += 3.0 * *p++;
  n = 2;
  return s * n;
}
BATCHDIFF double h(const double *p, int n) {
  double s = 1.0;
  for (const double *q = p; q < p + n; q++)
    s *= *q;
  if (s > 0.0)
    n = 1;
  return s;
}
C
run_rc 0 bdcc -O2 -march=native -Wall -Wextra -Werror -fno-color-diagnostics \
  -fplugin-arg-batchdiff-remarks -c e.c -o e.o
expect_syms e.o f_batched f_grad g_batched g_grad h_batched h_grad
for fn in 2 9 16; do
  grep -q "^e.c:$fn:.*parameter 'p' is varying.*dims dynamic, from parameter 'n'" \
    last.out || { cat last.out >&2; fail "line $fn: p's extent is not n"; }
done

cat >main.c <<'C'
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
double f(const double *, int), g(const double *, int), h(const double *, int);
#define DECL(F)                                                                \
  void F##_batched(size_t, const double *, ptrdiff_t, const int *, double *);  \
  void F##_grad(size_t, const double *, ptrdiff_t, const int *, double *,      \
                const double *, double *, ptrdiff_t);
DECL(f)
DECL(g)
DECL(h)
#define N 37
#define W 9
static int same(double x, double y) { return !memcmp(&x, &y, sizeof x); }
typedef double (*scalar_fn)(const double *, int);
typedef void (*batched_fn)(size_t, const double *, ptrdiff_t, const int *, double *);
typedef void (*grad_fn)(size_t, const double *, ptrdiff_t, const int *, double *,
                        const double *, double *, ptrdiff_t);
static int check(const char *name, scalar_fn s, batched_fn b, grad_fn gr, int k) {
  static double p[N * W], r[N], r2[N], dp[N * W];
  static int n[N];
  for (int e = 0; e < N; e++) {
    n[e] = e % W;
    for (int j = 0; j < W; j++)
      p[e * W + j] = j < n[e] ? 0.5 + 0.03 * (e + 1) * (j + 1) : NAN;
  }
  memset(dp, 0, sizeof dp);
  b(N, p, W, n, r);
  gr(N, p, W, n, r2, NULL, dp, W);
  for (int e = 0; e < N; e++) {
    double want = s(p + e * W, n[e]);
    if (!same(r[e], want) || !same(r2[e], want))
      return printf("%s example %d: %a, %a != %a\n", name, e, r[e], r2[e], want), 1;
    for (int j = 0; j < W; j++) {
      double x = p[e * W + j], d = dp[e * W + j], wd;
      if (j >= n[e]) {
        if (d != 0.0)
          return printf("%s example %d: gradient past n at %d\n", name, e, j), 1;
        continue;
      }
      if (k == 0)
        wd = 2.0 * x;
      else if (k == 1)
        wd = 6.0;
      else
        wd = want / x;
      if (fabs(d - wd) > 1e-14 * fabs(wd))
        return printf("%s example %d, d p[%d]: %a != %a\n", name, e, j, d, wd), 1;
    }
  }
  return 0;
}
int main(void) {
  return check("f", f, f_batched, f_grad, 0) || check("g", g, g_batched, g_grad, 1) ||
         check("h", h, h_batched, h_grad, 2);
}
C
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o e.o "$RTLIB" -lsleef -lm -lpthread -o e
run_rc 0 ./e
