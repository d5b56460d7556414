/* batchdiff inline vector math: double-vector kernels. No include guard:
 * vmath_fast.h includes this file once per double vector type after defining
 *   BD__S   name suffix (dn: BD_WN doubles, dd: BD_WD doubles)
 *   BD__VD  the double vector type, BD__VL / BD__VU the int64 / uint64
 *           vectors of the same lanes
 * Each kernel is written once, for any width. The bd__f*k kernels serve the
 * float functions (relative error < 2^-28 in double, so the one rounding to
 * float stays within 0.5 + 2^-4 ULP); the others are the double functions.
 * Constants and error analyses: docs/runtime.md, "Inline vector math". */

#define BD__K(name) BD__FPASTE(name, BD__S)

BD_INL BD__VD BD__K(bd__vsel_)(BD__VL m, BD__VD a, BD__VD b) {
  return (BD__VD)(((BD__VL)a & m) | ((BD__VL)b & ~m));
}
BD_INL BD__VD BD__K(bd__vspl_)(double c) { return (BD__VD){0} + c; }
/* The vector at p (any alignment). */
BD_INL BD__VD BD__K(bd__vld_)(const double *p) {
  BD__VD v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
BD_INL BD__VD BD__K(bd__vmin_)(BD__VD a, double c) {
  return __builtin_elementwise_min(a, BD__K(bd__vspl_)(c));
}
BD_INL BD__VD BD__K(bd__vmax_)(BD__VD a, double c) {
  return __builtin_elementwise_max(a, BD__K(bd__vspl_)(c));
}
/* 2^n for integer n in [-1022, 1023] (wraps modulo 2^12 in the exponent). */
BD_INL BD__VD BD__K(bd__vpow2_)(BD__VL n) {
  return (BD__VD)((n << 52) + 0x3ff0000000000000LL);
}

/* exp(x) for the float functions, x in [-150, 100] (no special values):
 * x = n ln2 + r, |r| <= ln2/2 + 2^-40, exp(r) by a degree-6 minimax
 * polynomial (2^-28.8 relative), times 2^n (exact in double). */
BD_INL BD__VD BD__K(bd__fexpk_)(BD__VD x) {
  BD__VD z = x * 0x1.71547652b82fep0 + 0x1.8p52; /* n in the low bits */
  BD__VL n = (BD__VL)z;
  BD__VD kd = z - 0x1.8p52;
  BD__VD r = BD__FMA(kd, BD__K(bd__vspl_)(-0x1.62e42fefa39efp-1), x);
  BD__VD p = BD__K(bd__vspl_)(0x1.6d7c40355e704p-10);
  p = BD__FMA(p, r, BD__K(bd__vspl_)(0x1.1276b6cd5b1a0p-7));
  p = BD__FMA(p, r, BD__K(bd__vspl_)(0x1.5554a60827e6ep-5));
  p = BD__FMA(p, r, BD__K(bd__vspl_)(0x1.5553f68955eb9p-3));
  p = BD__FMA(p, r, BD__K(bd__vspl_)(0x1.0000002af73ffp-1));
  p = BD__FMA(p, r, BD__K(bd__vspl_)(0x1.000000abf7340p+0));
  p = BD__FMA(p, r, BD__K(bd__vspl_)(1.0));
  return p * BD__K(bd__vpow2_)(n);
}

/* Split a positive normal finite x into 2^k m, m in [sqrt(2)/2, sqrt(2)):
 * returns m; *kd = k as a double. Integer ops only (no 64-bit shifts right
 * of negative values, no int64 -> double conversion: neither is in AVX2). */
BD_INL BD__VD BD__K(bd__vfrexp_)(BD__VD x, BD__VD *kd) {
  BD__VL bits = (BD__VL)x;
  BD__VL tmp = bits - 0x3fe6a09e667f3bcdLL;
  BD__VL kb = tmp & (int64_t)0xfff0000000000000ULL;
  BD__VL kk = (BD__VL)((BD__VU)tmp >> 52);
  /* (k mod 4096) ^ 0x800 = k + 2048, placed in the mantissa of 2^52. */
  *kd = (BD__VD)((kk ^ 0x800) | 0x4330000000000000LL) - (0x1p52 + 2048.0);
  return (BD__VD)(bits - kb);
}

/* log(x) for the float functions, x positive, normal, finite (every float
 * is normal as a double): k ln2 + f P(f), f = m - 1 exact, P of degree 10
 * (2^-30.1 relative to log1p(f)). */
BD_INL BD__VD BD__K(bd__flogk_)(BD__VD x) {
  BD__VD kd;
  BD__VD f = BD__K(bd__vfrexp_)(x, &kd) - 1.0;
  BD__VD p = BD__K(bd__vspl_)(0x1.0d33d860b6dfcp-4);
  p = BD__FMA(p, f, BD__K(bd__vspl_)(-0x1.dbfb5485ff03dp-4));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(0x1.e94d9cb15bff0p-4));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(-0x1.fcc1c03210548p-4));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(0x1.23115669be2f7p-3));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(-0x1.5554c03ac1ed9p-3));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(0x1.99a6e4e0efb7fp-3));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(-0x1.000029dbd8b37p-2));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(0x1.555540bfde981p-2));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(-0x1.ffffff9b54336p-2));
  p = BD__FMA(p, f, BD__K(bd__vspl_)(0x1.0000000294d3fp+0));
  return BD__FMA(kd, BD__K(bd__vspl_)(0x1.62e42fefa39efp-1), f * p);
}

