# pow's derivative rules (ir/Math.def): d/dx = (G Y / x) y and d/dy =
# (G Y) log x with Y = pow(x, y), G Y first. With 2349a6a's rules,
# G (y pow(x, y - 1)) and G (Y log x), the factor Y log x overflowed where
# pow(x, y) is near DBL_MAX though the gradient is far below it (Stirling's
# pow(q, q - 0.5) / exp(q) from q = 143.17: -inf and NaN gradients); and
# y - 1 was rounded (pow(x, 1e-3 - 1) at x = 1e300: 350 ulps off). Where Y
# is 0, subnormal or infinite (x = 0, x = +-inf, under- and overflow) d/dx
# is still G (y pow(x, y - 1)) as C evaluates it (a rare branch).
# Checked: gradients and NAME_jvp's tangents against long double on random
# points (ordinary, huge and tiny x, negative x with integer y, float), the
# special points against C's evaluation of the rules, the Stirling pattern
# to q = 143.43 (where pow(q, q - 0.5) itself overflows), NAME_hvp's
# gradient bit for bit NAME_grad's, and each example alone as in its batch.
. "$SRC/lib.sh"

cat >p.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF BD_JVP BD_HVP double p(double x, double y) { return pow(x, y); }
BATCHDIFF BD_JVP float pf(float x, float y) { return powf(x, y); }
BATCHDIFF double stir(double q) { return pow(q, q - 0.5) / exp(q); }
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c p.c -o p.o
expect_syms p.o p_grad p_jvp p_hvp pf_grad pf_jvp stir_grad

cat >main.c <<'C'
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
void p_grad(size_t, const double *, const double *, double *, const double *,
            double *, double *);
void p_jvp(size_t, const double *, const double *, const double *,
           const double *, double *, double *);
void p_hvp(size_t, const double *, const double *, const double *,
           const double *, double *, const double *, double *, double *,
           double *, double *);
void pf_grad(size_t, const float *, const float *, float *, const float *,
             float *, float *);
void stir_grad(size_t, const double *, double *, const double *, double *);
#define N 20000
static double x[N], y[N], g[N], r[N], dx[N], dy[N], one[N], zero[N], tx[N],
    ty[N], hx[N], hy[N], gx[N], gy[N];
