# The primal's quotients by one divisor share its reciprocal and keep their
# bits (transforms/simplify/ShareReciprocals.h, simd.h's bd_divx): q = a r
# corrected once by the exact residual a - q b, the division where a or r is
# outside the range where that is exact; where the derivatives divide by the
# same divisor, or in a loop by a divisor computed before it. Checked: the
# kernels (one reciprocal, no division of the values, also a uniform
# divisor's scalar reciprocal and a loop's divisor computed before the loop,
# a parameter or a variable the loop does not write; loop-free batched
# kernels keep their divisions), NAME_batched and
# the value of NAME_grad against the scalar function bit for bit on values
# of every kind (0, -0, subnormal, tiny, huge, inf, NaN, random bits, the
# divisors whose reciprocal rounds farthest), every example alone bit for
# bit as in its batch, and the gradients against the closed form.
. "$SRC/lib.sh"

cat >p.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF double nrm(double x, double y, double z, double w) {
  double n = sqrt(x * x + y * y) + w;
  return x / n + 2.0 * (y / n) - z / n;
}
BATCHDIFF float fq(float a, float b, float c) { return a / c - 3.0f * (b / c); }
BATCHDIFF double uq(double a, BD_UNIFORM double k) { return a / k; }
/* 1 / b is the reciprocal itself (a product by 1); NAME_hvp differentiates
 * it again. */
BATCHDIFF BD_HVP double rc(double a, double b) { return 3.0 * (1.0 / b) + a / b; }
BATCHDIFF double lq(const double *x, int n, double k) {
  double t = 0.0;
  for (int i = 0; i < n; i++)
    t = t * 0.5 + x[i] / k;
  return t;
}
/* A variable the loop reads, written before it: e_i / s (softmax-like). */
BATCHDIFF double sm(const double *x, int n) {
  double s = 0.0, t = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] + 0.5;
  for (int i = 0; i < n; i++)
    t += x[i] * ((x[i] * x[i] + 0.5) / s);
  return t;
}
/* ... and one the loop writes: its divisions stay in the loop. */
BATCHDIFF double lw(const double *x, int n, double s) {
  double t = 0.0;
  for (int i = 0; i < n; i++) {
    t += x[i] / s;
    s = s * 1.5 + x[i];
  }
  return t;
}
C
mkdir -p em
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c p.c -o p.o
expect_syms p.o nrm_batched nrm_grad fq_batched fq_grad uq_batched uq_grad rc_grad rc_hvp \
  lq_batched \
  sm_batched sm_grad lw_batched