/* ---- double exp ----
 * x = n ln2 + r + rl: with FMA, r = x - n ln2 exact (ln2 rounded to double,
 * |n| < 2^11) and rl = -n (ln2 - that) (|rl| < 2^-45); without, r = rh + rl0
 * rounded (rh = x - n ln2hi exact: ln2hi has 32 bits) and rl its exact
 * error. exp(r) = h + l + r^2 P(r) (h + l = 1 + r exactly, P of degree 10,
 * 2^-59 absolute: expm1 needs it near 0), times (1 + rl); one final rounding:
 * ~0.7 ULP. Then 2^n: one multiply in the normal range; otherwise scaled in two
 * steps, and for subnormal results rounded once at the subnormal grid (the 1 +
 * y trick of glibc's exp). */
/* exp(xc + xl) = 2^n (1 + r + r2 (1/2 + r q) + c) = 2^n (h + t): r2 = r^2
 * rounded, c = its error / 2 (with FMA) + rl (1 + exp(r) - 1), h = 1 + r
 * rounded, t the rest (|t| < 0.08); xc in [-760, 710]; xl is a low part
 * (|xl| < 2^-40; 0 for plain exp). Returns n. */
BD_INL BD__VL BD__K(bd__expcorez_)(BD__VD xc, BD__VD xl, BD__VD z, BD__VL n,
                                   BD__VD *rp, BD__VD *r2p, BD__VD *qp,
                                   BD__VD *cp, BD__VD *hp, BD__VD *tp) {
  n -= 0x4338000000000000LL; /* n was z's bits */
  BD__VD kd = z - 0x1.8p52;
#if defined(__FMA__)
  BD__VD r = BD__FMA(kd, BD__K(bd__vspl_)(-0x1.62e42fefa39efp-1), xc);
  BD__VD rl = BD__FMA(kd, BD__K(bd__vspl_)(-0x1.abc9e3b39803fp-56), xl);
#else
  BD__VD rh = xc - kd * 0x1.62e42feep-1;
  BD__VD rl0 = kd * -0x1.a39ef35793c76p-33;
  BD__VD r = rh + rl0;
  BD__VD rl = ((rh - r) + rl0) + xl;
#endif
  /* Coefficients as memory operands of the FMAs (see vmath_erf.h): rows of
   * 16 copies, read as one vector of any width. */
  static const double k[10][16] __attribute__((__aligned__(64))) = {
      BD__R16(0x1.1f75aba0b1e2ep-29), BD__R16(0x1.af52906239de4p-26),
      BD__R16(0x1.27e4da1a3bf04p-22), BD__R16(0x1.71ddffef9e7b1p-19),
      BD__R16(0x1.a01a01a741b3cp-16), BD__R16(0x1.a01a01aca0134p-13),
      BD__R16(0x1.6c16c16c16212p-10), BD__R16(0x1.111111110ff87p-7),
      BD__R16(0x1.5555555555556p-5),  BD__R16(0x1.5555555555557p-3),
  };
  const double *K = &k[0][0];
  __asm__("" : "+r"(K));
  BD__VD p = BD__K(bd__vld_)(K);
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 16));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 32));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 48));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 64));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 80));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 96));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 112));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 128));
  p = BD__FMA(p, r, BD__K(bd__vld_)(K + 144));
  *qp = p;
  p = BD__FMA(p, r, BD__K(bd__vspl_)(0.5));
  BD__VD h = 1.0 + r;
  BD__VD l = (1.0 - h) + r;
  BD__VD r2 = r * r;
  BD__VD em1 = BD__FMA(r2, p, r); /* exp(r) - 1, for the rl term only */
  BD__VD c = BD__FMA(rl, em1, rl);
