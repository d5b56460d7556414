/* Gradient tests: NAME_grad against forward mode over hand-written dual-
 * number copies of each function (tight tolerance), against central finite
 * differences, and for the contract's mechanics (accumulating shadows,
 * uniform sums, NULL shadows / ret / d_ret, seeds, ragged branch paths
 * inside one SIMD chunk). See grad_util.h for what run_grad_case checks. */
#include "grad_util.h"
#include "../common/test_filter.h"

static double pick(rng_t *r, double lo, double hi) { return rng_range(r, lo, hi); }
/* |v| in [lo, hi], random sign */
static double pick_away0(rng_t *r, double lo, double hi) {
  double v = rng_range(r, lo, hi);
  return rng_below(r, 2) ? v : -v;
}


/* ---- 1. polynomial with contracted multiply-adds ------------------------ */
BATCHDIFF double g_poly(double x, double y) {
  return x * x * y + 3.0 * x * y - y / x + x * y + 1.0;
}
static dual dual_g_poly(dual x, dual y) {
  dual r = dmul(dmul(x, x), y);
  r = dadd(r, dmul(dscale(x, 3.0), y));
  r = dsub(r, ddiv(y, x));
  r = dadd(r, dmul(x, y));
  return dadd(r, dc(1.0));
}
static void sm_poly(rng_t *r, double *a) {
  a[0] = pick_away0(r, 0.5, 3);
  a[1] = pick(r, -3, 3);
}
ADAPT2(g_poly)
CASE2(g_poly, sm_poly)

/* ---- 2. branches that differ per lane --------------------------------- */
BATCHDIFF double g_branch(double x, double y) {
  if (x > y)
    return x * y;
  else if (x < -1.0)
    return exp(x) - y;
  return sin(x) * y;
}
static dual dual_g_branch(dual x, dual y) {
  if (x.v > y.v)
    return dmul(x, y);
  else if (x.v < -1.0)
    return dsub(dexp(x), y);
  return dmul(dsin(x), y);
}
static void sm_branch(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = pick(r, -3, 3);
  switch (rng_below(r, 8)) { /* right at the thresholds */
  case 0:
    a[1] = a[0];
    break;
  case 1:
    a[0] = -1.0;
    break;
  }
}
ADAPT2(g_branch)
CASE2(g_branch, sm_branch)

/* ---- 3. early returns, locals reassigned, a uniform weight ------------- */
BATCHDIFF double g_early(double x, BD_UNIFORM double w) {
  double t = x * w;
  if (t > 2.0)
    return t * t;
  t = t + sin(t);
  if (x < 0.0) {
    t = t * x;
    if (t > 1.0)
      return t;
    return -t;
  }
  return log1p(t * t) + t;
}
static dual dual_g_early(dual x, dual w) {
  dual t = dmul(x, w);
  if (t.v > 2.0)
    return dmul(t, t);
  t = dadd(t, dsin(t));
  if (x.v < 0.0) {
    t = dmul(t, x);
    if (t.v > 1.0)
      return t;
    return dneg(t);
  }
  return dadd(dlog1p(dmul(t, t)), t);
}
static double s_g_early(const double *a) { return g_early(a[0], a[1]); }
static void b_g_early(size_t n, double *const *A, double *r) {
  g_early_batched(n, A[0], A[1][0], r);
}
static void g_g_early(size_t n, double *const *A, double *r, const double *dr,
                      double *const *S) {
  g_early_grad(n, A[0], A[1][0], r, dr, S[0], S[1]);
}
static double d_g_early(const double *a, int j) {
  dual x[2];
  dseed(x, a, 2, j);
  return dual_g_early(x[0], x[1]).d;
}
static void sm_early(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = pick(r, 0.5, 2);
}
static const gcase c_g_early = {"g_early", 2,         {P_VD, P_UD}, 0,
                                0,         s_g_early, d_g_early,    b_g_early,
                                g_g_early, sm_early};
GTEST(c_g_early)

