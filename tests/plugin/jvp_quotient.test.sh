# Forward mode's tangent of a / b with both operands active is (da - db q)
# / b, one division, where the two rules summed (da / b - (db / b) q) took
# two: on Intel's AVX-512 cores a 512-bit division issues once per 16
# cycles (reproj_jvp: 13 divisions per vector, 11 now; docs/performance.md).
# Checked: the jvp kernel of a quotient computes one tangent quotient (and,
# since the value shares b's reciprocal, divides once), and the tangents of quotients with one or both
# operands active (also by a shared divisor, as a normalisation a_i / th)
# against the exact derivative, and NAME_hvp's gradient bit for bit
# against NAME_grad's.
. "$SRC/lib.sh"

cat >q.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF BD_JVP BD_HVP double fq(double a, double b) { return a / b; }
BATCHDIFF BD_JVP BD_HVP double fn(double a0, double a1, double a2) {
  double th = sqrt(a0 * a0 + a1 * a1 + a2 * a2);
  double w0 = a0 / th, w1 = a1 / th, w2 = a2 / th;
  return w0 * 3.0 + w1 * w1 - 2.0 / w2;
}
C
mkdir -p em
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c q.c -o q.o
expect_syms q.o fq_jvp fn_jvp fq_hvp fn_hvp
# (The value and the tangent share b's reciprocal since primal_recip.test.sh:
# one division, the tangent's product by it, the value's bits from it.)
awk '/void __bd_fq_jk\(/ {p = 1} p && /^}/ {exit} p' em/q.c.batchdiff.c >fq.txt
n=$(grep -c ' / \|recip_f64' fq.txt || true)
[ "$n" -eq 1 ] || fail "fq's jvp kernel divides $n times (1: b's reciprocal)"
[ "$(grep -c 'bd_divr_f64' fq.txt)" -eq 1 ] || fail "fq's jvp kernel: not one tangent quotient"
[ "$(grep -c 'bd_divx_f64' fq.txt)" -eq 1 ] || fail "fq's jvp kernel: not one value quotient"

cat >main.c <<'C'
#include <math.h>
#include <stdio.h>
#include <string.h>
void fq_jvp(size_t n, const double *a, const double *b, const double *ta,
            const double *tb, double *r, double *dr);
void fq_grad(size_t n, const double *a, const double *b, double *r,
             const double *dr, double *da, double *db);
void fq_hvp(size_t n, const double *a, const double *b, const double *ta,
            const double *tb, double *r, const double *dr, double *da,
            double *db, double *ha, double *hb);
void fn_jvp(size_t n, const double *a0, const double *a1, const double *a2,
            const double *t0, const double *t1, const double *t2, double *r,
            double *dr);
void fn_grad(size_t n, const double *a0, const double *a1, const double *a2,
             double *r, const double *dr, double *d0, double *d1, double *d2);
void fn_hvp(size_t n, const double *a0, const double *a1, const double *a2,
            const double *t0, const double *t1, const double *t2, double *r,
            const double *dr, double *d0, double *d1, double *d2, double *h0,
            double *h1, double *h2);
#define N 101
static int close_to(double got, double want, const char *what, int i) {
  if (fabs(got - want) <= 1e-13 * (1 + fabs(want)))
    return 1;
  printf("%s, example %d: %.17g != %.17g\n", what, i, got, want);
  return 0;
}
int main(void) {
  /* shadows accumulate: zeroed */
  double a[3][N], t[3][N], z[N] = {0}, r[N], dr[N], g[3][N] = {{0}},
      gh[3][N] = {{0}}, h[3][N] = {{0}};
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 3; k++) {
      a[k][i] = (k + 1) * 0.37 + 0.05 * i * (k == 1 ? -1 : 1);
      t[k][i] = 0.3 * (k + 1) - 0.01 * i;
    }
  /* a / b: both tangents, only da (tb = 0), only db (ta = 0) */
  for (int m = 0; m < 3; m++) {
    const double *ta = m == 2 ? z : t[0], *tb = m == 1 ? z : t[1];
    fq_jvp(N, a[0], a[1], ta, tb, r, dr);
    for (int i = 0; i < N; i++) {
      double q = a[0][i] / a[1][i];
      if (memcmp(&r[i], &q, sizeof q))
        return printf("fq value %d\n", i), 1;
      if (!close_to(dr[i], (ta[i] - q * tb[i]) / a[1][i], "fq tangent", i))
        return 1;
    }
  }
  fn_jvp(N, a[0], a[1], a[2], t[0], t[1], t[2], r, dr);
  fn_grad(N, a[0], a[1], a[2], r, NULL, g[0], g[1], g[2]);
  fn_hvp(N, a[0], a[1], a[2], t[0], t[1], t[2], r, NULL, gh[0], gh[1],
         gh[2], h[0], h[1], h[2]);
  for (int i = 0; i < N; i++) {
    double x0 = a[0][i], x1 = a[1][i], x2 = a[2][i];
    double th = sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    double w[3] = {x0 / th, x1 / th, x2 / th};
    /* d w_j / d a_k = (delta_jk - w_j w_k) / th */
    double dfdw[3] = {3.0, 2 * w[1], 2.0 / (w[2] * w[2])}, grad[3], dir = 0;
    for (int k = 0; k < 3; k++) {
      grad[k] = 0;
      for (int j = 0; j < 3; j++)
        grad[k] += dfdw[j] * ((j == k) - w[j] * w[k]) / th;
      dir += grad[k] * t[k][i];
      if (!close_to(g[k][i], grad[k], "fn gradient", i))
        return 1;
      if (memcmp(&g[k][i], &gh[k][i], sizeof g[k][i]))
        return printf("fn_hvp's gradient differs from fn_grad's, %d\n", i), 1;
    }
    if (!close_to(dr[i], dir, "fn tangent", i))
      return 1;
  }
  return 0;
}
C
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o q.o "$RTLIB" -lsleef -lm -lpthread -o q
run_rc 0 ./q
