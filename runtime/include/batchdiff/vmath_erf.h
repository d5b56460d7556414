/* batchdiff inline vector math: double erf and erfc (FMA builds). No include
 * guard: included once by vmath_fast.h, after the double kernels of
 * vmath_fast_body.h (bd__*_dd). Branch-free, one exp, no table in memory
 * beyond the coefficients: each lane takes its region's coefficients by one
 * permute (AVX2 / AVX-512 vpermps; blends otherwise); Estrin's scheme keeps the
 * dependency chains short. Errors: docs/runtime.md.
 *
 * erfc(a), a = |x| (clamped to 27.5, where erfc is 0) = exp(-a^2) G(w), G a
 * degree-17 polynomial fitted (Chebyshev, mpmath) to
 *   erfcx(a) = exp(a^2) erfc(a), w = a - 0.375    on [0, 0.75]
 *   erfcx(a),                    w = a - 1.175    on [0.75, 1.6]
 *   erfcx(a),                    w = a - 2.2286   on [1.6, 2.857]
 *   a erfcx(a) (then times 1/a), w = 1/a^2 - 0.0619 on [2.857, 28]
 * (2^-58.5, 2^-58.7, 2^-57.4, 2^-55.5 relative with these double
 * coefficients). w is exact or carries its rounding error wl (first
 * region, by TwoSum; G(w + wl) = G(w) + wl G'(w)); the last two Horner steps,
 * 1/a and the product with exp(-a^2) (kept unrounded as 2^n (h + t), -a^2
 * split exactly by FMA) are double-double, so the result is rounded once:
 * times 2^(n + 600), then 2^-600 (one rounding for subnormal results).
 * erfc(x < 0) = 2 - erfc(a).
 * erf: |x| < 0.625: x + x R(x^2), R = erf(x)/x - 1 of degree 10 (2^-56.3
 * relative to erf(x)/x), scaled by 8 so that a subnormal x rounds once;
 * else +-(1 - erfc(a)). */

/* Region r of each lane (0..3, from the masks m1..m3) as the 32-bit lane
 * indices 2r, 2r + 1 of its double. */
typedef struct {
  bd_i64d ix, m1, m2, m3;
} bd__erfreg;
BD_INL bd__erfreg bd__erfreg_dd(bd_i64d m1, bd_i64d m2, bd_i64d m3) {
  bd__erfreg g = {(((0 - m1) - m2) - m3) * 0x200000002LL + 0x100000000LL, m1,
                  m2, m3};
  return g;
}
BD_INL bd_f64d bd__tab4_dd(bd__erfreg g, double c0, double c1, double c2,
                           double c3) {
#if BD_VBYTES == 64
  bd_f64d t = {c0, c1, c2, c3, 0, 0, 0, 0};
  return (bd_f64d)_mm512_permutexvar_ps((__m512i)g.ix, (__m512)t);
#elif BD_VBYTES == 32
  bd_f64d t = {c0, c1, c2, c3};
  return (bd_f64d)simde_mm256_permutevar8x32_ps((simde__m256)t,
                                                (simde__m256i)g.ix);
#else
  bd_f64d c = bd__vsel_dd(g.m1, bd__vspl_dd(c1), bd__vspl_dd(c0));
  c = bd__vsel_dd(g.m2, bd__vspl_dd(c2), c);
  return bd__vsel_dd(g.m3, bd__vspl_dd(c3), c);
#endif
}

#define BD__EC0                                                                \
  0x1.d28c0e1177cd4p-2, 0x1.e6ec3c176a81bp-4, 0x1.0bf3c7cebb176p-5,            \
      0x1.243a11d823f5ep-2
#define BD__EC1                                                                \
  -0x1.2e82dbf846fecp-2, -0x1.d5ed1b8f581c0p-5, -0x1.72d72a6a3f6f4p-7,         \
      -0x1.0b70487f24448p-1
#define BD__EC2                                                                \
  0x1.611afb945d478p-3, 0x1.a5aeab0000bf6p-6, 0x1.eab5393750f3bp-9,            \
      0x1.3e163758849d4p+0
#define BD__EC3                                                                \
  -0x1.7a16147a55b2fp-4, -0x1.638024f4b5533p-7, -0x1.37d0f6967d1acp-10,        \
      -0x1.c692c8e2caa09p+1
#define BD__EC4                                                                \
  0x1.78491fa71edb7p-5, 0x1.1bc482c8cafd8p-8, 0x1.7e00b63f6f374p-12,           \
      0x1.750e1bc361846p+3
#define BD__EC5                                                                \
  -0x1.5f77477a3113cp-6, -0x1.af836a54c334ep-10, -0x1.c47edfdc3e7b1p-14,       \
      -0x1.55961a36b7149p+5
#define BD__EC6                                                                \
  0x1.3662c25109610p-7, 0x1.3a056a596207bp-11, 0x1.03ca2acf1cdd1p-15,          \
      0x1.56143b9d487adp+7