/* ---- 4. math functions ------------------------------------------------- */
BATCHDIFF double g_math(double x, double y) {
  return pow(x, y) + atan2(y, x) + hypot(x, y) + tanh(x * y) + sqrt(x) +
         atan(y) + cos(x) * erfc(y) + log(x) * fabs(y) + fmax(x, y);
}
static dual dual_g_math(dual x, dual y) {
  dual r = dpow(x, y);
  r = dadd(r, datan2(y, x));
  r = dadd(r, dhypot(x, y));
  r = dadd(r, dtanh(dmul(x, y)));
  r = dadd(r, dsqrt(x));
  r = dadd(r, datan(y));
  r = dadd(r, dmul(dcos(x), derfc(y)));
  r = dadd(r, dmul(dlog(x), dfabs(y)));
  return dadd(r, dfmax(x, y));
}
static void sm_math(rng_t *r, double *a) {
  a[0] = pick(r, 0.2, 3);
  a[1] = pick_away0(r, 0.05, 2);
}
ADAPT2(g_math)
CASE2(g_math, sm_math)

/* ---- 5. calls: static inline helper with early returns, annotated callee */
static inline double h_clip(double v, double lo) {
  if (v < lo)
    return lo;
  if (v > 2.0)
    return 2.0 + 0.5 * (v - 2.0);
  return v;
}
static dual dual_h_clip(dual v, double lo) {
  if (v.v < lo)
    return dc(lo);
  if (v.v > 2.0)
    return dadd(dc(2.0), dscale(dsub(v, dc(2.0)), 0.5));
  return v;
}
BATCHDIFF double g_calls(double x, double y) {
  double a = h_clip(x * y, -1.0);
  double b = g_poly(x, a);
  return b + h_clip(y, 0.0) * a;
}
static dual dual_g_calls(dual x, dual y) {
  dual a = dual_h_clip(dmul(x, y), -1.0);
  dual b = dual_g_poly(x, a);
  return dadd(b, dmul(dual_h_clip(y, 0.0), a));
}
ADAPT2(g_calls)
CASE2(g_calls, sm_poly)

/* ---- 6. short-circuit with side effects -------------------------------- */
BATCHDIFF double g_sc(double x, double y) {
  double z = 0.0;
  if (x > 0.0 && (z = x * y) > 1.0)
    x = x + z;
  int c = (y < 0.0) || (z = z + y) > 0.5;
  return x * z + c * y + x;
}
static dual dual_g_sc(dual x, dual y) {
  dual z = dc(0.0);
  if (x.v > 0.0 && (z = dmul(x, y)).v > 1.0)
    x = dadd(x, z);
  int c = (y.v < 0.0) || (z = dadd(z, y)).v > 0.5;
  return dadd(dadd(dmul(x, z), dscale(y, (double)c)), x);
}
static void sm_sc(rng_t *r, double *a) {
  a[0] = pick(r, -2, 2);
  a[1] = pick(r, -2, 2);
}
ADAPT2(g_sc)
CASE2(g_sc, sm_sc)

/* ---- 7. compound assignment, ++/-- -------------------------------------- */
BATCHDIFF double g_compound(double x, double y) {
  double z = x;
  z *= y;
  z += x;
  z++;
  z /= y;
  z -= x * 0.5;
  ++z;
  double w = z--;
  return z * w;
}
static dual dual_g_compound(dual x, dual y) {
  dual z = x;
  z = dmul(z, y);
  z = dadd(z, x);
  z = dadd(z, dc(1.0));
  z = ddiv(z, y);
  z = dsub(z, dscale(x, 0.5));
  z = dadd(z, dc(1.0));
  dual w = z;
  z = dsub(z, dc(1.0));
  return dmul(z, w);
}
static void sm_compound(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = pick_away0(r, 0.5, 3);
}
ADAPT2(g_compound)
CASE2(g_compound, sm_compound)

