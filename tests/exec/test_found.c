/* Numeric C as it is found, annotated as it is (round 6 of the trials in
 * test_wild.c and test_legacy.c; they have cephes' polevl/p1evl, a backward
 * Horner, Newton with goto, Kepler):
 *   - fdlibm's s_tanh.c: GET_HIGH_WORD through its union, `static const
 *     double one = 1.0, two = 2.0, tiny = 1.0e-300;`, early returns;
 *   - Numerical Recipes' rtbis (goto for the exits, `?:` arms with comma
 *     expressions that assign, an assignment inside a call's argument) and
 *     zbrent (Brent's method, its SIGN macro, a return inside the loop);
 *   - NR's rk4 with 1-based local state arrays of NMAX, the output array
 *     aliasing the input (`rk4(y, dydx, 2, x, h, y, k)`), derivs a helper;
 *   - NR's gammln (a static local table, `ser += cof[j] / ++y`) and
 *     betacf/betai (the continued fraction with a break and `if (m >
 *     MAXIT)` after the loop, block-scope prototypes of the routines it
 *     calls, float); nrerror as nrutil.h declares it, called once per
 *     example that reports (defined below: it counts instead of exiting);
 *   - cephes' ndtri (three coefficient sets, polevl/p1evl taking `double
 *     coef[]`, a non-const file-scope scalar s2pi, returns in branches);
 *     mtherr("ndtri", DOMAIN) likewise (mconf.h's declaration);
 *   - (loops whose index range needs the loop's start or bound, NR's chebev
 *     among them: test_found_ranges.c.)
 * NAME_batched against the scalar function: bit for bit where only
 * arithmetic, comparisons and fabs are involved (every input of gen_d,
 * NaN and Inf included), within the math functions' bounds elsewhere;
 * NAME_grad against dual-number versions of the same code and central
 * differences (grad_util.h). */
#include "grad_util.h"

#include <stdint.h>

#include "../common/test_filter.h"

/* ---- fdlibm s_tanh.c ----------------------------------------------------- */

typedef union {
  double value;
  struct {
    uint32_t lsw;
    uint32_t msw;
  } parts;
} ieee_double_shape_type;
#define GET_HIGH_WORD(i, d)                                                    \
  do {                                                                         \
    ieee_double_shape_type gh_u;                                               \
    gh_u.value = (d);                                                          \
    (i) = gh_u.parts.msw;                                                      \
  } while (0)

static const double one = 1.0, two = 2.0, tiny = 1.0e-300;

BATCHDIFF double fd_tanh(double x) {
  double t, z;
  int32_t jx, ix;

  /* High word of |x|. */
  GET_HIGH_WORD(jx, x);
  ix = jx & 0x7fffffff;

  /* x is INF or NaN */
  if (ix >= 0x7ff00000) {
    if (jx >= 0)
      return one / x + one; /* tanh(+-inf)=+-1 */
    else
      return one / x - one; /* tanh(NaN) = NaN */
  }

  /* |x| < 22 */
  if (ix < 0x40360000) {    /* |x|<22 */
    if (ix < 0x3c800000)    /* |x|<2**-55 */
      return x * (one + x); /* tanh(small) = small */
    if (ix >= 0x3ff00000) { /* |x|>=1  */
      t = expm1(two * fabs(x));
      z = one - two / (t + two);
    } else {
      t = expm1(-two * fabs(x));
      z = -t / (t + two);
    }
    /* |x| > 22, return +-1 */
  } else {
    z = one - tiny; /* raised inexact flag */
  }
  return (jx >= 0) ? z : -z;
}

/* ---- Numerical Recipes: roots ------------------------------------------ */

#define JMAX 40
static double func(double x, double c) { return x * x * x - c; }