kernel() { awk "/void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/p.c.batchdiff.c; }
for k in nrm_bk fq_bk uq_bk lq_bk nrm_gk sm_bk lw_bk; do
  kernel $k >$k.txt
  [ -s $k.txt ] || fail "no kernel __bd_$k"
done
# (gradients run two chains of lanes, temps _0 and _1: chain 0's)
c0() { grep "$1" "$2" | grep -vc '_1 = ' || true; }
# Loop-free NAME_batched kernels keep their divisions (port-bound kernels
# were slower with shared reciprocals: ShareReciprocals.cpp, share()).
for k in nrm_bk fq_bk uq_bk; do
  ! grep -q 'recip_f\|bd_divx' $k.txt || fail "$k: a loop-free batched kernel shares"
done
[ "$(grep -c 'bd_divx_f64' nrm_gk.txt)" -ge 3 ] || fail "nrm_gk: not 3 quotients by 1/n"
kernel fq_gk >fq_gk.txt
kernel uq_gk >uq_gk.txt
grep -q 'bd_divx_f32' fq_gk.txt || fail "fq_gk: the value's a / c not from 1/c"
grep -q 'bd_srecip_f64' uq_gk.txt || fail "uq_gk: no scalar reciprocal of the uniform k"
grep -q 'bd_divx_f64' uq_gk.txt || fail "uq_gk: a / k not from the reciprocal"
kernel rc_gk >rc_gk.txt
[ "$(c0 'recip_f64' rc_gk.txt)" -eq 1 ] || fail "rc_gk: not one reciprocal"
[ "$(c0 'bd_divx_f64' rc_gk.txt)" -eq 1 ] || fail "rc_gk: 1 / b not the reciprocal itself"
[ "$(c0 'recip_f' nrm_gk.txt)" -eq 1 ] || fail "nrm_gk: $(c0 'recip_f' nrm_gk.txt) reciprocals (1)"
[ "$(c0 'bd_divx_' nrm_gk.txt)" -eq 3 ] || fail "nrm_gk: not 3 value quotients by 1/n"
# (the lane count, '(sizeof(bd_md) / 8)', sizes arrays: not a division)
! grep ' / ' lq_bk.txt | grep -qv 'sizeof(bd_m[dn]) / ' ||
  fail "lq_bk still divides: $(grep ' / ' lq_bk.txt | grep -v sizeof | head -1)"
# The loop's divisor comes from before the loop: its reciprocal too. (The
# kernels' loops are do-while loops: the reciprocal precedes the loop's
# first quotient and is not repeated in it.)
before_loop() {
  awk '/recip_f/ && !q {r = 1} /bd_divx_f64d/ {q = 1} END {exit !r}' $1 ||
    fail "$1: the reciprocal is not computed before the loop"
  [ "$(grep 'recip_f64d' $1 | grep -vc '_1 = ')" -eq 1 ] || fail "$1: not one reciprocal"
}
before_loop lq_bk.txt
before_loop sm_bk.txt
! grep -q 'recip_f\|bd_divx' lw_bk.txt || fail "lw_bk: s written in the loop, yet shared"

cat >main.c <<'C'
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
double nrm(double, double, double, double);
float fq(float, float, float);
double uq(double, double);
double rc(double, double);
void rc_grad(size_t, const double *, const double *, double *, const double *,
             double *, double *);
void rc_hvp(size_t, const double *, const double *, const double *,
            const double *, double *, const double *, double *, double *,
            double *, double *);
double lq(const double *, int, double);
void nrm_batched(size_t, const double *, const double *, const double *,
                 const double *, double *);
void nrm_grad(size_t, const double *, const double *, const double *,
              const double *, double *, const double *, double *, double *,
              double *, double *);
void fq_batched(size_t, const float *, const float *, const float *, float *);
void fq_grad(size_t, const float *, const float *, const float *, float *,
             const float *, float *, float *, float *);
void uq_batched(size_t, const double *, double, double *);
void uq_grad(size_t, const double *, double, double *, const double *,
             double *, double *);
void lq_batched(size_t, const double *, ptrdiff_t, const int *, const double *,
                double *);
double sm(const double *, int);
double lw(const double *, int, double);
void sm_batched(size_t, const double *, ptrdiff_t, const int *, double *);
void sm_grad(size_t, const double *, ptrdiff_t, const int *, double *,
             const double *, double *, ptrdiff_t);
void lw_batched(size_t, const double *, ptrdiff_t, const int *, const double *,
                double *);
#define N 4099
static uint64_t st = 88172645463325252ull;
static uint64_t rnd(void) {
  st ^= st << 13, st ^= st >> 7, st ^= st << 17;
  return st;
}
/* 0, -0, inf, NaN, subnormal, tiny, huge, random bits, moderate values,
 * and mantissas of 1/b's hardest roundings (all ones, next to 1). */
static double pick(void) {
  uint64_t u = rnd();
  double v, s = (u & 1) ? -1.0 : 1.0;
  switch (u % 13) {
  case 0: return s * 0.0;
  case 1: return s * INFINITY;
  case 2: return NAN;
  case 3: return s * ldexp((double)(rnd() >> 12), -1100);
  case 4: memcpy(&v, &u, 8); return v;
  case 5: return s * ldexp(1.0 + (double)(rnd() >> 12) * 0x1p-52, (int)(rnd() % 2090) - 1074);
  case 6: return s * ldexp(2.0 - (double)(rnd() % 64) * 0x1p-52, (int)(rnd() % 40) - 20);
  case 7: return s * ldexp(1.0 + (double)(rnd() % 64) * 0x1p-52, (int)(rnd() % 40) - 20);
  case 8: return s * ldexp(1.5, 499 + (int)(rnd() % 4));
  default: return (double)(int64_t)rnd() * 0x1p-60;
  }
}
static int same(double x, double y) {
  return !memcmp(&x, &y, sizeof x) || (x != x && y != y);
}
static int samef(float x, float y) {
  return !memcmp(&x, &y, sizeof x) || (x != x && y != y);
}
static int bad(const char *what, int i, double got, double want) {
  printf("%s, example %d: %a != %a\n", what, i, got, want);
  return 1;
}
static double x[N], y[N], z[N], w[N], r[N], r1[N], dr[N], g[4][N];
static float fa[N], fb[N], fc[N], fr[N];
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = pick(), y[i] = pick(), z[i] = pick(), w[i] = pick();
    fa[i] = (float)pick(), fb[i] = (float)(pick() * 0x1p-900 * 0x1p900);
    fc[i] = i % 3 ? (float)ldexp(1.0 + (double)(rnd() >> 41) * 0x1p-23, (int)(rnd() % 300) - 150) : (float)pick();
    dr[i] = 1.0;
  }
  rc_grad(N, x, y, r, dr, g[0], g[1]);
  for (int i = 0; i < N; i++)
    if (!same(r[i], rc(x[i], y[i]))) return bad("rc_grad's value", i, r[i], rc(x[i], y[i]));
  {
    /* f = (3 + a) / b: H v = (-vb / b^2, -va / b^2 + 2 (3 + a) vb / b^3) */
    static double a[N], b[N], va[N], vb[N], gh[2][N], gg[2][N], h[2][N];
    for (int i = 0; i < N; i++)
      a[i] = 0.5 + 0.001 * i, b[i] = 1.5 - 0.0002 * i, va[i] = 0.3, vb[i] = -0.7;
    rc_grad(N, a, b, r, dr, gg[0], gg[1]);
    rc_hvp(N, a, b, va, vb, r1, dr, gh[0], gh[1], h[0], h[1]);
    for (int i = 0; i < N; i++) {
      double b2 = b[i] * b[i], w0 = -vb[i] / b2;
      double w1 = -va[i] / b2 + 2 * (3 + a[i]) * vb[i] / (b2 * b[i]);
      if (!same(gh[0][i], gg[0][i]) || !same(gh[1][i], gg[1][i]))
        return bad("rc_hvp's gradient differs from rc_grad's", i, gh[1][i], gg[1][i]);
      if (fabs(h[0][i] - w0) > 1e-13 * fabs(w0)) return bad("rc_hvp H v (a)", i, h[0][i], w0);
      if (fabs(h[1][i] - w1) > 1e-12 * (fabs(va[i] / b2) + fabs(2 * (3 + a[i]) * vb[i] / (b2 * b[i]))))
        return bad("rc_hvp H v (b)", i, h[1][i], w1);
    }
  }
  nrm_batched(N, x, y, z, w, r);
  nrm_grad(N, x, y, z, w, r1, dr, g[0], g[1], g[2], g[3]);
  for (int i = 0; i < N; i++) {
    double want = nrm(x[i], y[i], z[i], w[i]), one;
    if (!same(r[i], want)) return bad("nrm_batched", i, r[i], want);
    if (!same(r1[i], want)) return bad("nrm_grad's value", i, r1[i], want);
    nrm_batched(1, x + i, y + i, z + i, w + i, &one);
    if (!same(one, r[i])) return bad("nrm_batched alone", i, one, r[i]);
  }
  /* Gradient where everything is moderate: d/dz = -1/n. */
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.001 * i, y[i] = -0.7 + 0.002 * i, z[i] = 1.1, w[i] = 0.5;
  memset(g, 0, sizeof g);
  nrm_grad(N, x, y, z, w, r1, dr, g[0], g[1], g[2], g[3]);
  for (int i = 0; i < N; i++) {
    double n = sqrt(x[i] * x[i] + y[i] * y[i]) + w[i];
    double q = (x[i] + 2.0 * y[i] - z[i]) / n;
    if (fabs(g[2][i] + 1.0 / n) > 0x1p-50 / n) return bad("d nrm / dz", i, g[2][i], -1.0 / n);
    if (fabs(g[3][i] + q / n) > 0x1p-48 * (fabs(x[i]) + 2 * fabs(y[i]) + fabs(z[i])) / (n * n))
      return bad("d nrm / dw", i, g[3][i], -q / n);
  }
  fq_batched(N, fa, fb, fc, fr);
  for (int i = 0; i < N; i++) {
    float want = fq(fa[i], fb[i], fc[i]);
    if (!samef(fr[i], want)) return bad("fq_batched", i, fr[i], want);
  }
  {
    static float fd[N], fg[3][N];
    for (int i = 0; i < N; i++) fd[i] = 1.0f;
    fq_grad(N, fa, fb, fc, fr, fd, fg[0], fg[1], fg[2]);
    for (int i = 0; i < N; i++) {
      float want = fq(fa[i], fb[i], fc[i]);
      if (!samef(fr[i], want)) return bad("fq_grad's value", i, fr[i], want);
    }
  }
  const double ks[] = {3.0, 0x1.fffffffffffffp0, -0x1.0000000000001p-3, 0x1p-1040, 0x1p600, 0.0, INFINITY, NAN};
  for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
    double dk = 0;
    uq_batched(N, z, ks[j], r);
    for (int i = 0; i < N; i++)
      if (!same(r[i], uq(z[i], ks[j]))) return bad("uq_batched", i, r[i], uq(z[i], ks[j]));
    uq_grad(N, z, ks[j], r, dr, g[0], &dk);
    for (int i = 0; i < N; i++)
      if (!same(r[i], uq(z[i], ks[j]))) return bad("uq_grad's value", i, r[i], uq(z[i], ks[j]));
  }
  {
    static double xs[N * 5];
    static int n[N];
    for (int i = 0; i < N * 5; i++) xs[i] = pick();
    for (int i = 0; i < N; i++) n[i] = i % 6, w[i] = pick();
    lq_batched(N, xs, 5, n, w, r);
    for (int i = 0; i < N; i++)
      if (!same(r[i], lq(xs + 5 * i, n[i], w[i])))
        return bad("lq_batched", i, r[i], lq(xs + 5 * i, n[i], w[i]));
    lw_batched(N, xs, 5, n, w, r);
    for (int i = 0; i < N; i++)
      if (!same(r[i], lw(xs + 5 * i, n[i], w[i])))
        return bad("lw_batched", i, r[i], lw(xs + 5 * i, n[i], w[i]));
    sm_batched(N, xs, 5, n, r);
    for (int i = 0; i < N; i++)
      if (!same(r[i], sm(xs + 5 * i, n[i])))
        return bad("sm_batched", i, r[i], sm(xs + 5 * i, n[i]));
    /* e_k = x_k^2 + 1/2: d sm / dx_k = (e_k + 2 x_k^2 - 2 x_k sm) / s */
    static double dx[N * 5];
    for (int i = 0; i < N * 5; i++) xs[i] = 0.01 * (i % 97) - 0.4, dx[i] = 0;
    for (int i = 0; i < N; i++) n[i] = 1 + i % 5;
    sm_grad(N, xs, 5, n, r, dr, dx, 5);
    for (int i = 0; i < N; i++) {
      double s = 0, *x = xs + 5 * i;
      for (int k = 0; k < n[i]; k++) s += x[k] * x[k] + 0.5;
      for (int k = 0; k < n[i]; k++) {
        double want = (3 * x[k] * x[k] + 0.5 - 2 * x[k] * r[i]) / s;
        if (fabs(dx[5 * i + k] - want) > 1e-14)
          return bad("d sm / dx", i, dx[5 * i + k], want);
      }
    }
  }
  return 0;
}
C
# (p.o holds the scalar functions too, compiled by clang as they are.)
expect_ok "$CLANG" -O2 -ffp-contract=off -c main.c -o main.o
expect_ok "$CLANG" main.o p.o "$RTLIB" -lsleef -lm -lpthread -o p
run_rc 0 ./p
