# A tiny return value from huge intermediates (Cephes' gamma for x < -90:
# pi / (z * stirf(q)), stirf = pow(q, q - 0.5) / exp(q) ~ 1e164 at q = 104):
# the adjoints of the intermediates are d out / d v ~ out / v, below the
# smallest double, though the gradient is about out itself. NAME_grad
# scales such lanes' seed by 2^k and their gradient by 2^-k
# (transforms/ad/ReverseScale.cpp). Checked: the gradients against the
# closed form (double and float), every example alone bit for bit as in its
# batch, NAME_hvp's gradient bit for bit NAME_grad's, seeds from 1e-200 to
# 1e300, and a gradient without such a quotient keeps no scaling code.
# With c5135c6's plugin d_q was 0 from q = 104 (and wrong from q = 92).
# The mirror image: a huge value (Cephes' Stirling formula with its pow
# halved, near 171.3: out ~ 2^1020, and 1 / exp(-x) near 707) scales its
# seed down; with 2349a6a's plugin those gradients were infinite.
. "$SRC/lib.sh"

cat >s.c <<'C'
#include <batchdiff.h>
#include <math.h>
static double stirf(double x) {
  double y = exp(x);
  y = pow(x, x - 0.5) / y;
  return 2.50662827463100050242 * y;
}
BATCHDIFF BD_HVP double refl(double q, double z) {
  return 3.14159265358979323846 / (z * stirf(q));
}
BATCHDIFF float reflf(float q) { return 1.0f / (powf(q, q - 0.5f) / expf(q)); }
BATCHDIFF double plain(double x) { return x * exp(-x); }
BATCHDIFF double stirh(double x) {
  double y = exp(x), v = pow(x, 0.5 * x - 0.25);
  return 2.50662827463100050242 * (v * (v / y));
}
BATCHDIFF double rexp(double x) { return 1.0 / exp(-x); }
BATCHDIFF float stirhf(float x) {
  float y = expf(x), v = powf(x, 0.5f * x - 0.25f);
  return 2.50662827f * (v * (v / y));
}
C
mkdir -p em
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c s.c -o s.o
expect_syms s.o refl_grad refl_hvp reflf_grad plain_grad stirh_grad rexp_grad \
  stirhf_grad