#if defined(__FMA__)
  c = BD__FMA(BD__FMA(r, r, -r2), BD__K(bd__vspl_)(0.5), c);
#endif
  *rp = r;
  *r2p = r2;
  *cp = c;
  *hp = h;
  *tp = l + BD__FMA(r2, p, c);
  return n;
}
/* z = xc log2(e) + 1.5 * 2^52 (n in its low bits) and its bits: through
 * BD__BITS in the inline bodies (tanh, expm1: bd__expcoreb_), whose
 * compile it shortens; the plain cast in exp's cold general path (with the
 * asm there, what LLVM inferred about that function changed its callers'
 * code). */
BD_INL BD__VL BD__K(bd__expcore_)(BD__VD xc, BD__VD xl, BD__VD *rp, BD__VD *r2p,
                                  BD__VD *qp, BD__VD *cp, BD__VD *hp,
                                  BD__VD *tp) {
  BD__VD z = xc * 0x1.71547652b82fep0 + 0x1.8p52;
  return BD__K(bd__expcorez_)(xc, xl, z, (BD__VL)z, rp, r2p, qp, cp, hp, tp);
}
BD_INL BD__VL BD__K(bd__expcoreb_)(BD__VD xc, BD__VD xl, BD__VD *rp,
                                   BD__VD *r2p, BD__VD *qp, BD__VD *cp,
                                   BD__VD *hp, BD__VD *tp) {
  BD__VD z = xc * 0x1.71547652b82fep0 + 0x1.8p52;
  return BD__K(bd__expcorez_)(xc, xl, z, BD__BITS(z), rp, r2p, qp, cp, hp, tp);
}

#if defined(__FMA__)
/* exp for |x| <= 708 (FMA builds): the reduction of bd__expcore_ (r exact,
 * rl = -n (ln2 - ln2 rounded)), then exp(r + rl) = h + l + s^2 P(s) with s =
 * r + rl rounded (its error only reaches s^2 P), h + l = 1 + r + rl (h = 1 +
 * r, l its exact error plus rl) and P of bd__expcore_ (degree 10, 2^-59):
 * one final rounding; s^2's rounding is the largest other error (below
 * 2^-57 of the result). No clamps, no special values: the caller takes
 * other vectors to bd__exp_'s general path. */
BD_INL BD__VD BD__K(bd__expfma_)(BD__VD x) {
  BD__VD z = BD__FMA(x, BD__K(bd__vspl_)(0x1.71547652b82fep0),
                     BD__K(bd__vspl_)(0x1.8p52));
  BD__VL n = (BD__VL)z - 0x4338000000000000LL;
  BD__VD kd = z - 0x1.8p52;
  BD__VD r = BD__FMA(kd, BD__K(bd__vspl_)(-0x1.62e42fefa39efp-1), x);
  BD__VD rl = kd * -0x1.abc9e3b39803fp-56;
  BD__VD s = r + rl;
  static const double k[10][16] __attribute__((__aligned__(64))) = {
      BD__R16(0x1.1f75aba0b1e2ep-29), BD__R16(0x1.af52906239de4p-26),
      BD__R16(0x1.27e4da1a3bf04p-22), BD__R16(0x1.71ddffef9e7b1p-19),
      BD__R16(0x1.a01a01a741b3cp-16), BD__R16(0x1.a01a01aca0134p-13),
      BD__R16(0x1.6c16c16c16212p-10), BD__R16(0x1.111111110ff87p-7),
      BD__R16(0x1.5555555555556p-5),  BD__R16(0x1.5555555555557p-3),
  };
  const double *K = &k[0][0];
  __asm__ volatile("" : "+r"(K)); /* volatile: not shared with other calls */
#if BD_VBYTES < 64
  /* P by Estrin at 4 lanes (depth 4 FMAs instead of Horner's 9): in
   * bs_call_grad with AVX2's 16 registers the erfc rule's two exps sit on
   * the reverse sweep's latency path (7% faster). At 8 lanes it gained
   * nothing there and cost implied_vol_batched 1.4% (two more multiplies),
   * so 64-byte vectors keep Horner. The terms beyond c8 s + c9 are below
   * 2^-8 of it: 1 result in 3066 differs by one ULP
   * (performance-history-2.md, "exp's polynomial by Estrin"). */
  BD__VD s2 = s * s;
  BD__VD a01 = BD__FMA(BD__K(bd__vld_)(K), s, BD__K(bd__vld_)(K + 16));
  BD__VD a23 = BD__FMA(BD__K(bd__vld_)(K + 32), s, BD__K(bd__vld_)(K + 48));
  BD__VD a45 = BD__FMA(BD__K(bd__vld_)(K + 64), s, BD__K(bd__vld_)(K + 80));
  BD__VD a67 = BD__FMA(BD__K(bd__vld_)(K + 96), s, BD__K(bd__vld_)(K + 112));
  BD__VD a89 = BD__FMA(BD__K(bd__vld_)(K + 128), s, BD__K(bd__vld_)(K + 144));
  BD__VD s4 = s2 * s2;
  BD__VD a03 = BD__FMA(a01, s2, a23);
  BD__VD a47 = BD__FMA(a45, s2, a67);
  BD__VD p = BD__FMA(BD__FMA(a03, s4, a47), s2, a89);
#else
  BD__VD p = BD__K(bd__vld_)(K);
  for (int i = 1; i < 10; i++)
    p = BD__FMA(p, s, BD__K(bd__vld_)(K + 16 * i));
#endif
  p = BD__FMA(p, s, BD__K(bd__vspl_)(0.5));
  BD__VD h = 1.0 + r;
  BD__VD l = ((1.0 - h) + r) + rl;
  return (h + BD__FMA(s * s, p, l)) * BD__K(bd__vpow2_)(n);
}
#endif