/* ---- 8. mixed parameter types: nodiff double, int, float in double fn -- */
BATCHDIFF double g_mixed(double x, BD_NODIFF double s, int k, float f) {
  if (k > 0)
    return x * s + f * x;
  return x / (1.0 + f * f) - k * s;
}
static dual dual_g_mixed(dual x, double s, int k, dual f) {
  if (k > 0)
    return dadd(dscale(x, s), dmul(f, x));
  /* f * f is a float product, promoted to double afterwards. */
  dual ff = {(double)((float)f.v * (float)f.v), 2.0 * f.v * f.d};
  return dsub(ddiv(x, dadd(dc(1.0), ff)), dc(k * s));
}
static double s_g_mixed(const double *a) {
  return g_mixed(a[0], a[1], (int)a[2], (float)a[3]);
}
static void b_g_mixed(size_t n, double *const *A, double *r) {
  g_mixed_batched(n, A[0], A[1], to_i(A[2], n), to_f(A[3], n), r);
}
static void g_g_mixed(size_t n, double *const *A, double *r, const double *dr,
                      double *const *S) {
  float *sf = sh_f(S[3], n);
  g_mixed_grad(n, A[0], A[1], to_i(A[2], n), to_f(A[3], n), r, dr, S[0], sf);
  sh_back(S[3], sf, n);
}
static double d_g_mixed(const double *a, int j) {
  dual x = {a[0], j == 0}, f = {a[3], j == 3};
  return dual_g_mixed(x, a[1], (int)a[2], f).d;
}
static void sm_mixed(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = pick(r, -2, 2);
  a[2] = (double)(rng_below(r, 5) - 2);
  a[3] = (double)(float)pick(r, -2, 2); /* exactly a float */
}
static const gcase c_g_mixed = {
    "g_mixed", 4,         {P_VD, P_VN, P_VN, P_VD}, 0, 1u << 3,
    s_g_mixed, d_g_mixed, b_g_mixed,                g_g_mixed, sm_mixed};
GTEST(c_g_mixed)

/* ---- 9. uniform parameters: sums over the batch ------------------------ */
BATCHDIFF double g_uniform(double x, BD_UNIFORM double w, BD_UNIFORM double b,
                           BD_UNIFORM int k) {
  double t = w * x + b;
  if (t > 0.0)
    return t * t + k;
  return -t * 0.5 * k;
}
static dual dual_g_uniform(dual x, dual w, dual b, int k) {
  dual t = dadd(dmul(w, x), b);
  if (t.v > 0.0)
    return dadd(dmul(t, t), dc(k));
  return dscale(dneg(t), 0.5 * k);
}
static double s_g_uniform(const double *a) {
  return g_uniform(a[0], a[1], a[2], (int)a[3]);
}
static void b_g_uniform(size_t n, double *const *A, double *r) {
  g_uniform_batched(n, A[0], A[1][0], A[2][0], (int)A[3][0], r);
}
static void g_g_uniform(size_t n, double *const *A, double *r,
                        const double *dr, double *const *S) {
  g_uniform_grad(n, A[0], A[1][0], A[2][0], (int)A[3][0], r, dr, S[0], S[1],
                 S[2]);
}
static double d_g_uniform(const double *a, int j) {
  dual x[3];
  dseed(x, a, 3, j);
  return dual_g_uniform(x[0], x[1], x[2], (int)a[3]).d;
}
static void sm_uniform(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = pick(r, 0.5, 2);
  a[2] = pick(r, -1, 1);
  a[3] = (double)(rng_below(r, 5) - 2);
}
static const gcase c_g_uniform = {
    "g_uniform", 4,           {P_VD, P_UD, P_UD, P_UN}, 0, 0,
    s_g_uniform, d_g_uniform, b_g_uniform,              g_g_uniform,
    sm_uniform};
GTEST(c_g_uniform)

/* ---- 10. ?: with calls in the arms ------------------------------------- */
BATCHDIFF double g_tern(double x, double y) {
  return x > 0.0 ? sqrt(x) * y : (y > 1.0 ? x * x * y : exp(y) * x);
}
static dual dual_g_tern(dual x, dual y) {
  return x.v > 0.0 ? dmul(dsqrt(x), y)
                   : (y.v > 1.0 ? dmul(dmul(x, x), y) : dmul(dexp(y), x));
}
static void sm_tern(rng_t *r, double *a) {
  a[0] = pick(r, -2, 2);
  a[1] = pick(r, -1, 3);
  if (a[0] > 0 && a[0] < 1e-3)
    a[0] = 0.5; /* sqrt'(0) is infinite */
}
ADAPT2(g_tern)
CASE2(g_tern, sm_tern)

