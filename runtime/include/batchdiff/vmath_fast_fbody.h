/* batchdiff inline vector math: float kernels in float arithmetic, for
 * builds with FMA (without FMA the float functions compute in double, see
 * vmath_fast.h). No include guard: vmath_fast.h includes this file once per
 * float vector type after defining
 *   BD__S   name suffix (f32n, f32d), BD__VF the float vector type,
 *   BD__VI  the int32 vector of the same lanes.
 * Error analyses: docs/runtime.md, "Inline vector math". */

#define BD__K(name) BD__FPASTE(name, BD__S)

BD_INL BD__VF BD__K(bd__fspl_)(float c) { return (BD__VF){0} + c; }
BD_INL BD__VF BD__K(bd__fsel_)(BD__VI m, BD__VF a, BD__VF b) {
  return (BD__VF)(((BD__VI)a & m) | ((BD__VI)b & ~m));
}

/* exp(x) for |x| <= 86.5 (results normal, no special values):
 * x = n ln2 + r + rl, r = x - n ln2hi exact (fma; ln2hi = (float)ln2,
 * |n| < 2^7), |rl| < 2^-22; exp(r) = h + l + r^2 Q(r) with h + l = 1 + r
 * exactly, Q of degree 5 (2^-27.7), times 1 + rl (rl^2 < 2^-44); one
 * final rounding (~0.56 ULP). 2^n is added to the exponent. */
/* exp(x) = 2^n (1 + r + r2 Q + c) = 2^n (h + t), r2 + r2e = r^2 exactly,
 * c = r2e/2 + rl (1 + exp(r) - 1), h = 1 + r rounded, t the rest;
 * *qp = (Q - 1/2) / r. */
BD_INL BD__VI BD__K(bd__fexpcore_)(BD__VF x, BD__VF *rp, BD__VF *r2p,
                                   BD__VF *qp, BD__VF *cp, BD__VF *hp,
                                   BD__VF *tp) {
  BD__VF z =
      BD__FMA(x, BD__K(bd__fspl_)(0x1.715476p+0f), BD__K(bd__fspl_)(0x1.8p23f));
  BD__VI n = (BD__VI)z - 0x4b400000;
  BD__VF kd = z - 0x1.8p23f;
  BD__VF r = BD__FMA(kd, BD__K(bd__fspl_)(-0x1.62e430p-1f), x);
  BD__VF rl = kd * 0x1.05c610p-29f;
  BD__VF q = BD__K(bd__fspl_)(0x1.a12a42p-13f);
  q = BD__FMA(q, r, BD__K(bd__fspl_)(0x1.6d4920p-10f));
  q = BD__FMA(q, r, BD__K(bd__fspl_)(0x1.1110e0p-7f));
  q = BD__FMA(q, r, BD__K(bd__fspl_)(0x1.5554e4p-5f));
  q = BD__FMA(q, r, BD__K(bd__fspl_)(0x1.555556p-3f));
  *qp = q; /* Q(r) = 1/2 + r q */
  q = BD__FMA(q, r, BD__K(bd__fspl_)(0.5f));
  BD__VF h = 1.0f + r;
  BD__VF l = (1.0f - h) + r;
  BD__VF r2 = r * r;
  BD__VF r2e = BD__FMA(r, r, -r2);
  BD__VF em1 = BD__FMA(r2, q, r); /* exp(r) - 1, for the rl term only */
  BD__VF c = BD__FMA(r2e, BD__K(bd__fspl_)(0.5f), BD__FMA(rl, em1, rl));
  *rp = r;
  *r2p = r2;
  *cp = c;
  *hp = h;
  *tp = l + BD__FMA(r2, q, c);
  return n;
}

BD_INL BD__VF BD__K(bd__fexpf_)(BD__VF x) {
  BD__VF r, r2, q, c, h, t;
  BD__VI n = BD__K(bd__fexpcore_)(x, &r, &r2, &q, &c, &h, &t);
  return (BD__VF)((BD__VI)(h + t) + (n << 23));
}

/* 2^n for n in [-126, 127]. */
BD_INL BD__VF BD__K(bd__fpow2_)(BD__VI n) {
  return (BD__VF)((n << 23) + 0x3f800000);
}

/* expm1 = (2^n - 1) + 2^n (r + r2/2 + r2 r q + c): for |n| <= 24 the first
 * three terms are exact and summed by Fast2Sum (each sum's first term is the
 * larger, or 0), the rest added last; n > 24: 2^n h
 * + (2^n t - 1) in two steps, n < -24: 2^n (h + t) - 1; -1 below x = -17.4. */