BATCHDIFF double rtbis(double x1, double x2, double xacc, double c) {
  int j;
  double dx, f, fmid, xmid, rtb;

  f = func(x1, c);
  fmid = func(x2, c);
  if (f * fmid >= 0.0)
    goto fail;
  rtb = f < 0.0 ? (dx = x2 - x1, x1) : (dx = x1 - x2, x2);
  for (j = 1; j <= JMAX; j++) {
    fmid = func(xmid = rtb + (dx *= 0.5), c);
    if (fmid <= 0.0)
      rtb = xmid;
    if (fabs(dx) < xacc || fmid == 0.0)
      goto done;
  }
fail:
  return 0.0;
done:
  return rtb;
}

#define ITMAX 100
#define EPS 3.0e-8
#define SIGN(a, b) ((b) >= 0.0 ? fabs(a) : -fabs(a))

BATCHDIFF double zbrent(double x1, double x2, double tol, double cp) {
  int iter;
  double a = x1, b = x2, c = x2, d = 0.0, e = 0.0, min1, min2;
  double fa = func(a, cp), fb = func(b, cp), fc, p, q, r, s, tol1, xm;

  if ((fa > 0.0 && fb > 0.0) || (fa < 0.0 && fb < 0.0))
    return 0.0;
  fc = fb;
  for (iter = 1; iter <= ITMAX; iter++) {
    if ((fb > 0.0 && fc > 0.0) || (fb < 0.0 && fc < 0.0)) {
      c = a;
      fc = fa;
      e = d = b - a;
    }
    if (fabs(fc) < fabs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    tol1 = 2.0 * EPS * fabs(b) + 0.5 * tol;
    xm = 0.5 * (c - b);
    if (fabs(xm) <= tol1 || fb == 0.0)
      return b;
    if (fabs(e) >= tol1 && fabs(fa) > fabs(fb)) {
      s = fb / fa;
      if (a == c) {
        p = 2.0 * xm * s;
        q = 1.0 - s;
      } else {
        q = fa / fc;
        r = fb / fc;
        p = s * (2.0 * xm * q * (q - r) - (b - a) * (r - 1.0));
        q = (q - 1.0) * (r - 1.0) * (s - 1.0);
      }
      if (p > 0.0)
        q = -q;
      p = fabs(p);
      min1 = 3.0 * xm * q - fabs(tol1 * q);
      min2 = fabs(e * q);
      if (2.0 * p < (min1 < min2 ? min1 : min2)) {
        e = d;
        d = p / q;
      } else {
        d = xm;
        e = d;
      }
    } else {
      d = xm;
      e = d;
    }
    a = b;
    fa = fb;
    if (fabs(d) > tol1)
      b += d;
    else
      b += SIGN(tol1, xm);
    fb = func(b, cp);
  }
  return 0.0;
}

/* ---- Numerical Recipes: rk4 -------------------------------------------- */

#define NMAX 4

static void derivs(double x, double y[], double dydx[], double k) {
  (void)x;
  dydx[1] = y[2];
  dydx[2] = -k * y[1] - 0.1 * y[2];
}

static void rk4(double y[], double dydx[], int n, double x, double h,
                double yout[], double k) {
  int i;
  double xh, hh, h6, dym[NMAX], dyt[NMAX], yt[NMAX];

  hh = h * 0.5;
  h6 = h / 6.0;
  xh = x + hh;
  for (i = 1; i <= n; i++)
    yt[i] = y[i] + hh * dydx[i];
  derivs(xh, yt, dyt, k);
  for (i = 1; i <= n; i++)
    yt[i] = y[i] + hh * dyt[i];
  derivs(xh, yt, dym, k);
  for (i = 1; i <= n; i++) {
    yt[i] = y[i] + h * dym[i];
    dym[i] += dyt[i];
  }
  derivs(x + h, yt, dyt, k);
  for (i = 1; i <= n; i++)
    yout[i] = y[i] + h6 * (dydx[i] + dyt[i] + 2.0 * dym[i]);
}

BATCHDIFF double oscillate(double y0, double v0, double k, double h,
                           int nstep) {
  double y[NMAX], dydx[NMAX];
  double x = 0.0;
  y[1] = y0;
  y[2] = v0;
  for (int s = 0; s < nstep; s++) {
    derivs(x, y, dydx, k);
    rk4(y, dydx, 2, x, h, y, k);
    x += h;
  }
  return y[1];
}

/* ---- Numerical Recipes: gammln, betacf, betai -------------------------- */

void nrerror(char error_text[]); /* nrutil.h */
#define MAXIT 100
#define EPSF 3.0e-7
#define FPMIN 1.0e-30

BATCHDIFF float gammln(float xx) {
  double x, y, tmp, ser;
  static double cof[6] = {76.18009172947146,     -86.50532032941677,
                          24.01409824083091,     -1.231739572450155,
                          0.1208650973866179e-2, -0.5395239384953e-5};
  int j;

  y = x = xx;
  tmp = x + 5.5;
  tmp -= (x + 0.5) * log(tmp);
  ser = 1.000000000190015;
  for (j = 0; j <= 5; j++)
    ser += cof[j] / ++y;
  return -tmp + log(2.5066282746310005 * ser / x);
}

BATCHDIFF float betacf(float a, float b, float x) {
  int m, m2;
  float aa, c, d, del, h, qab, qam, qap;

  qab = a + b;
  qap = a + 1.0;
  qam = a - 1.0;
  c = 1.0;
  d = 1.0 - qab * x / qap;
  if (fabs(d) < FPMIN)
    d = FPMIN;
  d = 1.0 / d;
  h = d;
  for (m = 1; m <= MAXIT; m++) {
    m2 = 2 * m;
    aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < FPMIN)
      d = FPMIN;
    c = 1.0 + aa / c;
    if (fabs(c) < FPMIN)
      c = FPMIN;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < FPMIN)
      d = FPMIN;
    c = 1.0 + aa / c;
    if (fabs(c) < FPMIN)
      c = FPMIN;
    d = 1.0 / d;
    del = d * c;
    h *= del;
    if (fabs(del - 1.0) < EPSF)
      break;
  }
  if (m > MAXIT)
    nrerror("a or b too big, or MAXIT too small in betacf");
  return h;
}

