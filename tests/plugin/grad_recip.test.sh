# Reverse mode's adjoints of quotients by one divisor share its reciprocal
# (transforms/simplify/ShareReciprocals.h): g_i * (1/b) instead of one
# division each, also for one quotient by a BD_UNIFORM divisor (a scalar
# reciprocal). Checked: the gradient kernels (one reciprocal, one product
# per quotient, the value's quotients from it as bd_divx), the gradients
# against the closed form (to about an ULP), the lanes where 1/b is not a
# normal number bit for bit against the division, every example alone bit
# for bit as in its batch, and NAME_hvp's gradient bit for bit against
# NAME_grad's.
. "$SRC/lib.sh"

cat >g.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF BD_HVP double gr(double a0, double a1, double b) {
  return a0 / b + 3.0 * (a1 / b);
}
BATCHDIFF double gu(double x, BD_UNIFORM double k) { return x / k; }
C
mkdir -p em
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c g.c -o g.o
expect_syms g.o gr_grad gr_hvp gu_grad
kernel() { awk "/void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/g.c.batchdiff.c; }
kernel gr_gk >gr.txt
kernel gu_gk >gu.txt
# (gradients run two chains of lanes, temps _0 and _1: chain 0's)
c0() { grep "$1" gr.txt | grep -c '_0 = ' || true; }
[ "$(c0 'recip_f')" -eq 1 ] || fail "gr_gk: $(c0 'recip_f') reciprocals (1)"
# (one per quotient: reverse mode's two rules of a / b, d_a += g / b and
# d_b -= (g / b) q, share it; two bd_divr kept two rare-lane branches)
[ "$(c0 'bd_divr_')" -eq 2 ] || fail "gr_gk: $(c0 'bd_divr_') products by 1/b (2)"
# (the value's quotients from the reciprocal too, their bits: bd_divx)
[ "$(c0 ' / ')" -eq 0 ] || fail "gr_gk divides $(c0 ' / ') times (0)"
[ "$(c0 'bd_divx_')" -eq 2 ] || fail "gr_gk: not the value's 2 quotients from 1/b"
grep -q 'bd_srecip_f64' gu.txt || fail "gu_gk: no scalar reciprocal of the uniform k"
[ "$(grep ' / ' gu.txt | grep -c '_0 = ')" -eq 0 ] || fail "gu_gk divides"

cat >main.c <<'C'
#include <math.h>
#include <stdio.h>
#include <string.h>
void gr_grad(size_t n, const double *a0, const double *a1, const double *b,
             double *r, const double *dr, double *d0, double *d1, double *db);
void gr_hvp(size_t n, const double *a0, const double *a1, const double *b,
            const double *t0, const double *t1, const double *tb, double *r,
            const double *dr, double *d0, double *d1, double *db, double *h0,
            double *h1, double *hb);
void gu_grad(size_t n, const double *x, double k, double *r, const double *dr,
             double *dx, double *dk);
#define N 64
static int same(double x, double y) {
  return !memcmp(&x, &y, sizeof x) || (x != x && y != y);
}
static int bad(const char *what, int i, double got, double want) {
  printf("%s, example %d: %a != %a\n", what, i, got, want);
  return 1;
}
int main(void) {
  double a0[N], a1[N], b[N], dr[N], r[N], g[3][N] = {{0}};
  const double odd[] = {0.0,        -0.0,       0x1p-1074, 0x1p-1030, -0x1p-1023,
                        0x1.8p1022, -0x1p1023,  INFINITY,  NAN};
  int nodd = (int)(sizeof odd / sizeof odd[0]), odds = 0;
  for (int i = 0; i < N; i++) {
    a0[i] = 0.3 + 0.11 * i;
    a1[i] = -1.7 + 0.05 * i;
    b[i] = (i % 7 == 3 && i / 7 < nodd) ? odd[i / 7] : 0.25 + 0.37 * i;
    dr[i] = i % 7 == 3 ? 0x1p-100 : 0.7 - 0.013 * i;
  }
  gr_grad(N, a0, a1, b, r, dr, g[0], g[1], g[2]);
  for (int i = 0; i < N; i++) {
    /* shadows start at +0: += a -0 leaves +0 */
    double w0 = 0.0 + dr[i] / b[i], w1 = 0.0 + (3.0 * dr[i]) / b[i];
    double q0 = a0[i] / b[i], q1 = a1[i] / b[i];
    double wb = -(w0 * q0 + w1 * q1), rc = 1 / b[i];
    int normal = fabs(rc) >= 0x1p-1022 && fabs(rc) <= 0x1.fffffffffffffp1023;
    if (!normal) {
      odds++;
      if (!same(g[0][i], w0))
        return bad("d_a0, 1/b not normal: not the division's", i, g[0][i], w0);
      if (!same(g[1][i], w1))
        return bad("d_a1, 1/b not normal: not the division's", i, g[1][i], w1);
    } else {
      if (fabs(g[0][i] - w0) > 0x1p-51 * fabs(w0))
        return bad("d_a0", i, g[0][i], w0);
      if (fabs(g[1][i] - w1) > 0x1p-51 * fabs(w1))
        return bad("d_a1", i, g[1][i], w1);
      if (fabs(g[2][i] - wb) > 0x1p-48 * (fabs(w0 * q0) + fabs(w1 * q1)))
        return bad("d_b", i, g[2][i], wb);
    }
    double g1[3] = {0, 0, 0}, r1;
    gr_grad(1, a0 + i, a1 + i, b + i, &r1, dr + i, g1, g1 + 1, g1 + 2);
    for (int k = 0; k < 3; k++)
      if (!same(g1[k], g[k][i]))
        return bad("gradient alone differs from the batch's", i, g1[k], g[k][i]);
  }
  if (odds != nodd - 1) /* all but -0x1p-1023, whose reciprocal is normal */
    return printf("%d divisors with a reciprocal not normal (%d)\n", odds, nodd - 1), 1;
  {
    double gh[3][N] = {{0}}, h[3][N] = {{0}}, g2[3][N] = {{0}}, t[N];
    for (int i = 0; i < N; i++)
      t[i] = 0.1 * (i % 5) - 0.2;
    gr_grad(N, a0, a1, b, r, dr, g2[0], g2[1], g2[2]);
    gr_hvp(N, a0, a1, b, t, t, t, r, dr, gh[0], gh[1], gh[2], h[0], h[1], h[2]);
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < N; i++)
        if (!same(g2[k][i], gh[k][i]))
          return bad("gr_hvp's gradient differs from gr_grad's", i, gh[k][i], g2[k][i]);
  }
  {
    double dx[N] = {0}, dk = 0, k = 0.375;
    gu_grad(N, a0, k, r, dr, dx, &dk);
    for (int i = 0; i < N; i++) {
      double want = dr[i] / k;
      if (fabs(dx[i] - want) > 0x1p-51 * fabs(want))
        return bad("gu d_x", i, dx[i], want);
    }
    memset(dx, 0, sizeof dx);
    gu_grad(N, a0, 0x1p-1040, r, dr, dx, &dk);
    for (int i = 0; i < N; i++)
      if (!same(dx[i], 0.0 + dr[i] / 0x1p-1040))
        return bad("gu d_x, tiny uniform k: not the division's", i, dx[i], dr[i] / 0x1p-1040);
  }
  return 0;
}
C
expect_ok "$CLANG" -O2 -ffp-contract=off -c main.c -o main.o
expect_ok "$CLANG" main.o g.o "$RTLIB" -lsleef -lm -lpthread -o g
run_rc 0 ./g