/* exp's general path: with FMA only for vectors with a lane beyond |x| =
 * 708 (infinities included, NaN not), out of line (BD__COLD), given the fast path's result (a lane's
 * result must not depend on its neighbours: lanes with |x| <= 708 keep it);
 * without FMA the whole function. */
#if defined(__FMA__)
BD__COLD BD__VD BD__K(bd__expgen_)(BD__VD x, BD__VD small) {
#else
BD_INL BD__VD BD__K(bd__expgen_)(BD__VD x) {
#endif
  BD__VL big = ~(BD__VL)(__builtin_elementwise_abs(x) <= 708.0);
  BD__VD xc = BD__K(bd__vmin_)(BD__K(bd__vmax_)(x, -746.0), 710.0);
  BD__VD r, r2, q, c, h, tail;
  BD__VL n = BD__K(bd__expcore_)(xc, BD__K(bd__vspl_)(0.0), &r, &r2, &q, &c, &h,
                                 &tail);
#if !defined(__FMA__)
  BD__VD small = (h + tail) * BD__K(bd__vpow2_)(n);
  if (!__builtin_reduce_or(big))
    return small;
#endif
  /* Rare: overflow, underflow, subnormal results, inf, NaN. */
  BD__VL neg = (BD__VL)(n < 0);
  BD__VD scale =
      BD__K(bd__vpow2_)(n + ((neg & 1534) - 512)); /* n + 1022 or n - 512 */
  BD__VD sh = scale * h, st = scale * tail;
  BD__VD yh = sh + st;
  BD__VD yl = (sh - yh) + st;
  BD__VD hi = 1.0 + yh;
  BD__VD lo = ((1.0 - hi) + yh) + yl;
  BD__VD ysub = ((hi + lo) - 1.0) * 0x1p-1022;
  BD__VD yneg = BD__K(bd__vsel_)((BD__VL)(yh < 1.0), ysub, yh * 0x1p-1022);
  BD__VD y = BD__K(bd__vsel_)(neg, yneg, yh * 0x1p512);
  y = BD__K(bd__vsel_)(big, y, small);
  return BD__K(bd__vsel_)((BD__VL)(x != x), x + x, y);
}

/* NaN lanes stay on the fast path: its arithmetic carries x's NaN through
 * (quieted, as the general path's x + x), and a NaN lane is common in a
 * masked step's inactive lanes (the derivative exp(-x^2) of erfc where a
 * sqrt of a negative made x NaN), where the out-of-line call and the
 * spills around it cost the whole vector. */
BD_INL BD__VD BD__K(bd__exp_)(BD__VD x) {
#if defined(__FMA__)
  BD__VD y = BD__K(bd__expfma_)(x);
  if (__builtin_reduce_or((BD__VL)(__builtin_elementwise_abs(x) > 708.0)))
    y = BD__K(bd__expgen_)(x, y);
  return y;
#else
  return BD__K(bd__expgen_)(x);
#endif
}

/* expm1 = (2^n - 1) + 2^n (r + r2/2 + r2 r q + c): for |n| <= 52 the first
 * three terms are exact and summed by Fast2Sum (|2^n - 1| >= |2^n r| >=
 * 2^n r2/2, or 2^n - 1 = 0), the rest added last; n > 52: 2^n h + (2^n t - 1),
 * scaled in two steps for overflow; n < -52: 2^n (h + t) - 1 (-1 below x =
 * -38). */
BD_INL BD__VD BD__K(bd__expm1_)(BD__VD x) {
  BD__VD xc = BD__K(bd__vmin_)(BD__K(bd__vmax_)(x, -40.0), 710.0);
  BD__VD r, r2, q, c, h, t;
  BD__VL n =
      BD__K(bd__expcoreb_)(xc, BD__K(bd__vspl_)(0.0), &r, &r2, &q, &c, &h, &t);
  BD__VD s2n = BD__K(bd__vpow2_)(n);
  BD__VD a = s2n - 1.0, b = s2n * r;
  BD__VD s = a + b;
  BD__VD hr2 = s2n * r2 * 0.5; /* exact */
  BD__VD s2 = s + hr2;
  BD__VD e = ((a - s) + b) + ((s - s2) + hr2);
  BD__VD y = s2 + BD__FMA(s2n * r2 * r, q, e + s2n * c);
  BD__VD s1 = BD__K(bd__vpow2_)(n - 1);
  BD__VD ybig = (s1 * h + BD__FMA(s1, t, BD__K(bd__vspl_)(-0.5))) * 2.0;
  BD__VD ysmall = BD__FMA(s2n, h + t, BD__K(bd__vspl_)(-1.0));
  y = BD__K(bd__vsel_)((BD__VL)(n > 52), ybig, y);
  y = BD__K(bd__vsel_)((BD__VL)(n < -52), ysmall, y);
  /* expm1(-0) = -0; NaN. */
  return BD__K(bd__vsel_)((BD__VL)(x == 0.0) | (BD__VL)(x != x), x + x, y);
}

/* ---- double log, log1p ----
 * fdlibm's e_log.c / s_log1p.c (< 1 ULP): f = m - 1, s = f / (2 + f),
 * log(1 + f) = f - (hfsq - s (hfsq + R(s^2))), R of degree 7 in s^2. FMA
 * builds take log from vmath_log.h, and 64-byte ones log1p too. */
BD_INL BD__VD BD__K(bd__logkern_)(BD__VD f, BD__VD kd, BD__VD c) {
  BD__VD hfsq = 0.5 * f * f;
  BD__VD s = f / (2.0 + f);
  BD__VD z = s * s, w = z * z;
  BD__VD t1 =
      w * (3.999999999940941908e-01 +
           w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
  BD__VD t2 =
      z * (6.666666666666735130e-01 +
           w * (2.857142874366239149e-01 +
                w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
  BD__VD R = t2 + t1;
  return kd * 0x1.62e42feep-1 -
         ((hfsq - (s * (hfsq + R) + (kd * 0x1.a39ef35793c76p-33 + c))) - f);
}

BD_INL BD__VD BD__K(bd__log_)(BD__VD x) {
  BD__VL sub = (BD__VL)(x < 0x1p-1022);
  BD__VD xs = BD__K(bd__vsel_)(sub, x * 0x1p54, x);
  BD__VD kd;
  BD__VD m = BD__K(bd__vfrexp_)(xs, &kd);
  kd =
      kd - BD__K(bd__vsel_)(sub, BD__K(bd__vspl_)(54.0), BD__K(bd__vspl_)(0.0));
  BD__VD r = BD__K(bd__logkern_)(m - 1.0, kd, BD__K(bd__vspl_)(0.0));
  BD__VL special = ~((BD__VL)(x > 0.0) & (BD__VL)(x < __builtin_inf()));
  if (__builtin_reduce_or(special)) {
    BD__VD sr = BD__K(bd__vsel_)((BD__VL)(x < 0.0),
                                 BD__K(bd__vspl_)(__builtin_nan("")), x + x);
    sr = BD__K(bd__vsel_)((BD__VL)(x == 0.0),
                          BD__K(bd__vspl_)(-__builtin_inf()), sr);
    r = BD__K(bd__vsel_)(special, sr, r);
  }
  return r;
}

BD_INL BD__VD BD__K(bd__log1p_)(BD__VD x) {
  BD__VD u = 1.0 + x;
  BD__VD kd;
  BD__VD m = BD__K(bd__vfrexp_)(u, &kd);
  BD__VL k0 = (BD__VL)(kd == 0.0);
  BD__VD f = BD__K(bd__vsel_)(k0, x, m - 1.0);
  /* 1 + x = u + c exactly (u >= 2: c = 1 - (u - x), else x - (u - 1)). */
  BD__VD c = BD__K(bd__vsel_)((BD__VL)(u >= 2.0), 1.0 - (u - x), x - (u - 1.0));
  c = BD__K(bd__vsel_)(k0, BD__K(bd__vspl_)(0.0), c / u);
  BD__VD r = BD__K(bd__logkern_)(f, kd, c);
  BD__VL special = ~((BD__VL)(x > -1.0) & (BD__VL)(x < __builtin_inf())) |
                   (BD__VL)(x == 0.0);
  if (__builtin_reduce_or(special)) {
    BD__VD sr = BD__K(bd__vsel_)((BD__VL)(x < -1.0),
                                 BD__K(bd__vspl_)(__builtin_nan("")), x + x);
    sr = BD__K(bd__vsel_)((BD__VL)(x == -1.0),
                          BD__K(bd__vspl_)(-__builtin_inf()), sr);
    sr = BD__K(bd__vsel_)((BD__VL)(x == 0.0), x, sr);
    r = BD__K(bd__vsel_)(special, sr, r);
  }
  return r;
}

/* ---- sin, cos (double) ----
 * fdlibm: x = n pi/2 + y0 + y1 (__ieee754_rem_pio2's medium case: pi/2 to
 * 118 bits, or 151 where the result lost more than 49 bits; exact products
 * for |n| < 2^20), then __kernel_sin / __kernel_cos (FreeBSD, < 1 ULP) on the
 * double-double y0 + y1 and the quadrant n & 3. Lanes with |x| > 2^19 pi/2
 * (and inf, NaN) are recomputed with the scalar libm sin / cos. */
BD_INL BD__VL BD__K(bd__rempio2_)(BD__VD x, BD__VD *y0, BD__VD *y1) {
  BD__VD z = x * 6.36619772367581382433e-01 + 0x1.8p52;
  BD__VL n = (BD__VL)z;
  BD__VD fn = z - 0x1.8p52;
  BD__VD r = x - fn * 1.57079632673412561417e+00;
  BD__VD t = r;
  BD__VD w = fn * 6.07710050630396597660e-11;
  r = t - w;
  w = fn * 2.02226624879595063154e-21 - ((t - r) - w);
  BD__VD y = r - w;
  /* Third round where y lost more than 49 bits to cancellation (then the
   * second round's subtraction was exact). */
  BD__VL i =
      (BD__VL)(((BD__VU)x >> 52) & 0x7ff) - (BD__VL)(((BD__VU)y >> 52) & 0x7ff);
  BD__VL third = (BD__VL)(i > 49);
  t = r;
  BD__VD w3 = fn * 2.02226624871116645580e-21;
  BD__VD r3 = t - w3;
  w3 = fn * 8.47842766036889956997e-32 - ((t - r3) - w3);
  r = BD__K(bd__vsel_)(third, r3, r);
  w = BD__K(bd__vsel_)(third, w3, w);
  *y0 = r - w;
  *y1 = (r - *y0) - w;
  return n;
}

BD_INL BD__VD BD__K(bd__ksin_)(BD__VD x, BD__VD y) {
  BD__VD z = x * x, v = z * x;
  BD__VD r = 8.33333333332248946124e-03 +
             z * (-1.98412698298579493134e-04 +
                  z * (2.75573137070700676789e-06 +
                       z * (-2.50507602534068634195e-08 +
                            z * 1.58969099521155010221e-10)));
  return x - ((z * (0.5 * y - v * r) - y) - v * -1.66666666666666324348e-01);
}

BD_INL BD__VD BD__K(bd__kcos_)(BD__VD x, BD__VD y) {
  BD__VD z = x * x;
  BD__VD r = z * (4.16666666666666019037e-02 +
                  z * (-1.38888888888741095749e-03 +
                       z * (2.48015872894767294178e-05 +
                            z * (-2.75573143513906633035e-07 +
                                 z * (2.08757232129817482790e-09 +
                                      z * -1.13596475577881948265e-11)))));
  BD__VD hz = 0.5 * z, w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + (z * r - x * y));
}

/* sin (c = 0) or cos (c = 1) of x, |x| <= 2^19 pi/2; other lanes garbage. */
BD_INL BD__VD BD__K(bd__sincos_)(BD__VD x, int c) {
  BD__VD y0, y1;
  BD__VL n = BD__K(bd__rempio2_)(x, &y0, &y1) + c;
  BD__VD s = BD__K(bd__ksin_)(y0, y1), k = BD__K(bd__kcos_)(y0, y1);
  BD__VD v = BD__K(bd__vsel_)((BD__VL)((n & 1) != 0), k, s);
  return (BD__VD)((BD__VL)v ^ ((n & 2) << 62));
}

/* ---- erf, erfc for the float functions (2^-30 relative) ----
 * |x| < 0.9: erf = x E(x^2), E of degree 6 (2^-31.6); erfc = 1 - erf.
 * |x| >= 0.9: erfc(|x|) = exp(-x^2) t G(t), t = 1/|x|, G of degree 14 on
 * [1/10.1, 1/0.9] (2^-30.8), exp to 2^-28.8 (bd__fexpk_); |x| > 10.1 is
 * evaluated at 10.1 (erfcf(10.1) rounds to 0); erf = +-(1 - that),
 * erfc(x < 0) = 2 - that. x^2 is exact for float x. */
BD_INL BD__VD BD__K(bd__ferfsmall_)(BD__VD x) {
  BD__VD z = x * x;
  BD__VD e = BD__K(bd__vspl_)(0x1.65bfbfd4c0dc4p-14);
  e = BD__FMA(e, z, BD__K(bd__vspl_)(-0x1.acd92a2b0dce3p-11));
  e = BD__FMA(e, z, BD__K(bd__vspl_)(0x1.55106f735ce74p-8));
  e = BD__FMA(e, z, BD__K(bd__vspl_)(-0x1.b815cb34e912dp-6));
  e = BD__FMA(e, z, BD__K(bd__vspl_)(0x1.ce2e5c000be83p-4));
  e = BD__FMA(e, z, BD__K(bd__vspl_)(-0x1.81274432fa93cp-2));
  e = BD__FMA(e, z, BD__K(bd__vspl_)(0x1.20dd7502d8f1dp+0));
  return x * e;
}
BD_INL BD__VD BD__K(bd__ferfcbig_)(BD__VD ax) {
  BD__VD t = 1.0 / ax;
  BD__VD g = BD__K(bd__vspl_)(-0x1.576b668445fb1p-5);
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.be4c2cca6663ap-2));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(-0x1.0a53628fb7bf0p+1));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.821d9710a65edp+2));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(-0x1.7a6484297f5f3p+3));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.07325eebdc57dp+4));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(-0x1.07e99b3f0eb25p+4));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.766560c0a7fd0p+3));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(-0x1.58911959e01f4p+2));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.1aeebea74a129p+0));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.cc67e6b762224p-3));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.926184aa43fd4p-6));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(-0x1.22e7d88727f1cp-2));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.8e1917fa2f5bcp-14));
  g = BD__FMA(g, t, BD__K(bd__vspl_)(0x1.20dd31e060a7ep-1));
  return BD__K(bd__fexpk_)(-(ax * ax)) * (t * g);
}
BD_INL BD__VD BD__K(bd__ferfk_)(BD__VD x) {
  BD__VD ax = __builtin_elementwise_abs(x);
  BD__VD big = BD__K(bd__vmin_)(BD__K(bd__vmax_)(ax, 0.9), 10.1);
  BD__VD e = __builtin_elementwise_copysign(1.0 - BD__K(bd__ferfcbig_)(big), x);
  e = BD__K(bd__vsel_)((BD__VL)(ax < 0.9), BD__K(bd__ferfsmall_)(x), e);
  return BD__K(bd__vsel_)((BD__VL)(x != x), x + x, e);
}
BD_INL BD__VD BD__K(bd__ferfck_)(BD__VD x) {
  BD__VD ax = __builtin_elementwise_abs(x);
  BD__VD c =
      BD__K(bd__ferfcbig_)(BD__K(bd__vmin_)(BD__K(bd__vmax_)(ax, 0.9), 10.1));
  c = BD__K(bd__vsel_)((BD__VL)(x < 0.0), 2.0 - c, c);
  c = BD__K(bd__vsel_)((BD__VL)(ax < 0.9), 1.0 - BD__K(bd__ferfsmall_)(x), c);
  return BD__K(bd__vsel_)((BD__VL)(x != x), x + x, c);
}