BATCHDIFF float betai(float a, float b, float x) {
  float betacf(float a, float b, float x);
  float gammln(float xx);
  float bt;

  if (x < 0.0 || x > 1.0)
    nrerror("Bad x in routine betai");
  if (x == 0.0 || x == 1.0)
    bt = 0.0;
  else
    bt = exp(gammln(a + b) - gammln(a) - gammln(b) + a * log(x) +
             b * log(1.0 - x));
  if (x < (a + 1.0) / (a + b + 2.0))
    return bt * betacf(a, b, x) / a;
  else
    return 1.0 - bt * betacf(b, a, 1.0 - x) / b;
}

/* ---- cephes ndtri.c ---------------------------------------------------- */

#define DOMAIN 1
#define MAXNUM 1.79769313486231570815E308
int mtherr(char *name, int code); /* mconf.h */

static double polevl(double x, double coef[], int N) {
  double ans;
  int i;
  double *p;

  p = coef;
  ans = *p++;
  i = N;

  do
    ans = ans * x + *p++;
  while (--i);

  return (ans);
}

static double p1evl(double x, double coef[], int N) {
  double ans;
  double *p;
  int i;

  p = coef;
  ans = x + *p++;
  i = N - 1;

  do
    ans = ans * x + *p++;
  while (--i);

  return (ans);
}

/* sqrt(2pi) */
static double s2pi = 2.50662827463100050242E0;