#define BD__EC7                                                                \
  -0x1.04aee64f91a11p-8, -0x1.b7283cfed863cp-13, -0x1.21cc8a7b25541p-17,       \
      -0x1.713f84beaa7c6p+9
#define BD__EC8                                                                \
  0x1.a269809a744a2p-10, 0x1.2807a5cfb4f8fp-14, 0x1.3aa653a84102bp-19,         \
      0x1.a822e371cd075p+11
#define BD__EC9                                                                \
  -0x1.421e86f3e6750p-11, -0x1.81cd8b9d8f702p-16, -0x1.4d10e21cc9712p-21,      \
      -0x1.01d296e470b8bp+14
#define BD__EC10                                                               \
  0x1.dd5e733f9806dp-13, 0x1.e73724a621ccap-18, 0x1.5841ca2e7af09p-23,         \
      0x1.54ccf6ac67d3fp+16
#define BD__EC11                                                               \
  -0x1.5562840d213f1p-14, -0x1.2ab3467fab131p-19, -0x1.5bcfa67cf72a8p-25,      \
      -0x1.ca10d76cb2cc4p+18
#define BD__EC12                                                               \
  0x1.d78382ff48da9p-16, 0x1.639e36e2b4c4dp-21, 0x1.56681e3b836cap-27,         \
      0x1.bb5b0f93c2ac1p+20
#define BD__EC13                                                               \
  -0x1.3c5d475d0f8abp-17, -0x1.9d4aa144ddeb5p-23, -0x1.4bd558b1acc31p-29,      \
      -0x1.2c0e7336a84efp+23
#define BD__EC14                                                               \
  0x1.b76b88db96eb2p-19, 0x1.f2d98387fbf81p-25, 0x1.5c3356dd86d16p-31,         \
      0x1.47ad89a58f37ap+27
#define BD__EC15                                                               \
  -0x1.15ba315731882p-20, -0x1.13826179529b8p-26, -0x1.43a20f7fd93f2p-33,      \
      -0x1.03d43ded50bfep+30

/* erfc(a) for a = |x| >= 0 (NaN: a finite garbage value). */
BD_INL bd_f64d bd__erfcpos_dd(bd_f64d ax) {
  bd_f64d a = bd__vmin_dd(ax, 27.5);
  bd__erfreg rg = bd__erfreg_dd((bd_i64d)(a >= 0.75), (bd_i64d)(a >= 1.6),
                                (bd_i64d)(a >= 0x1.6db6dp+1));
  /* 1/a = t0 + tl */
  bd_f64d t0 = 1.0 / a;
  bd_f64d tl = BD__FMA(-t0, a, bd__vspl_dd(1.0)) * t0;
  bd_f64d v = bd__vsel_dd(rg.m3, t0 * t0, a);
  bd_f64d cw = bd__tab4_dd(rg, 0x1.8000000000000p-2, 0x1.2cccccccccccdp+0,
                           0x1.1d42c3c9eecc0p+1, 0x1.fb08e01aafa86p-5);
  /* w + wl = v - cw exactly (TwoSum) */
  bd_f64d w = v - cw;
  bd_f64d bb = w - v;
  bd_f64d wl = (v - (w - bb)) - (cw + bb);
#define BD__G(k) bd__tab4_dd(rg, BD__EC##k)
  bd_f64d w2 = w * w, w4 = w2 * w2, w8 = w4 * w4;
  bd_f64d e0 = BD__FMA(BD__G(1), w, BD__G(0)),
          e1 = BD__FMA(BD__G(3), w, BD__G(2));
  bd_f64d e2 = BD__FMA(BD__G(5), w, BD__G(4)),
          e3 = BD__FMA(BD__G(7), w, BD__G(6));
  bd_f64d e4 = BD__FMA(BD__G(9), w, BD__G(8)),
          e5 = BD__FMA(BD__G(11), w, BD__G(10));
  bd_f64d e6 = BD__FMA(BD__G(13), w, BD__G(12)),
          e7 = BD__FMA(BD__G(15), w, BD__G(14));
#undef BD__G
  bd_f64d f0 = BD__FMA(e1, w2, e0), f1 = BD__FMA(e3, w2, e2);
  bd_f64d f2 = BD__FMA(e5, w2, e4), f3 = BD__FMA(e7, w2, e6);
  bd_f64d g = BD__FMA(BD__FMA(f3, w4, f2), w8, BD__FMA(f1, w4, f0));
  bd_f64d c1h = bd__tab4_dd(rg, -0x1.3a5c679d7bb59p-1, -0x1.ce4a1a704f9d2p-3,
                            -0x1.701c9f2ca306ep-4, -0x1.e9f6429b67777p-3);
  bd_f64d c1l = bd__tab4_dd(rg, -0x1.8adda23fb9833p-56, 0x1.51dbaca371455p-59,
                            -0x1.7d861018e651ap-59, 0x1.ed391f05c994dp-58);
  bd_f64d c0h = bd__tab4_dd(rg, 0x1.5f28ade3ca4acp-1, 0x1.895364f4a2fffp-2,
                            0x1.dd2cd01194de8p-3, 0x1.18a62a12579ffp-1);
  bd_f64d c0l = bd__tab4_dd(rg, -0x1.27e6d912fb2c2p-57, 0x1.b968293859990p-58,
                            0x1.0bf174923d0c5p-57, 0x1.10877b73b6df7p-57);
  /* S = c1 + w g, G = c0 + w S (+ wl S), double-double (|c1| > |w g|,
   * |c0| > |w S|) */
  bd_f64d ph = w * g, pl = BD__FMA(w, g, -ph);
  bd_f64d sh = c1h + ph;
  bd_f64d sl = ((c1h - sh) + ph) + (pl + c1l);
  ph = w * sh;
  pl = BD__FMA(w, sh, -ph) + BD__FMA(w, sl, wl * sh);
  bd_f64d gh = c0h + ph;
  bd_f64d gl = ((c0h - gh) + ph) + (pl + c0l);
  /* Last region: times 1/a. */
  bd_f64d th = bd__vsel_dd(rg.m3, t0, bd__vspl_dd(1.0));
  bd_f64d tt = bd__vsel_dd(rg.m3, tl, bd__vspl_dd(0.0));
  bd_f64d hh = gh * th;
  bd_f64d hl = BD__FMA(gh, th, -hh) + BD__FMA(gh, tt, gl * th);
  /* exp(-a^2) = 2^n (h + t) */
  bd_f64d xh = a * a, xl = BD__FMA(a, a, -xh);
  bd_f64d r, r2, q, c, h, t;
  bd_i64d n = bd__expcore_dd(-xh, -xl, &r, &r2, &q, &c, &h, &t);
  bd_f64d yh = h * hh;
  bd_f64d y = yh + (BD__FMA(h, hh, -yh) + BD__FMA(h, hl, t * hh));
  return y * bd__vpow2_dd(n + 600) * 0x1p-600;
}