/* ---- 11. float functions: checked in float ------------------------------ */
BATCHDIFF float gf_softplus(float x) {
  return x > 20.0f ? x : log1pf(expf(x));
}
static dualf dualf_softplus(dualf x) {
  return x.v > 20.0f ? x : flog1pd(fexpd(x));
}
static double s_gf_softplus(const double *a) { return gf_softplus((float)a[0]); }
static void b_gf_softplus(size_t n, double *const *A, double *r) {
  float *o = gp_alloc(n * sizeof(float));
  gf_softplus_batched(n, to_f(A[0], n), o);
  sh_back(r, o, n);
}
static void g_gf_softplus(size_t n, double *const *A, double *r,
                          const double *dr, double *const *S) {
  float *o = r ? gp_alloc(n * sizeof(float)) : NULL;
  float *s0 = sh_f(S[0], n);
  gf_softplus_grad(n, to_f(A[0], n), o, dr ? to_f(dr, n) : NULL, s0);
  sh_back(S[0], s0, n);
  sh_back(r, o, n);
}
static double d_gf_softplus(const double *a, int j) {
  (void)j;
  return dualf_softplus((dualf){(float)a[0], 1.0f}).d;
}
static void sm_softplus(rng_t *r, double *a) {
  a[0] = (float)(rng_below(r, 6) == 0 ? 20.0 : pick(r, -30, 30));
}
static const gcase c_gf_softplus = {
    "gf_softplus", 1,             {P_VD},        1, 0, s_gf_softplus,
    d_gf_softplus, b_gf_softplus, g_gf_softplus, sm_softplus};
GTEST(c_gf_softplus)

BATCHDIFF float gf_branch(float x, BD_UNIFORM float w, float y) {
  float t = x * w;
  if (t < -1.0f)
    return tanhf(t) * y;
  if (y > t)
    return sqrtf(y - t) + x;
  t -= y;
  return t * t * w;
}
static dualf dualf_branch(dualf x, dualf w, dualf y) {
  dualf t = fmul(x, w);
  if (t.v < -1.0f)
    return fmul(ftanhd(t), y);
  if (y.v > t.v)
    return fadd(fsqrtd(fsub(y, t)), x);
  t = fsub(t, y);
  return fmul(fmul(t, t), w);
}
static double s_gf_branch(const double *a) {
  return gf_branch((float)a[0], (float)a[1], (float)a[2]);
}
static void b_gf_branch(size_t n, double *const *A, double *r) {
  float *o = gp_alloc(n * sizeof(float));
  gf_branch_batched(n, to_f(A[0], n), (float)A[1][0], to_f(A[2], n), o);
  sh_back(r, o, n);
}
static void g_gf_branch(size_t n, double *const *A, double *r,
                        const double *dr, double *const *S) {
  float *o = r ? gp_alloc(n * sizeof(float)) : NULL;
  float *s0 = sh_f(S[0], n), *s1 = sh_f(S[1], 1), *s2 = sh_f(S[2], n);
  gf_branch_grad(n, to_f(A[0], n), (float)A[1][0], to_f(A[2], n), o,
                 dr ? to_f(dr, n) : NULL, s0, s1, s2);
  sh_back(S[0], s0, n);
  sh_back(S[1], s1, 1);
  sh_back(S[2], s2, n);
  sh_back(r, o, n);
}
static double d_gf_branch(const double *a, int j) {
  dualf x[3];
  for (int k = 0; k < 3; k++)
    x[k] = (dualf){(float)a[k], k == j ? 1.0f : 0.0f};
  return dualf_branch(x[0], x[1], x[2]).d;
}
static void sm_gf_branch(rng_t *r, double *a) {
  a[0] = (float)pick(r, -3, 3);
  a[1] = (float)pick(r, 0.5, 2);
  a[2] = (float)pick(r, -3, 3);
  if (a[2] - a[0] * a[1] > 0 && a[2] - a[0] * a[1] < 1e-2)
    a[2] += 0.5; /* sqrt'(0) */
}
static const gcase c_gf_branch = {
    "gf_branch", 3,           {P_VD, P_UD, P_VD}, 1, 0, s_gf_branch,
    d_gf_branch, b_gf_branch, g_gf_branch,        sm_gf_branch};
GTEST(c_gf_branch)