/* ---- tanh for the float functions (2^-27.8 relative) ----
 * |x| < 0.35: x + x z T(z), z = x^2, T of degree 4 (2^-35.5);
 * else +-(1 - 2 / (exp(2|x|) + 1)) (cancellation at most 2x), |x| capped
 * at 10 (tanhf = 1 there). */
BD_INL BD__VD BD__K(bd__ftanhk_)(BD__VD x) {
  BD__VD ax = __builtin_elementwise_abs(x);
  BD__VD z = x * x;
  BD__VD p = BD__K(bd__vspl_)(-0x1.0113b3537cdfep-7);
  p = BD__FMA(p, z, BD__K(bd__vspl_)(0x1.6490cbdefaf21p-6));
  p = BD__FMA(p, z, BD__K(bd__vspl_)(-0x1.ba11f7863ccd3p-5));
  p = BD__FMA(p, z, BD__K(bd__vspl_)(0x1.111107a286799p-3));
  p = BD__FMA(p, z, BD__K(bd__vspl_)(-0x1.555555526020fp-2));
  BD__VD small = __builtin_elementwise_copysign(BD__FMA(x, z * p, x), x);
  BD__VD a = BD__K(bd__vmin_)(ax, 10.0);
  BD__VD e = BD__K(bd__fexpk_)(a + a);
  BD__VD big = __builtin_elementwise_copysign(1.0 - 2.0 / (e + 1.0), x);
  BD__VD r = BD__K(bd__vsel_)((BD__VL)(ax < 0.35), small, big);
  return BD__K(bd__vsel_)((BD__VL)(x != x), x + x, r);
}