/* approximation for 0 <= |y - 0.5| <= 3/8 */
static double P0[5] = {
    -5.99633501014107895267E1, 9.80010754185999661536E1,
    -5.66762857469070293439E1, 1.39312609387279679503E1,
    -1.23916583867381258016E0,
};
static double Q0[8] = {
    /* 1.00000000000000000000E0,*/
    1.95448858338141759834E0, 4.67627912898881538453E0,
    8.63602421390890590575E1, -2.25462687854119370527E2,
    2.00260212380060660359E2, -8.20372256168333339912E1,
    1.59056225126211695515E1, -1.18331621121330003142E0,
};
/* Approximation for interval z = sqrt(-2 log y ) between 2 and 8 */
static double P1[9] = {
    4.05544892305962419923E0,   3.15251094599893866154E1,
    5.71628192246421288162E1,   4.40805073893200834700E1,
    1.46849561928858024014E1,   2.18663306850790267539E0,
    -1.40256079171354495875E-1, -3.50424626827848203418E-2,
    -8.57456785154685413611E-4,
};
static double Q1[8] = {
    /*  1.00000000000000000000E0,*/
    1.57799883256466749731E1,   4.53907635128879210584E1,
    4.13172038254672030440E1,   1.50425385692907503408E1,
    2.50464946208309415979E0,   -1.42182922854787788574E-1,
    -3.80806407691578277194E-2, -9.33259480895457427372E-4,
};
/* Approximation for interval z = sqrt(-2 log y ) between 8 and 64 */
static double P2[9] = {
    3.23774891776946035970E0,  6.91522889068984211695E0,
    3.93881025292474443415E0,  1.33303460815807542389E0,
    2.01485389549179081538E-1, 1.23716634817820021358E-2,
    3.01581553508235416007E-4, 2.65806974686737550832E-6,
    6.23974539184983293730E-9,
};
static double Q2[8] = {
    /*  1.00000000000000000000E0,*/
    6.02427039364742014255E0,  3.67983563856160859403E0,
    1.37702099489081330271E0,  2.16236993594496635890E-1,
    1.34204006088543189037E-2, 3.28014464682127739104E-4,
    2.89247864745380683936E-6, 6.79019408009981274425E-9,
};

BATCHDIFF double ndtri(double y0) {
  double x, y, z, y2, x0, x1;
  int code;

  if (y0 <= 0.0) {
    mtherr("ndtri", DOMAIN);
    return (-MAXNUM);
  }
  if (y0 >= 1.0) {
    mtherr("ndtri", DOMAIN);
    return (MAXNUM);
  }
  code = 1;
  y = y0;
  if (y > (1.0 - 0.13533528323661269189)) { /* 0.135... = exp(-2) */
    y = 1.0 - y;
    code = 0;
  }

  if (y > 0.13533528323661269189) {
    y = y - 0.5;
    y2 = y * y;
    x = y + y * (y2 * polevl(y2, P0, 4) / p1evl(y2, Q0, 8));
    x = x * s2pi;
    return (x);
  }

  x = sqrt(-2.0 * log(y));
  x0 = x - log(x) / x;

  z = 1.0 / x;
  if (x < 8.0) /* y > exp(-32) = 1.2664165549e-14 */
    x1 = z * polevl(z, P1, 8) / p1evl(z, Q1, 8);
  else
    x1 = z * polevl(z, P2, 8) / p1evl(z, Q2, 8);
  x = x0 - x1;
  if (code != 0)
    x = -x;
  return (x);
}

/* ---- NAME_batched against the scalar functions ------------------------- */

static int gen_steps(rng_t *r) { return (int)rng_below(r, 12); }
static float gen_pos_f(rng_t *r) { return (float)rng_range(r, 0.05, 30.0); }
static float gen_unit_f(rng_t *r) { return (float)rng_range(r, -0.1, 1.1); }
static double gen_unit_d(rng_t *r) {
  int k = (int)rng_below(r, 8);
  return k == 0   ? gen_d(r)
         : k == 1 ? rng_range(r, 0.0, 1e-20) /* the tail */
                  : rng_range(r, -0.05, 1.05);
}

#include "found_util.h"

/* Only arithmetic, comparisons and fabs: bit for bit, any inputs. */
BITS4(rtbis, double, double, gen_d, double, gen_d, double, gen_d, double, gen_d)
BITS4(zbrent, double, double, gen_d, double, gen_d, double, gen_d, double,
      gen_d)