static unsigned long long s = 88172645463325252ULL;
static double u01(void) {
  s ^= s << 13, s ^= s >> 7, s ^= s << 17;
  return (s >> 11) * 0x1p-53;
}
static int same(double a, double b) {
  return (a != a && b != b) || !memcmp(&a, &b, sizeof a);
}
static int bad(const char *what, double a, double b, double got, double want) {
  printf("%s at (%.17g, %.17g): %.17g, want %.17g\n", what, a, b, got, want);
  return 1;
}
/* within ulps of a representable reference (a subnormal one: absolutely) */
static int off(double got, long double want, double ulps, double eps, double mn,
               double mx) {
  if (!(fabsl(want) <= mx))
    return 0;
  return !(fabsl(got - want) <= ulps * eps * fmaxl(fabsl(want), mn));
}
int main(void) {
  for (int m = 0; m < 4; m++) {
    for (int i = 0; i < N; i++) {
      double e = u01() * 2 - 1;
      x[i] = m == 0 ? u01() * 10 : m == 1 ? exp(700 * e)
             : m == 2 ? -(u01() * 10 + 1e-3) : exp(300 * e);
      y[i] = m == 2 ? floor(20 * (u01() * 2 - 1)) : m == 3 ? 1e-3 * e
                                                           : 10 * e;
      g[i] = exp(40 * (u01() * 2 - 1));
      one[i] = 1, zero[i] = 0, dx[i] = dy[i] = 0;
    }
    p_grad(N, x, y, r, g, dx, dy);
    p_jvp(N, x, y, one, zero, NULL, tx);
    p_jvp(N, x, y, zero, one, NULL, ty);
    for (int i = 0; i < N; i++) {
      long double X = x[i], Y = y[i], G = g[i], P = powl(X, Y - 1);
      long double L = logl(fabsl(X)), wx = Y * P, wy = P * X * L;
      /* (both pow(x, y) and y pow(x, y - 1) overflow: no double gives it) */
      int finite = isfinite(pow(x[i], y[i])) ||
                   isfinite(y[i] * pow(x[i], y[i] - 1));
      if (finite && off(dx[i], G * wx, 4, DBL_EPSILON, DBL_MIN, DBL_MAX))
        return bad("d/dx", x[i], y[i], dx[i], (double)(G * wx));
      if (X > 0 && isfinite(pow(x[i], y[i])) &&
          off(dy[i], G * wy, 4, DBL_EPSILON, DBL_MIN, DBL_MAX))
        return bad("d/dy", x[i], y[i], dy[i], (double)(G * wy));
      /* (a zero tangent times an infinite or NaN partial is NaN in
         NAME_jvp: log(x) of x < 0) */
      double Yd = pow(x[i], y[i]);
      if (x[i] < 0 || !isfinite(Yd) || !isfinite(Yd / x[i]) ||
          !isfinite(Yd * log(x[i])))
        continue;
      if (off(tx[i], wx, 4, DBL_EPSILON, DBL_MIN, DBL_MAX))
        return bad("jvp d/dx", x[i], y[i], tx[i], (double)wx);
      if (X > 0 && off(ty[i], wy, 4, DBL_EPSILON, DBL_MIN, DBL_MAX))
        return bad("jvp d/dy", x[i], y[i], ty[i], (double)wy);
    }
    for (int i = 0; i < N; i++)
      gx[i] = gy[i] = 0;
    p_hvp(N, x, y, one, zero, r, g, gx, gy, hx, hy);
    for (int i = 0; i < N; i++)
      if (!same(gx[i], dx[i]) || !same(gy[i], dy[i]))
        return bad("p_hvp's gradient is not p_grad's", x[i], y[i], gx[i],
                   dx[i]);
    for (int i = 0; i < N; i += 97) {
      double a = 0, b = 0, rr;
      p_grad(1, x + i, y + i, &rr, g + i, &a, &b);
      if (!same(a, dx[i]) || !same(b, dy[i]))
        return bad("alone, not as in the batch", x[i], y[i], a, dx[i]);
    }
  }
  { /* float */
    static float fx[N], fy[N], fr[N], fdx[N], fdy[N];
    for (int i = 0; i < N; i++)
      fx[i] = (float)(u01() * 10), fy[i] = (float)(4 * (u01() * 2 - 1));
    pf_grad(N, fx, fy, fr, NULL, fdx, fdy);
    for (int i = 0; i < N; i++) {
      long double X = fx[i], Y = fy[i], P = powl(X, Y - 1);
      if (off(fdx[i], Y * P, 4, FLT_EPSILON, FLT_MIN, FLT_MAX))
        return bad("powf d/dx", fx[i], fy[i], fdx[i], (double)(Y * P));
      if (X > 0 && off(fdy[i], P * X * logl(X), 4, FLT_EPSILON, FLT_MIN,
                       FLT_MAX))
        return bad("powf d/dy", fx[i], fy[i], fdy[i],
                   (double)(P * X * logl(X)));
    }
  }
  { /* special points: C's own evaluation of the rules */
    static const double xs[] = {0, -0.0, 1, -1, 2, -2, 0.5, INFINITY,
                                -INFINITY, 1e-310, 1e300, -1e300, 1e-300};
    static const double ys[] = {0, 1, 2, 3, 0.5, -1, -2, -0.5, 2.5, 1024.5,
                                -3, 1.5};
    int n = 0;
    for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
      for (size_t j = 0; j < sizeof ys / sizeof *ys; j++)
        x[n] = xs[i], y[n] = ys[j], dx[n] = dy[n] = 0, n++;
    p_grad(n, x, y, r, NULL, dx, dy);
    for (int i = 0; i < n; i++) {
      double Y = pow(x[i], y[i]), wx = y[i] * pow(x[i], y[i] - 1);
      double wy = x[i] == 0 ? 0 : Y * log(x[i]);
      int exact = !(fabs(Y) >= DBL_MIN && fabs(Y) <= DBL_MAX);
      /* (zeros of either sign; NaNs of either sign) */
      int ok = same(fabs(dx[i]), fabs(wx)) ||
               (!exact && fabs(dx[i] - wx) <= 4 * DBL_EPSILON * fabs(wx));
      if (!ok)
        return bad("special d/dx", x[i], y[i], dx[i], wx);
      if (!(fabs(dy[i] - wy) <= 4 * DBL_EPSILON * fabs(wy)) &&
          !same(fabs(dy[i]), fabs(wy)))
        return bad("special d/dy", x[i], y[i], dy[i], wy);
    }
  }
  { /* Stirling's pattern near pow's overflow */
    int n = 0;
    for (double q = 140.0; q < 143.43; q += 0.001)
      x[n] = q, dx[n] = 0, n++;
    stir_grad(n, x, r, NULL, dx);
    for (int i = 0; i < n; i++) {
      long double Q = x[i], out = powl(Q, Q - 0.5L) / expl(Q);
      long double w = out * (logl(Q) + (Q - 0.5L) / Q - 1);
      if (!(fabsl(dx[i] - w) <= 1e-13L * fabsl(w)))
        return bad("stir d/dq", x[i], 0, dx[i], (double)w);
    }
  }
  return 0;
}
C
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o p.o "$RTLIB" -lsleef -lm -lpthread -o p
run_rc 0 ./p