/* ---- 12. one lane's early return must not stop the others' adjoints ---- */
BATCHDIFF double g_ret_mix(double x, double y) {
  double a = x * y;
  if (x < 0.0)
    return a;      /* these lanes are done */
  a = a * x + y;   /* others continue */
  if (a > 4.0)
    return a * 0.5;
  a = a * a;
  return a + x;
}
static dual dual_g_ret_mix(dual x, dual y) {
  dual a = dmul(x, y);
  if (x.v < 0.0)
    return a;
  a = dadd(dmul(a, x), y);
  if (a.v > 4.0)
    return dscale(a, 0.5);
  a = dmul(a, a);
  return dadd(a, x);
}
ADAPT2(g_ret_mix)
CASE2(g_ret_mix, sm_sc)

/* ---- 13. locals overwritten per lane, before and after their uses ------ */
BATCHDIFF double g_overwrite(double x, double y) {
  double t = x;
  if (x > 0.0)
    t = x * x;
  double s = sin(t);
  t = s * y;
  if (y < 0.0) {
    t = t * t;
    s = t + s;
  } else {
    s = s * x;
  }
  t = t + s;
  t *= t;
  return t + s * y;
}
static dual dual_g_overwrite(dual x, dual y) {
  dual t = x;
  if (x.v > 0.0)
    t = dmul(x, x);
  dual s = dsin(t);
  t = dmul(s, y);
  if (y.v < 0.0) {
    t = dmul(t, t);
    s = dadd(t, s);
  } else {
    s = dmul(s, x);
  }
  t = dadd(t, s);
  t = dmul(t, t);
  return dadd(t, dmul(s, y));
}
ADAPT2(g_overwrite)
/* sin's ulp is amplified by the squares: allow an absolute 1e-13. */
static const gcase c_g_overwrite = {
    "g_overwrite", 2,      {P_VD, P_VD},   0, 0, s_g_overwrite, d_g_overwrite,
    b_g_overwrite, g_g_overwrite, sm_sc, 1e-13};
GTEST(c_g_overwrite)

/* ---- 14. nested helpers with early returns, annotated callees twice ----- */
static inline double hb(double v) {
  if (v > 1.0)
    return log(v);
  return v - 1.0;
}
static inline double ha(double v, double w) {
  if (w < -1.0)
    return hb(v * v + 1.0);
  double r = hb(v + w);
  if (r > 0.5)
    return r * w;
  return r + hb(w * w);
}
BATCHDIFF double g_nested(double x, double y) {
  double a = ha(x, y);
  double b = ha(y, a);
  return g_branch(x, a) + g_branch(a, b) + a * b;
}
static dual dual_hb(dual v) {
  if (v.v > 1.0)
    return dlog(v);
  return dsub(v, dc(1.0));
}
static dual dual_ha(dual v, dual w) {
  if (w.v < -1.0) {
    /* v * v + 1.0 is contracted in the scalar code: same value for the
     * branch inside hb when the target fuses */
    dual q = dadd(dmul(v, v), dc(1.0));
#ifdef __FMA__
    q.v = fma(v.v, v.v, 1.0);
#endif
    return dual_hb(q);
  }
  dual r = dual_hb(dadd(v, w));
  if (r.v > 0.5)
    return dmul(r, w);
  return dadd(r, dual_hb(dmul(w, w)));
}
static dual dual_g_nested(dual x, dual y) {
  dual a = dual_ha(x, y);
  dual b = dual_ha(y, a);
  return dadd(dadd(dual_g_branch(x, a), dual_g_branch(a, b)), dmul(a, b));
}
static void sm_nested(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = pick(r, -3, 3);
}
ADAPT2(g_nested)
static const gcase c_g_nested = {
    "g_nested", 2, {P_VD, P_VD}, 0, 0, s_g_nested, d_g_nested, b_g_nested,
    g_g_nested, sm_nested,
    1e-13 /* sums of log/sin/exp terms of size ~1 that partly cancel */};
GTEST(c_g_nested)