DIFF3(betacf, float, CMP_BITS, 0, V, float, gen_pos_f, V, float, gen_pos_f, V,
      float, gen_unit_f)
/* fdlibm's tanh: expm1 within 1 ULP; -t / (t + 2) amplifies t's error
 * (by 2 / (t + 2), up to 1.6) before its own rounding: 3 ULP seen. */
DIFF1(fd_tanh, double, CMP_ULP, 4, V, double, gen_d)

static int near(double got, double want, double tol) {
  return same_bits_or_nan(&got, &want, sizeof got, 1) ||
         close_to(got, want, tol);
}

/* oscillate (five parameters) bit for bit; gammln, betai and ndtri, with
 * log/exp/sqrt, within a relative tolerance (gammln and betai cancel:
 * -tmp + log(...) near 1 and 2, 1 - bt * betacf / b). */
static void t_more(void **state) {
  (void)state;
  rng_t rng = {name_seed("found_more")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *y0 = gp_alloc(n * 8), *v0 = gp_alloc(n * 8), *k = gp_alloc(n * 8);
    double *h = gp_alloc(n * 8), *r1 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *p = gp_alloc(n * 8);
    int *ns = gp_alloc(n * sizeof(int));
    float *a = gp_alloc(n * 4), *b = gp_alloc(n * 4), *x = gp_alloc(n * 4);
    float *q1 = gp_alloc(n * 4), *q2 = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      y0[e] = gen_d(&rng);
      v0[e] = rng_range(&rng, -3, 3);
      k[e] = rng_range(&rng, 0, 10);
      h[e] = rng_range(&rng, 0, 0.2);
      ns[e] = gen_steps(&rng);
      p[e] = gen_unit_d(&rng);
      a[e] = (float)rng_range(&rng, 0.05, 8.0);
      b[e] = (float)rng_range(&rng, 0.05, 8.0);
      x[e] = gen_unit_f(&rng);
    }
    gp_seal(y0), gp_seal(v0), gp_seal(k), gp_seal(h), gp_seal(ns);
    gp_seal(p), gp_seal(a), gp_seal(b), gp_seal(x);
    reports = report_hash = 0;
    oscillate_batched(n, y0, v0, k, h, ns, r1);
    ndtri_batched(n, p, r2);
    gammln_batched(n, a, q1);
    betai_batched(n, a, b, x, q2);
    uint64_t got = reports, got_hash = report_hash;
    reports = report_hash = 0;
    for (size_t e = 0; e < n; e++) {
      double w1 = oscillate(y0[e], v0[e], k[e], h[e], ns[e]);
      double w2 = ndtri(p[e]);
      float w3 = gammln(a[e]), w4 = betai(a[e], b[e], x[e]);
      if (!same_bits_or_nan(&r1[e], &w1, 8, 1) || !near(r2[e], w2, 1e-14) ||
          !near(q1[e], w3, 1e-6) ||
          !(fabsf(q2[e] - w4) <= 1e-5f || (isnan(q2[e]) && isnan(w4)))) {
        print_error("n=%zu e=%zu: oscillate %a/%a ndtri(%a) %a/%a "
                    "gammln(%a) %a/%a betai(%a, %a, %a) %a/%a\n",
                    n, e, r1[e], w1, p[e], r2[e], w2, a[e], q1[e], w3, a[e],
                    b[e], x[e], q2[e], w4);
        fail();
      }
    }
    SAME_REPORTS(n, got, got_hash);
    gp_reset();
  }
}

/* ---- NAME_grad against dual numbers ------------------------------------ */

