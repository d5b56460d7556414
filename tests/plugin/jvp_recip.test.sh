# Forward mode's tangents of quotients by one divisor share its reciprocal
# (transforms/simplify/ShareReciprocals.h): (da_i - db q_i) * (1/b) instead
# of one division each, and a square root's g / (2 sqrt x) joins the
# divisions by sqrt x. Checked: the kernels (one reciprocal, products, the
# primal's quotients from it too, as bd_divx), the tangents against the exact
# derivative (to about an ULP), the lanes where 1/b is not a normal number
# (b = 0, subnormal, tiny, huge, inf, NaN) bit for bit against the
# division, every example alone bit for bit as in its batch (a lane does
# not depend on its neighbours), a uniform divisor, float, and NAME_hvp's
# gradient bit for bit against NAME_grad's.
. "$SRC/lib.sh"

cat >r.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF BD_JVP BD_HVP double fr(double a0, double a1, double b) {
  return a0 / b + 3.0 * (a1 / b);
}
BATCHDIFF BD_JVP double fs(double a0, double a1, double a2) {
  double th = sqrt(a0 * a0 + a1 * a1 + a2 * a2);
  return a0 / th + a1 / th * a2 + th;
}
BATCHDIFF BD_JVP double fu(double a0, double a1, BD_UNIFORM double b) {
  return a0 / b - a1 / b;
}
BATCHDIFF BD_JVP float ff(float a0, float a1, float b) {
  return a0 / b + a1 / b;
}
C
mkdir -p em
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c r.c -o r.o
expect_syms r.o fr_jvp fs_jvp fu_jvp ff_jvp fr_hvp
kernel() { awk "/void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/r.c.batchdiff.c; }
for k in fr_jk fs_jk fu_jk ff_jk; do
  kernel $k >$k.txt
  [ "$(grep -c 'recip_f' $k.txt)" -eq 1 ] ||
    fail "$k: $(grep -c 'recip_f' $k.txt) reciprocals (1)"
done
# fr: two quotients (their bits, from the reciprocal: primal_recip.test.sh),
# two tangents by the reciprocal
[ "$(grep -c ' / ' fr_jk.txt)" -eq 0 ] || fail "fr_jk divides $(grep -c ' / ' fr_jk.txt) times (0)"
[ "$(grep -c 'bd_divx_' fr_jk.txt)" -eq 2 ] || fail "fr_jk: not 2 quotients from 1/b"
[ "$(grep -c 'bd_divr_' fr_jk.txt)" -eq 2 ] || fail "fr_jk: not 2 products by 1/b"
# fs: the two quotients and th's tangent g / (2 th) by 1/th
[ "$(grep -c 'bd_divr_' fs_jk.txt)" -eq 3 ] || fail "fs_jk: not 3 products by 1/th"
[ "$(grep -c 'bd_divx_' fs_jk.txt)" -eq 2 ] || fail "fs_jk: not 2 quotients from 1/th"
[ "$(grep -c ' / ' fs_jk.txt)" -eq 0 ] || fail "fs_jk divides $(grep -c ' / ' fs_jk.txt) times (0)"
grep -q 'bd_srecip_f64' fu_jk.txt || fail "fu_jk: no scalar reciprocal of the uniform b"

cat >main.c <<'C'
#include <math.h>
#include <stdio.h>
#include <string.h>
void fr_jvp(size_t n, const double *a0, const double *a1, const double *b,
            const double *t0, const double *t1, const double *tb, double *r,
            double *dr);
void fr_grad(size_t n, const double *a0, const double *a1, const double *b,
             double *r, const double *dr, double *d0, double *d1, double *db);
void fr_hvp(size_t n, const double *a0, const double *a1, const double *b,
            const double *t0, const double *t1, const double *tb, double *r,
            const double *dr, double *d0, double *d1, double *db, double *h0,
            double *h1, double *hb);
void fs_jvp(size_t n, const double *a0, const double *a1, const double *a2,
            const double *t0, const double *t1, const double *t2, double *r,
            double *dr);
void fu_jvp(size_t n, const double *a0, const double *a1, double b,
            const double *t0, const double *t1, const double *tb, double *r,
            double *dr);
void ff_jvp(size_t n, const float *a0, const float *a1, const float *b,
            const float *t0, const float *t1, const float *tb, float *r,
            float *dr);
#define N 64
static int bad(const char *what, int i, double got, double want) {
  printf("%s, example %d: %a != %a\n", what, i, got, want);
  return 1;
}
/* within k ULPs of the sum of the terms' magnitudes, scale */
static int near(double got, double want, double k, double scale) {
  if (got == want || (got != got && want != want))
    return 1;
  return fabs(got - want) <= k * 0x1p-52 * scale;
}
int main(void) {
  double a0[N], a1[N], b[N], t0[N], t1[N], tb[N], r[N], dr[N], r1, dr1;
  /* divisors where 1/b is not normal: they must divide */
  const double odd[] = {0.0,       -0.0,       0x1p-1074, 0x1p-1030, -0x1p-1023,
                        0x1.8p1022, -0x1p1023, INFINITY,  NAN};
  int nodd = (int)(sizeof odd / sizeof odd[0]);
  for (int i = 0; i < N; i++) {
    a0[i] = 0.3 + 0.11 * i;
    a1[i] = -1.7 + 0.05 * i;
    b[i] = (i % 7 == 3 && i / 7 < nodd) ? odd[i / 7] : 0.25 + 0.37 * i;
    t0[i] = 1.0 - 0.03 * i;
    t1[i] = 0.5 + 0.02 * i;
    tb[i] = -0.75 + 0.04 * i;
    if (i % 7 == 3) { /* finite quotients and tangents where 1/b is inf */
      a0[i] = 0.75 * b[i], a1[i] = -1.25 * b[i];
      t0[i] = 0x1p-10, t1[i] = -0x1p-11, tb[i] = 0x1p-12;
    }
  }
  fr_jvp(N, a0, a1, b, t0, t1, tb, r, dr);
  int odds = 0;
  for (int i = 0; i < N; i++) {
    double q0 = a0[i] / b[i], q1 = a1[i] / b[i];
    double u0 = (t0[i] - tb[i] * q0) / b[i], u1 = (t1[i] - tb[i] * q1) / b[i];
    double want = u0 + 3.0 * u1;
    double rc = 1 / b[i];
    int normal = fabs(rc) >= 0x1p-1022 && fabs(rc) <= 0x1.fffffffffffffp1023;
    if (!normal) {
      odds++;
      if (memcmp(&dr[i], &want, sizeof want) && !(dr[i] != dr[i] && want != want))
        return bad("fr tangent, 1/b not normal: not the division's", i, dr[i], want);
    } else if (!near(dr[i], want, 8, fabs(u0) + 3 * fabs(u1)))
      return bad("fr tangent", i, dr[i], want);
    /* alone, the same bits as in the batch */
    fr_jvp(1, a0 + i, a1 + i, b + i, t0 + i, t1 + i, tb + i, &r1, &dr1);
    if (memcmp(&dr1, &dr[i], sizeof dr1) && !(dr1 != dr1 && dr[i] != dr[i]))
      return bad("fr tangent alone differs from the batch's", i, dr1, dr[i]);
  }
  /* all but -0x1p-1023, whose reciprocal is normal */
  if (odds != nodd - 1)
    return printf("%d divisors with a reciprocal not normal (%d)\n", odds, nodd - 1), 1;
  {
    double g[3][N] = {{0}}, gh[3][N] = {{0}}, h[3][N] = {{0}};
    fr_grad(N, a0, a1, b, r, NULL, g[0], g[1], g[2]);
    fr_hvp(N, a0, a1, b, t0, t1, tb, r, NULL, gh[0], gh[1], gh[2], h[0],
           h[1], h[2]);
    if (memcmp(g, gh, sizeof g))
      return printf("fr_hvp's gradient differs from fr_grad's\n"), 1;
  }
  for (int i = 0; i < N; i++)
    b[i] = 0.5 + 0.02 * i; /* a2 */
  fs_jvp(N, a0, a1, b, t0, t1, tb, r, dr);
  for (int i = 0; i < N; i++) {
    double x0 = a0[i], x1 = a1[i], x2 = b[i];
    double th = sqrt(x0 * x0 + x1 * x1 + x2 * x2);
    double dth = (x0 * t0[i] + x1 * t1[i] + x2 * tb[i]) / th;
    double w0 = x0 / th, w1 = x1 / th;
    double u0 = (t0[i] - dth * w0) / th, u1 = ((t1[i] - dth * w1) / th) * x2;
    double want = u0 + u1 + w1 * tb[i] + dth;
    if (!near(dr[i], want, 16, fabs(u0) + fabs(u1) + fabs(w1 * tb[i]) + fabs(dth)))
      return bad("fs tangent", i, dr[i], want);
  }
  const double half = 0.5;
  fu_jvp(N, a0, a1, 0.375, t0, t1, &half, r, dr);
  for (int i = 0; i < N; i++) {
    double u0 = (t0[i] - 0.5 * (a0[i] / 0.375)) / 0.375,
           u1 = (t1[i] - 0.5 * (a1[i] / 0.375)) / 0.375;
    if (!near(dr[i], u0 - u1, 8, fabs(u0) + fabs(u1)))
      return bad("fu tangent", i, dr[i], u0 - u1);
  }
  fu_jvp(N, a0, a1, 0x1p-1040, t0, t1, &half, r, dr);
  for (int i = 0; i < N; i++) {
    double q0 = a0[i] / 0x1p-1040, q1 = a1[i] / 0x1p-1040;
    double want = (t0[i] - 0.5 * q0) / 0x1p-1040 - (t1[i] - 0.5 * q1) / 0x1p-1040;
    if (memcmp(&dr[i], &want, sizeof want) && !(dr[i] != dr[i] && want != want))
      return bad("fu tangent, tiny uniform b: not the division's", i, dr[i], want);
  }
  {
    float fa0[N], fa1[N], fb[N], ft0[N], ft1[N], ftb[N], fr_[N], fdr[N];
    for (int i = 0; i < N; i++) {
      fa0[i] = (float)a0[i], fa1[i] = (float)a1[i];
      fb[i] = i == 5 ? 0x1p-140f : i == 9 ? 0.0f : 0.25f + 0.37f * i;
      ft0[i] = (float)t0[i], ft1[i] = (float)t1[i], ftb[i] = (float)tb[i];
      if (i == 5) /* 1/b is inf, the tangent finite */
        fa0[i] = 0.75f * fb[i], fa1[i] = fb[i], ft0[i] = 0x1p-20f,
        ft1[i] = 0x1p-21f, ftb[i] = 0x1p-22f;
    }
    ff_jvp(N, fa0, fa1, fb, ft0, ft1, ftb, fr_, fdr);
    for (int i = 0; i < N; i++) {
      float q0 = fa0[i] / fb[i], q1 = fa1[i] / fb[i];
      float u0 = (ft0[i] - ftb[i] * q0) / fb[i], u1 = (ft1[i] - ftb[i] * q1) / fb[i];
      float want = u0 + u1;
      if (i == 5 || i == 9) {
        if (memcmp(&fdr[i], &want, sizeof want) && !(fdr[i] != fdr[i] && want != want))
          return bad("ff tangent, 1/b not normal: not the division's", i, fdr[i], want);
      } else if (fabs(fdr[i] - want) > 8 * 0x1p-23 * (fabs(u0) + fabs(u1)))
        return bad("ff tangent", i, fdr[i], want);
    }
  }
  return 0;
}
C
expect_ok "$CLANG" -O2 -ffp-contract=off -c main.c -o main.o
expect_ok "$CLANG" main.o r.o "$RTLIB" -lsleef -lm -lpthread -o r
run_rc 0 ./r