/* ---- 15. branches on uniform values, guarded uniform int division ------- */
BATCHDIFF double g_uni_branch(double x, BD_UNIFORM double w, BD_UNIFORM int k) {
  double s = w;
  if (k > 0)
    s = w * w + 1.0;
  else if (k < 0)
    s = sqrt(w);
  int q = k != 0 ? 10 / k : 0;
  if (x > s)
    return (x - s) * q;
  return x * s + q;
}
static dual dual_g_uni_branch(dual x, dual w, int k) {
  dual s = w;
  if (k > 0) {
    s = dadd(dmul(w, w), dc(1.0));
#ifdef __FMA__
    s.v = fma(w.v, w.v, 1.0);
#endif
  } else if (k < 0)
    s = dsqrt(w);
  int q = k != 0 ? 10 / k : 0;
  if (x.v > s.v)
    return dscale(dsub(x, s), q);
  return dadd(dmul(x, s), dc(q));
}
static double s_g_uni_branch(const double *a) {
  return g_uni_branch(a[0], a[1], (int)a[2]);
}
static void b_g_uni_branch(size_t n, double *const *A, double *r) {
  g_uni_branch_batched(n, A[0], A[1][0], (int)A[2][0], r);
}
static void g_g_uni_branch(size_t n, double *const *A, double *r,
                           const double *dr, double *const *S) {
  g_uni_branch_grad(n, A[0], A[1][0], (int)A[2][0], r, dr, S[0], S[1]);
}
static double d_g_uni_branch(const double *a, int j) {
  dual x = {a[0], j == 0}, w = {a[1], j == 1};
  return dual_g_uni_branch(x, w, (int)a[2]).d;
}
static void sm_uni_branch(rng_t *r, double *a) {
  a[0] = pick(r, -3, 4);
  a[1] = pick(r, 0.25, 2);
  a[2] = (double)(rng_below(r, 5) - 2);
}
static const gcase c_g_uni_branch = {
    "g_uni_branch", 3,  {P_VD, P_UD, P_UN}, 0, 0, s_g_uni_branch,
    d_g_uni_branch, b_g_uni_branch, g_g_uni_branch, sm_uni_branch};
GTEST(c_g_uni_branch)

/* ---- 16. casts: float promoted, float->int kills, double->float passes -- */
BATCHDIFF double g_casts(float x, double y) {
  double r = x * y;
  int k = (int)(x * 2.0f);
  float f = (float)(y * 0.5);
  double z = r + k + f * x;
  if (k > 1)
    z = z * (double)f;
  return z;
}
static dual dual_g_casts(dual x, dual y) {
  dual r = dmul(x, y);
  int k = (int)((float)x.v * 2.0f);
  dual f = {(double)(float)(y.v * 0.5), y.d * 0.5};
  dual fx = {(double)((float)f.v * (float)x.v), f.d * x.v + f.v * x.d};
  dual z = dadd(dadd(r, dc(k)), fx);
  if (k > 1)
    z = dmul(z, f);
  return z;
}
static double s_g_casts(const double *a) { return g_casts((float)a[0], a[1]); }
static void b_g_casts(size_t n, double *const *A, double *r) {
  g_casts_batched(n, to_f(A[0], n), A[1], r);
}
static void g_g_casts(size_t n, double *const *A, double *r, const double *dr,
                      double *const *S) {
  float *s0 = sh_f(S[0], n);
  g_casts_grad(n, to_f(A[0], n), A[1], r, dr, s0, S[1]);
  sh_back(S[0], s0, n);
}
static double d_g_casts(const double *a, int j) {
  dual x = {a[0], j == 0}, y = {a[1], j == 1};
  return dual_g_casts(x, y).d;
}
static void sm_casts(rng_t *r, double *a) {
  a[0] = (float)pick(r, -3, 3);
  a[1] = pick(r, -3, 3);
}
static const gcase c_g_casts = {"g_casts", 2,         {P_VD, P_VD}, 0,
                                1u << 0,   s_g_casts, d_g_casts,    b_g_casts,
                                g_g_casts, sm_casts,  0,            1e-6,
                                1u << 1 /* (float)(y * 0.5) */};
GTEST(c_g_casts)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      GT_(c_g_poly),     GT_(c_g_branch),    GT_(c_g_early),
      GT_(c_g_math),     GT_(c_g_calls),     GT_(c_g_sc),
      GT_(c_g_compound), GT_(c_g_mixed),     GT_(c_g_uniform),
      GT_(c_g_tern),     GT_(c_gf_softplus), GT_(c_gf_branch),
      GT_(c_g_ret_mix),  GT_(c_g_overwrite), GT_(c_g_nested),
      GT_(c_g_uni_branch), GT_(c_g_casts),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_grad", tests, NULL, NULL);
}