#undef BD__EC0
#undef BD__EC1
#undef BD__EC2
#undef BD__EC3
#undef BD__EC4
#undef BD__EC5
#undef BD__EC6
#undef BD__EC7
#undef BD__EC8
#undef BD__EC9
#undef BD__EC10
#undef BD__EC11
#undef BD__EC12
#undef BD__EC13
#undef BD__EC14
#undef BD__EC15

BD_INL bd_f64d bd__erf_dd(bd_f64d x) {
  bd_f64d ax = __builtin_elementwise_abs(x);
  bd_f64d z = x * x, z2 = z * z, z4 = z2 * z2;
  bd_f64d s01 = BD__FMA(bd__vspl_dd(-0x1.812746b0379e7p-2), z,
                        bd__vspl_dd(0x1.06eba8214db69p-3));
  bd_f64d s23 = BD__FMA(bd__vspl_dd(-0x1.b82ce31285d61p-6), z,
                        bd__vspl_dd(0x1.ce2f21a042b98p-4));
  bd_f64d s45 = BD__FMA(bd__vspl_dd(-0x1.c02db3a80bc53p-11), z,
                        bd__vspl_dd(0x1.565bcd0d7eb2cp-8));
  bd_f64d s67 = BD__FMA(bd__vspl_dd(-0x1.f4cf4327a57ccp-17), z,
                        bd__vspl_dd(0x1.f9a3125dd40a6p-14));
  bd_f64d s810 = BD__FMA(BD__FMA(bd__vspl_dd(0x1.aa0201134f701p-27), z,
                                 bd__vspl_dd(-0x1.5acd80f5c2a98p-23)),
                         z, bd__vspl_dd(0x1.b999f571297afp-20));
  bd_f64d rs = BD__FMA(BD__FMA(s810, z2, s67), z4 * z2,
                       BD__FMA(BD__FMA(s45, z2, s23), z2, s01));
  bd_f64d x8 = x * 8.0;
  bd_f64d y0 = BD__FMA(x8, rs, x8) * 0.125;
  bd_f64d y = __builtin_elementwise_copysign(1.0 - bd__erfcpos_dd(ax), x);
  y = bd__vsel_dd((bd_i64d)(ax < 0.625), y0, y);
  return bd__vsel_dd((bd_i64d)(x != x), x + x, y);
}

BD_INL bd_f64d bd__erfc_dd(bd_f64d x) {
  bd_f64d e = bd__erfcpos_dd(__builtin_elementwise_abs(x));
  bd_f64d y = bd__vsel_dd((bd_i64d)(x < 0.0), 2.0 - e, e);
  return bd__vsel_dd((bd_i64d)(x != x), x + x, y);
}