static dual dual_fd_tanh(dual x) {
  double ax = fabs(x.v);
  if (isnan(x.v) || isinf(x.v) || ax >= 22.0)
    return dc(x.v < 0 ? -1.0 : 1.0);
  if (ax < 0x1p-55)
    return dmul(x, dadd(dc(1.0), x));
  dual s = x.v < 0 ? dneg(x) : x, t, z;
  if (ax >= 1.0) {
    dual u = dscale(s, 2.0);
    t = (dual){expm1(u.v), exp(u.v) * u.d};
    z = dsub(dc(1.0), ddiv(dc(2.0), dadd(t, dc(2.0))));
  } else {
    dual u = dscale(s, -2.0);
    t = (dual){expm1(u.v), exp(u.v) * u.d};
    z = ddiv(dneg(t), dadd(t, dc(2.0)));
  }
  return x.v >= 0 ? z : dneg(z);
}
static double s_fd_tanh(const double *a) { return fd_tanh(a[0]); }
static double d_fd_tanh(const double *a, int j) {
  (void)j;
  return dual_fd_tanh(dv(a[0])).d;
}
static void b_fd_tanh(size_t n, double *const *A, double *r) {
  fd_tanh_batched(n, A[0], r);
}
static void g_fd_tanh(size_t n, double *const *A, double *r, const double *dr,
                      double *const *S) {
  fd_tanh_grad(n, A[0], r, dr, S[0]);
}
static void sm_tanh(rng_t *r, double *a) {
  a[0] = rng_below(r, 4) == 0 ? rng_range(r, -1e-17, 1e-17)
                              : rng_range(r, -25, 25);
}
static const gcase c_fd_tanh = {
    "fd_tanh", 1,         {P_VD},  0, 0, s_fd_tanh, d_fd_tanh,
    b_fd_tanh, g_fd_tanh, sm_tanh, 0, 0, 0};
GTEST(c_fd_tanh)

/* rtbis in dual numbers, the derivative in parameter j. */
static dual dfunc(dual x, dual c) { return dsub(dmul(dmul(x, x), x), c); }
static double d_rtbis(const double *a, int j) {
  dual in[4];
  dseed(in, a, 4, j);
  dual x1 = in[0], x2 = in[1], c = in[3], dx, rtb, xmid, f, fmid;
  double xacc = a[2];
  f = dfunc(x1, c);
  fmid = dfunc(x2, c);
  if (f.v * fmid.v >= 0.0)
    return 0.0;
  if (f.v < 0.0)
    dx = dsub(x2, x1), rtb = x1;
  else
    dx = dsub(x1, x2), rtb = x2;
  for (int it = 1; it <= JMAX; it++) {
    dx = dscale(dx, 0.5);
    xmid = dadd(rtb, dx);
    fmid = dfunc(xmid, c);
    if (fmid.v <= 0.0)
      rtb = xmid;
    if (fabs(dx.v) < xacc || fmid.v == 0.0)
      return rtb.d;
  }
  return 0.0;
}
static double s_rtbis(const double *a) { return rtbis(a[0], a[1], a[2], a[3]); }
static void b_rtbis(size_t n, double *const *A, double *r) {
  rtbis_batched(n, A[0], A[1], A[2], A[3], r);
}
static void g_rtbis(size_t n, double *const *A, double *r, const double *dr,
                    double *const *S) {
  rtbis_grad(n, A[0], A[1], A[2], A[3], r, dr, S[0], S[1], S[2], S[3]);
}
static void sm_rtbis(rng_t *r, double *a) {
  a[0] = rng_range(r, -3, 0.5);
  a[1] = rng_range(r, 1, 4);
  a[2] = rng_range(r, 1e-9, 1e-3);
  a[3] = rng_range(r, 0.5, 20); /* the root c^(1/3) inside [x1, x2] */
}
/* (xacc: a threshold; its derivative is 0 wherever it exists.) */
static const gcase c_rtbis = {"rtbis",  4,       {P_VD, P_VD, P_VD, P_VD},
                              0,        0,       s_rtbis,
                              d_rtbis,  b_rtbis, g_rtbis,
                              sm_rtbis, 0,       0,
                              0};
GTEST(c_rtbis)