kernel() { awk "/void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/s.c.batchdiff.c; }
kernel refl_gk | grep -q seed_unscale || fail "refl_gk does not scale its seed"
kernel plain_gk >plain.txt
if grep -q seed_unscale plain.txt; then fail "plain_gk scales its seed"; fi

cat >main.c <<'C'
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
void refl_grad(size_t, const double *, const double *, double *, const double *,
               double *, double *);
void refl_hvp(size_t, const double *, const double *, const double *, const double *,
              double *, const double *, double *, double *, double *, double *);
void reflf_grad(size_t, const float *, float *, const float *, float *);
void stirh_grad(size_t, const double *, double *, const double *, double *);
void rexp_grad(size_t, const double *, double *, const double *, double *);
void stirhf_grad(size_t, const float *, float *, const float *, float *);
#define N 200
static int same(double x, double y) { return !memcmp(&x, &y, sizeof x); }
static int bad(const char *what, int i, double got, double want) {
  printf("%s, example %d: %.17g != %.17g\n", what, i, got, want);
  return 1;
}
int main(void) {
  static double q[N], z[N], dr[N], r[N], dq[N], dz[N];
  for (int i = 0; i < N; i++) {
    q[i] = 34.5 + 0.5 * i; /* to 134: out from 1e-38 to 1e-226 */
    z[i] = 0.25 + 0.37 * (i % 11);
    dr[i] = i % 13 == 5 ? 1e-200 : i % 13 == 7 ? 1e300 : 1.0 + 0.01 * i;
  }
  refl_grad(N, q, z, r, dr, dq, dz);
  for (int i = 0; i < N; i++) {
    long double Q = q[i], Z = z[i];
    long double out = 3.14159265358979323846L /
                      (Z * 2.50662827463100050242L * powl(Q, Q - 0.5L) / expl(Q));
    long double wq = dr[i] * -out * (logl(Q) + (Q - 0.5L) / Q - 1);
    long double wz = dr[i] * -out / Z;
    /* (a subnormal gradient: within its last place) */
    if (fabsl(dq[i] - wq) > fmaxl(1e-13L * fabsl(wq), 0x1p-1074L))
      return bad("d_q", i, dq[i], (double)wq);
    if (fabsl(dz[i] - wz) > fmaxl(1e-13L * fabsl(wz), 0x1p-1074L))
      return bad("d_z", i, dz[i], (double)wz);
    double r1, q1 = 0, z1 = 0;
    refl_grad(1, q + i, z + i, &r1, dr + i, &q1, &z1);
    if (!same(q1, dq[i]) || !same(z1, dz[i]) || !same(r1, r[i]))
      return bad("alone, not as in the batch", i, q1, dq[i]);
  }
  {
    static double t[N], hq[N], hz[N], gq[N], gz[N], r2[N];
    for (int i = 0; i < N; i++)
      t[i] = 0.1 * (i % 5) - 0.2;
    refl_hvp(N, q, z, t, t, r2, dr, gq, gz, hq, hz);
    for (int i = 0; i < N; i++)
      if (!same(gq[i], dq[i]) || !same(gz[i], dz[i]))
        return bad("refl_hvp's gradient is not refl_grad's", i, gq[i], dq[i]);
  }
  {
    static float fq[N], fr[N], fd[N];
    int n = 0;
    for (int i = 0; i < N && 8.0f + 0.1f * i < 27.0f; i++, n++)
      fq[i] = 8.0f + 0.1f * i; /* out from 1e-5 to 1e-28 */
    reflf_grad(n, fq, fr, NULL, fd);
    for (int i = 0; i < n; i++) {
      double Q = fq[i], out = exp(Q) / pow(Q, Q - 0.5);
      double w = -out * (log(Q) + (Q - 0.5) / Q - 1);
      if (fabs(fd[i] - w) > 2e-5 * fabs(w))
        return bad("reflf d_q", i, fd[i], w);
    }
  }
  { /* huge values: Stirling to 171.3, 1 / exp(-x) to 707 */
    static double x[N], r1[N], d1[N], e[N], r2[N], d2[N];
    for (int i = 0; i < N; i++) {
      x[i] = 150.0 + 21.3 * i / N;
      e[i] = 600.0 + 107.0 * i / N; /* (to out ~ 2^1020) */
      d1[i] = d2[i] = 0;
    }
    stirh_grad(N, x, r1, NULL, d1);
    rexp_grad(N, e, r2, NULL, d2);
    for (int i = 0; i < N; i++) {
      long double X = x[i];
      long double out = 2.50662827463100050242L * powl(X, X - 0.5L) / expl(X);
      long double w = out * (logl(X) + (X - 0.5L) / X - 1);
      if (!(fabsl(d1[i] - w) <= 1e-13L * w))
        return bad("stirh d_x", i, d1[i], (double)w);
      if (!(fabsl(d2[i] - expl(e[i])) <= 1e-13L * expl(e[i])))
        return bad("rexp d_x", i, d2[i], (double)expl(e[i]));
      double a = 0, b = 0, ra, rb;
      stirh_grad(1, x + i, &ra, NULL, &a);
      rexp_grad(1, e + i, &rb, NULL, &b);
      if (!same(a, d1[i]) || !same(b, d2[i]))
        return bad("huge, alone, not as in the batch", i, a, d1[i]);
    }
    static float fx[N], fr[N], fd[N];
    for (int i = 0; i < N; i++)
      fx[i] = 30.0f + 4.9f * i / N, fd[i] = 0; /* out to 2^127 */
    stirhf_grad(N, fx, fr, NULL, fd);
    for (int i = 0; i < N; i++) {
      double X = fx[i], out = 2.50662827463100050242 * pow(X, X - 0.5) / exp(X);
      double w = out * (log(X) + (X - 0.5) / X - 1);
      if (w < 3.4e38 && !(fabs(fd[i] - w) <= 2e-5 * w))
        return bad("stirhf d_x", i, fd[i], w);
    }
  }
  return 0;
}
C
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o s.o "$RTLIB" -lsleef -lm -lpthread -o s
run_rc 0 ./s