BD_INL BD__VF BD__K(bd__fexpm1f_)(BD__VF x) {
  BD__VF xc = __builtin_elementwise_min(
      __builtin_elementwise_max(x, BD__K(bd__fspl_)(-30.0f)),
      BD__K(bd__fspl_)(89.0f));
  BD__VF r, r2, q, c, h, t;
  BD__VI n = BD__K(bd__fexpcore_)(xc, &r, &r2, &q, &c, &h, &t);
  BD__VF s2n = BD__K(bd__fpow2_)(n);
  BD__VF a = s2n - 1.0f, b = s2n * r;
  BD__VF s = a + b;
  BD__VF hr2 = s2n * r2 * 0.5f; /* exact */
  BD__VF s2 = s + hr2;
  BD__VF e = ((a - s) + b) + ((s - s2) + hr2);
  BD__VF y = s2 + BD__FMA(s2n * r2 * r, q, e + s2n * c);
  BD__VF s1 = BD__K(bd__fpow2_)(n - 1);
  BD__VF ybig = (s1 * h + BD__FMA(s1, t, BD__K(bd__fspl_)(-0.5f))) * 2.0f;
  BD__VF ysmall = BD__FMA(s2n, h + t, BD__K(bd__fspl_)(-1.0f));
  y = BD__K(bd__fsel_)((BD__VI)(n > 24), ybig, y);
  y = BD__K(bd__fsel_)((BD__VI)(n < -24), ysmall, y);
  return BD__K(bd__fsel_)((BD__VI)(x == 0.0f) | (BD__VI)(x != x), x + x, y);
}

/* log(1 + f) + k ln2 + c for f = m - 1 (or x), |f| <= sqrt(2) - 1:
 * log(1 + f) = f - f^2/2 + f^3 P(f), P of degree 8 (2^-27.3 on f^2 P).
 * k ln2hi (13 bits: exact) + f and that - f^2/2 (f^2 = f2 + f2e exactly by
 * fma) are summed by Fast2Sum (each first term is the larger one, or 0);
 * their errors join k ln2lo + c + f^3 P(f), added last: ~0.55 ULP. */
BD_INL BD__VF BD__K(bd__flogf_kern_)(BD__VF f, BD__VF kf, BD__VF c) {
  BD__VF p = BD__K(bd__fspl_)(0x1.15425cp-4f);
  p = BD__FMA(p, f, BD__K(bd__fspl_)(-0x1.d962f2p-4f));
  p = BD__FMA(p, f, BD__K(bd__fspl_)(0x1.e3d33ap-4f));
  p = BD__FMA(p, f, BD__K(bd__fspl_)(-0x1.fcc1aep-4f));
  p = BD__FMA(p, f, BD__K(bd__fspl_)(0x1.237a56p-3f));
  p = BD__FMA(p, f, BD__K(bd__fspl_)(-0x1.5559e6p-3f));
  p = BD__FMA(p, f, BD__K(bd__fspl_)(0x1.99a130p-3f));
  p = BD__FMA(p, f, BD__K(bd__fspl_)(-0x1.000008p-2f));
  p = BD__FMA(p, f, BD__K(bd__fspl_)(0x1.55554ep-2f));
  BD__VF f2 = f * f;
  BD__VF f2e = BD__FMA(f, f, -f2);
  BD__VF t = f2 * -0.5f;
  BD__VF a = kf * 0x1.62ep-1f;
  BD__VF hi = a + f;
  BD__VF e = (a - hi) + f;
  BD__VF hi2 = hi + t;
  BD__VF e2 = (hi - hi2) + t;
  BD__VF lo = BD__FMA(kf, BD__K(bd__fspl_)(0x1.0bfbe8p-15f), (e + e2) + c);
  lo = BD__FMA(f2e, BD__K(bd__fspl_)(-0.5f), lo);
  lo = BD__FMA(f2 * f, p, lo);
  return hi2 + lo;
}

/* Split positive normal finite x into 2^k m, m in [sqrt(2)/2, sqrt(2)). */
BD_INL BD__VF BD__K(bd__ffrexp_)(BD__VF x, BD__VF *kf) {
  BD__VI bits = (BD__VI)x;
  BD__VI tmp = bits - 0x3f3504f3;
  *kf = __builtin_convertvector(tmp >> 23, BD__VF);
  return (BD__VF)(bits - (tmp & (int32_t)0xff800000));
}

BD_INL BD__VF BD__K(bd__flogf_)(BD__VF x) {
  BD__VI sub = (BD__VI)(x < 0x1p-126f);
  BD__VF xs = BD__K(bd__fsel_)(sub, x * 0x1p23f, x);
  BD__VF kf;
  BD__VF m = BD__K(bd__ffrexp_)(xs, &kf);
  kf = kf -
       BD__K(bd__fsel_)(sub, BD__K(bd__fspl_)(23.0f), BD__K(bd__fspl_)(0.0f));
  return BD__K(bd__flogf_kern_)(m - 1.0f, kf, BD__K(bd__fspl_)(0.0f));
}

/* log1p: u = 1 + x; k = 0 uses f = x (exact); otherwise f = m - 1 from u
 * and c = (1 + x - u) / u, exact numerator (fdlibm's s_log1pf.c). */
BD_INL BD__VF BD__K(bd__flog1pf_)(BD__VF x) {
  BD__VF u = 1.0f + x;
  BD__VF kf;
  BD__VF m = BD__K(bd__ffrexp_)(u, &kf);
  BD__VI k0 = (BD__VI)(kf == 0.0f);
  BD__VF f = BD__K(bd__fsel_)(k0, x, m - 1.0f);
  BD__VF c =
      BD__K(bd__fsel_)((BD__VI)(u >= 2.0f), 1.0f - (u - x), x - (u - 1.0f));
  c = BD__K(bd__fsel_)(k0, BD__K(bd__fspl_)(0.0f), c / u);
  return BD__K(bd__flogf_kern_)(f, kf, c);
}

#undef BD__K