/* oscillate: rk4 in dual numbers (nstep fixed by the sample). */
static void dderivs(const dual *y, dual *dydx, dual k) {
  dydx[1] = y[2];
  dydx[2] = dsub(dneg(dmul(k, y[1])), dscale(y[2], 0.1));
}
static double d_oscillate(const double *a, int j) {
  dual in[4];
  dseed(in, a, 4, j);
  dual y[NMAX], dydx[NMAX], k = in[2], h = in[3];
  y[1] = in[0];
  y[2] = in[1];
  for (int s = 0; s < (int)a[4]; s++) {
    dual hh = dscale(h, 0.5), h6 = ddiv(h, dc(6.0));
    dual dym[NMAX], dyt[NMAX], yt[NMAX];
    dderivs(y, dydx, k);
    for (int i = 1; i <= 2; i++)
      yt[i] = dadd(y[i], dmul(hh, dydx[i]));
    dderivs(yt, dyt, k);
    for (int i = 1; i <= 2; i++)
      yt[i] = dadd(y[i], dmul(hh, dyt[i]));
    dderivs(yt, dym, k);
    for (int i = 1; i <= 2; i++) {
      yt[i] = dadd(y[i], dmul(h, dym[i]));
      dym[i] = dadd(dym[i], dyt[i]);
    }
    dderivs(yt, dyt, k);
    for (int i = 1; i <= 2; i++)
      y[i] = dadd(y[i],
                  dmul(h6, dadd(dadd(dydx[i], dyt[i]), dscale(dym[i], 2.0))));
  }
  return y[1].d;
}
static double s_oscillate(const double *a) {
  return oscillate(a[0], a[1], a[2], a[3], (int)a[4]);
}
static void b_oscillate(size_t n, double *const *A, double *r) {
  oscillate_batched(n, A[0], A[1], A[2], A[3], to_i(A[4], n), r);
}
static void g_oscillate(size_t n, double *const *A, double *r, const double *dr,
                        double *const *S) {
  oscillate_grad(n, A[0], A[1], A[2], A[3], to_i(A[4], n), r, dr, S[0], S[1],
                 S[2], S[3]);
}
static void sm_oscillate(rng_t *r, double *a) {
  a[0] = rng_range(r, -2, 2);
  a[1] = rng_range(r, -2, 2);
  a[2] = rng_range(r, 0.1, 10);
  a[3] = rng_range(r, 0.01, 0.2);
  a[4] = (double)rng_below(r, 12);
}
static const gcase c_oscillate = {"oscillate",
                                  5,
                                  {P_VD, P_VD, P_VD, P_VD, P_VN},
                                  0,
                                  0,
                                  s_oscillate,
                                  d_oscillate,
                                  b_oscillate,
                                  g_oscillate,
                                  sm_oscillate,
                                  0,
                                  0,
                                  0};
GTEST(c_oscillate)

/* gammln (float): the same sums in dual numbers, in double. */
static double d_gammln(const double *a, int j) {
  (void)j;
  dual x = dv((float)a[0]), y = x, tmp = dadd(x, dc(5.5));
  static const double cof[6] = {76.18009172947146,     -86.50532032941677,
                                24.01409824083091,     -1.231739572450155,
                                0.1208650973866179e-2, -0.5395239384953e-5};
  tmp = dsub(tmp, dmul(dadd(x, dc(0.5)), dlog(tmp)));
  dual ser = dc(1.000000000190015);
  for (int i = 0; i <= 5; i++) {
    y = dadd(y, dc(1.0));
    ser = dadd(ser, ddiv(dc(cof[i]), y));
  }
  return dadd(dneg(tmp), dlog(ddiv(dscale(ser, 2.5066282746310005), x))).d;
}
static double s_gammln(const double *a) { return gammln((float)a[0]); }
static void b_gammln(size_t n, double *const *A, double *r) {
  float *q = gp_alloc(n * 4);
  gammln_batched(n, to_f(A[0], n), q);
  for (size_t i = 0; i < n; i++)
    r[i] = q[i];
}
static void g_gammln(size_t n, double *const *A, double *r, const double *dr,
                     double *const *S) {
  float *q = r ? gp_alloc(n * 4) : NULL, *d = S[0] ? sh_f(S[0], n) : NULL;
  float *fdr = dr ? to_f(dr, n) : NULL;
  gammln_grad(n, to_f(A[0], n), q, fdr, d);
  sh_back(S[0], d, n);
  if (r)
    for (size_t i = 0; i < n; i++)
      r[i] = q[i];
}
static void sm_gammln(rng_t *r, double *a) {
  a[0] = (float)rng_range(r, 0.1, 30);
}
static const gcase c_gammln = {
    "gammln", 1,        {P_VD},    1, 0, s_gammln, d_gammln,
    b_gammln, g_gammln, sm_gammln, 0, 0, 0};