#if defined(__FMA__)
/* tanh (double, FMA builds) = e / (e + 2), e = expm1(2|x|) kept as hi + lo
 * (the expm1 above before its last rounding); e + 2 by TwoSum, the quotient
 * corrected once with the exact residual fma(-q, d, hi): ~0.6 ULP. |x| is
 * capped at 20 (tanh = 1 beyond 19.1). */
BD_INL BD__VD BD__K(bd__tanh_)(BD__VD x) {
  BD__VD xc = BD__K(bd__vmin_)(__builtin_elementwise_abs(x), 20.0);
  xc = xc + xc;
  BD__VD r, r2, q, c, h, t;
  BD__VL n =
      BD__K(bd__expcoreb_)(xc, BD__K(bd__vspl_)(0.0), &r, &r2, &q, &c, &h, &t);
  BD__VD s2n = BD__K(bd__vpow2_)(n);
  BD__VD a = s2n - 1.0, b = s2n * r;
  BD__VD s = a + b;
  BD__VD hr2 = s2n * r2 * 0.5; /* exact */
  BD__VD s2 = s + hr2;
  BD__VD e = ((a - s) + b) + ((s - s2) + hr2);
  BD__VD in = BD__FMA(s2n * r2 * r, q, e + s2n * c);
  BD__VD hi = s2 + in;
  BD__VD lo = (s2 - hi) + in;
  BD__VD s1 = BD__K(bd__vpow2_)(n - 1);
  BD__VD ybig = (s1 * h + BD__FMA(s1, t, BD__K(bd__vspl_)(-0.5))) * 2.0;
  BD__VL big = (BD__VL)(n > 52);
  hi = BD__K(bd__vsel_)(big, ybig, hi);
  lo = BD__K(bd__vsel_)(big, BD__K(bd__vspl_)(0.0), lo);
  BD__VD dh = hi + 2.0;
  BD__VD bb = dh - hi;
  BD__VD dl = ((hi - (dh - bb)) + (2.0 - bb)) + lo;
  BD__VD q0 = hi / dh;
  BD__VD res = (BD__FMA(-q0, dh, hi) + lo) - q0 * dl;
  BD__VD y = __builtin_elementwise_copysign(q0 + res / dh, x);
  return BD__K(bd__vsel_)((BD__VL)(x != x), x + x, y);
}
#endif

#undef BD__K