GTEST(c_gammln)

/* ndtri: the derivative is sqrt(2 pi) exp(x^2 / 2) for the rational
 * approximation's own value x (differentiated as written: dual numbers). */
static dual dpolevl(dual x, const double *c, int n) {
  dual ans = dc(c[0]);
  for (int i = 1; i <= n; i++)
    ans = dadd(dmul(ans, x), dc(c[i]));
  return ans;
}
static dual dp1evl(dual x, const double *c, int n) {
  dual ans = dadd(x, dc(c[0]));
  for (int i = 1; i < n; i++)
    ans = dadd(dmul(ans, x), dc(c[i]));
  return ans;
}
static double d_ndtri(const double *a, int j) {
  (void)j;
  dual y = dv(a[0]), x, z, y2, x0, x1;
  int code = 1;
  if (y.v <= 0.0 || y.v >= 1.0)
    return 0.0;
  if (y.v > 1.0 - 0.13533528323661269189) {
    y = dsub(dc(1.0), y);
    code = 0;
  }
  if (y.v > 0.13533528323661269189) {
    y = dsub(y, dc(0.5));
    y2 = dmul(y, y);
    x = dadd(y, dmul(y, ddiv(dmul(y2, dpolevl(y2, P0, 4)), dp1evl(y2, Q0, 8))));
    return dscale(x, s2pi).d;
  }
  x = dsqrt(dscale(dlog(y), -2.0));
  x0 = dsub(x, ddiv(dlog(x), x));
  z = ddiv(dc(1.0), x);
  if (x.v < 8.0)
    x1 = ddiv(dmul(z, dpolevl(z, P1, 8)), dp1evl(z, Q1, 8));
  else
    x1 = ddiv(dmul(z, dpolevl(z, P2, 8)), dp1evl(z, Q2, 8));
  x = dsub(x0, x1);
  return (code != 0 ? dneg(x) : x).d;
}
static double s_ndtri(const double *a) { return ndtri(a[0]); }
static void b_ndtri(size_t n, double *const *A, double *r) {
  ndtri_batched(n, A[0], r);
}
static void g_ndtri(size_t n, double *const *A, double *r, const double *dr,
                    double *const *S) {
  ndtri_grad(n, A[0], r, dr, S[0]);
}
static void sm_ndtri(rng_t *r, double *a) {
  /* (The far tail, y0 down to 1e-300, is in t_more: finite differences
   * need steps smaller than y0 there.) */
  a[0] = rng_below(r, 8) == 0 ? exp(-rng_range(r, 2.2, 6.0))
                              : rng_range(r, 0.001, 0.999);
}
static const gcase c_ndtri = {"ndtri", 1,       {P_VD},  0,       0,
                              s_ndtri, d_ndtri, b_ndtri, g_ndtri, sm_ndtri,
                              0,       0,       0};
GTEST(c_ndtri)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(rtbis),
      T_(zbrent),
      T_(betacf),
      T_(fd_tanh),
      cmocka_unit_test(t_more),
      GT_(c_fd_tanh),
      GT_(c_rtbis),
      GT_(c_oscillate),
      GT_(c_gammln),
      GT_(c_ndtri),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_found", tests, NULL, NULL);
}
