/* batchdiff inline vector math: double erf and erfc (FMA builds). No include
 * guard: included once by vmath_fast.h, after the double kernels of
 * vmath_fast_body.h (bd__*_dd). Branch-free: every lane takes its region's
 * coefficients by a table lookup (one permute; blends without AVX2), one
 * exp; polynomials by Estrin's scheme (short dependency chains).
 *
 * |x| < 1.25: fdlibm's s_erf.c rational approximations R = P/Q, one P/Q for
 * both regions (|x| < 0.84375: R(x^2) = erf(x)/x - 1, 2^-57.9; above:
 * R(|x| - 1) = erf(|x|) - erx, 2^-59.1): erf = x + x R, +-(erx + R);
 * erfc(x < 0.25) = 1 - (x + x R), erfc(x <= -0.84375) = 1 + (erx + R).
 *
 * erfc(a), a = |x| >= 0.25 (clamped to 27.5, where erfc is 0):
 * exp(-a^2) G(w), G a degree-19 polynomial fitted (Chebyshev, mpmath) to
 *   erfcx(a) = exp(a^2) erfc(a), w = a - 0.75     on [0.25, 1.25]
 *   erfcx(a),                    w = a - 2.0536   on [1.25, 2.857]
 *   a erfcx(a) (times 1/a),      w = 1/a^2 - 0.0619 on [2.857, 28]
 * (2^-56.7, 2^-56.8, 2^-59.8 relative with these double coefficients);
 * w is exact in the first two; the last two Horner steps, 1/a and the
 * product with exp(-a^2) (kept unrounded as 2^n (h + t), -a^2 split exactly
 * by FMA) are double-double, so the result is rounded once: 2^(n + 600),
 * then 2^-600 (one rounding for subnormal results).
 * erfc(x <= -1.25) = 2 - erfc(a); erf(|x| >= 1.25) = +-(1 - erfc(a)). */

/* Per-lane coefficients: region index r (0, 1, 2) as the 32-bit lane
 * indices 2r, 2r + 1 of each double (AVX2 vpermps); or the masks. */
typedef struct {
  bd_i64d ix, m2, m3;
} bd__erfreg;
BD_INL bd__erfreg bd__erfreg_dd(bd_i64d m2, bd_i64d m3) {
  bd__erfreg g = {((0 - m2) - m3) * 0x200000002LL + 0x100000000LL, m2, m3};
  return g;
}
BD_INL bd_f64d bd__tab3_dd(bd__erfreg g, double c1, double c2, double c3) {
#if BD_VBYTES == 32
  bd_f64d t = {c1, c2, c3, c3};
  return (bd_f64d)simde_mm256_permutevar8x32_ps((simde__m256)t,
                                                (simde__m256i)g.ix);
#else
  return bd__vsel_dd(g.m3, bd__vspl_dd(c3),
                     bd__vsel_dd(g.m2, bd__vspl_dd(c2), bd__vspl_dd(c1)));
#endif
}
/* Two regions: m all-ones selects c1 (AVX: vpermilpd on bit 1). */
BD_INL bd_f64d bd__tab2_dd(bd_i64d m, double c0, double c1) {
#if BD_VBYTES == 32
  bd_f64d t = {c0, c1, c0, c1};
  return (bd_f64d)simde_mm256_permutevar_pd((simde__m256d)t,
                                            (simde__m256i)(m & 2));
#else
  return bd__vsel_dd(m, bd__vspl_dd(c1), bd__vspl_dd(c0));
#endif
}

#define BD__EC0 0x1.d90093ae10928p-3, 0x1.42d3fa301c067p-5, 0x1.243a11d825505p-2
#define BD__EC1                                                                \
  -0x1.09e77d40e0239p-3, -0x1.d60e877bac7cdp-7, -0x1.0b70487f28c9bp-1
#define BD__EC2 0x1.1192f5bd68750p-4, 0x1.4600eb825b794p-8, 0x1.3e16374edb43dp+0
#define BD__EC3                                                                \
  -0x1.054d68295b22cp-5, -0x1.b103158f4ef30p-10, -0x1.c692c8c28129ap+1
#define BD__EC4                                                                \
  0x1.d43a7c7a6a933p-7, 0x1.1485431efeddcp-11, 0x1.750e290693d6cp+3
#define BD__EC5                                                                \
  -0x1.8c97dd4ea6fc0p-8, -0x1.54c187ee8abcfp-13, -0x1.559630616175ep+5
#define BD__EC6                                                                \
  0x1.3f81897b1847fp-9, 0x1.964e44d4e39fep-15, 0x1.560fad7395fdbp+7
#define BD__EC7                                                                \
  -0x1.ec0cf4e13d820p-11, -0x1.d5e5b4c2947f9p-17, -0x1.7137e72c8d684p+9
#define BD__EC8                                                                \
  0x1.6b982cf56f377p-12, 0x1.0818cc9140d17p-18, 0x1.a903b6ad45a99p+11
#define BD__EC9                                                                \
  -0x1.02b160b53f004p-13, -0x1.210d26abb81d4p-20, -0x1.028e8eb70446ap+14
#define BD__EC10                                                               \
  0x1.6371f8254f0f3p-15, 0x1.34855c0ac4775p-22, 0x1.4813f69ee6b09p+16
#define BD__EC11                                                               \
  -0x1.d8bab95a440f1p-17, -0x1.419a1ec89e33cp-24, -0x1.b4c9c0f5dc502p+18
#define BD__EC12                                                               \
  0x1.30f773e2f0c79p-18, 0x1.48084376ddcb7p-26, 0x1.490b015852edap+21
#define BD__EC13                                                               \
  -0x1.7e5239f400281p-20, -0x1.4745cc3be4283p-28, -0x1.dfa4fec791ccfp+23
#define BD__EC14                                                               \
  0x1.d03d2d827a577p-22, 0x1.3b066a2f1ec7fp-30, 0x1.4dec210e90305p+25
#define BD__EC15                                                               \
  -0x1.143e243ed5ab7p-23, -0x1.2e66f8a863edcp-32, -0x1.bc8c397ea9b4fp+27
#define BD__EC16                                                               \
  0x1.6396de6060db3p-25, 0x1.5658c99fc3c36p-34, 0x1.ceb11503ba1a4p+32
#define BD__EC17                                                               \
  -0x1.91d2022ae2bbdp-27, -0x1.3ac4f4606283bp-36, -0x1.8311a948c69ffp+35

/* erfc(a) for a >= 0.25 (a = |x|; smaller a, NaN: a finite garbage value). */
BD_INL bd_f64d bd__erfcpos_dd(bd_f64d ax) {
  bd_f64d a = bd__vmin_dd(bd__vmax_dd(ax, 0.25), 27.5);
  bd__erfreg rg =
      bd__erfreg_dd((bd_i64d)(a >= 1.25), (bd_i64d)(a >= 0x1.6db6dp+1));
  /* 1/a = t0 + tl */
  bd_f64d t0 = 1.0 / a;
  bd_f64d tl = BD__FMA(-t0, a, bd__vspl_dd(1.0)) * t0;
  bd_f64d w = bd__vsel_dd(rg.m3, t0 * t0, a) -
              bd__tab3_dd(rg, 0x1.8000000000000p-1, 0x1.06dc5d6388659p+1,
                          0x1.fb08e01aafa86p-5);
#define BD__G3(k) bd__tab3_dd(rg, BD__EC##k)
  bd_f64d w2 = w * w, w4 = w2 * w2, w8 = w4 * w4;
  bd_f64d e0 = BD__FMA(BD__G3(1), w, BD__G3(0)),
          e1 = BD__FMA(BD__G3(3), w, BD__G3(2)),
          e2 = BD__FMA(BD__G3(5), w, BD__G3(4));
  bd_f64d e3 = BD__FMA(BD__G3(7), w, BD__G3(6)),
          e4 = BD__FMA(BD__G3(9), w, BD__G3(8)),
          e5 = BD__FMA(BD__G3(11), w, BD__G3(10));
  bd_f64d e6 = BD__FMA(BD__G3(13), w, BD__G3(12)),
          e7 = BD__FMA(BD__G3(15), w, BD__G3(14)),
          e8 = BD__FMA(BD__G3(17), w, BD__G3(16));
  bd_f64d f0 = BD__FMA(e1, w2, e0), f1 = BD__FMA(e3, w2, e2);
  bd_f64d f2 = BD__FMA(e5, w2, e4), f3 = BD__FMA(e7, w2, e6);
  bd_f64d g0 = BD__FMA(f1, w4, f0), g1 = BD__FMA(f3, w4, f2);
  bd_f64d g = BD__FMA(e8, w8 * w8, BD__FMA(g1, w8, g0));
  bd_f64d c1h = bd__tab3_dd(rg, -0x1.78cdd551ee51ap-2, -0x1.a39d8f63f43bap-4,
                            -0x1.e9f6429b67775p-3);
  bd_f64d c1l = bd__tab3_dd(rg, 0x1.20c03db2b0ea5p-56, -0x1.e5baa91c4fee9p-59,
                            -0x1.86e6ed9269825p-59);
  bd_f64d c0h = bd__tab3_dd(rg, 0x1.038d54ea3d834p-1, 0x1.ff9173c6ef746p-3,
                            0x1.18a62a12579ffp-1);
  bd_f64d c0l = bd__tab3_dd(rg, -0x1.ec2f17ab340ecp-55, 0x1.aaa0cc6b79baep-57,
                            0x1.16f45c50c1949p-61);
#undef BD__G3
  /* S = c1 + w g, G = c0 + w S, double-double (|c1| > |w g|, |c0| > |w S|) */
  bd_f64d ph = w * g, pl = BD__FMA(w, g, -ph);
  bd_f64d sh = c1h + ph;
  bd_f64d sl = ((c1h - sh) + ph) + (pl + c1l);
  ph = w * sh;
  pl = BD__FMA(w, sh, -ph) + w * sl;
  bd_f64d gh = c0h + ph;
  bd_f64d gl = ((c0h - gh) + ph) + (pl + c0l);
  /* Region 3: times 1/a. */
  bd_f64d th = bd__vsel_dd(rg.m3, t0, bd__vspl_dd(1.0));
  bd_f64d tt = bd__vsel_dd(rg.m3, tl, bd__vspl_dd(0.0));
  bd_f64d hh = gh * th;
  bd_f64d hl = BD__FMA(gh, th, -hh) + (gh * tt + gl * th);
  /* exp(-a^2) = 2^n (h + t) */
  bd_f64d xh = a * a, xl = BD__FMA(a, a, -xh);
  bd_f64d r, r2, q, c, h, t;
  bd_i64d n = bd__expcore_dd(-xh, -xl, &r, &r2, &q, &c, &h, &t);
  bd_f64d yh = h * hh;
  bd_f64d y = yh + (BD__FMA(h, hh, -yh) + (h * hl + t * hh));
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
#undef BD__EC16
#undef BD__EC17

/* R = P/Q of fdlibm for |x| < 1.25 (m1: |x| >= 0.84375); other lanes
 * garbage. */
BD_INL bd_f64d bd__erfrat_dd(bd_f64d x, bd_f64d ax, bd_i64d m1) {
  bd_f64d w = bd__vsel_dd(m1, ax - 1.0, x * x);
  bd_f64d w2 = w * w, w4 = w2 * w2;
#define BD__C2(c0, c1) bd__tab2_dd(m1, c0, c1)
  /* P = p0 + w P', Q = 1 + w Q': one rounding at the end of each. */
  bd_f64d p12 = BD__FMA(
      BD__C2(-2.84817495755985104766e-02, -3.72207876035701323847e-01), w,
      BD__C2(-3.25042107247001499370e-01, 4.14856118683748331666e-01));
  bd_f64d p34 = BD__FMA(
      BD__C2(-2.37630166566501626084e-05, -1.10894694282396677476e-01), w,
      BD__C2(-5.77027029648944159157e-03, 3.18346619901161753674e-01));
  bd_f64d p56 = BD__FMA(BD__C2(0.0, -2.16637559486879084300e-03), w,
                        BD__C2(0.0, 3.54783043256182359371e-02));
  bd_f64d p = BD__FMA(p56, w4, BD__FMA(p34, w2, p12));
  p = BD__FMA(p, w,
              BD__C2(1.28379167095512558561e-01, -2.36211856075265944077e-03));
  bd_f64d q12 =
      BD__FMA(BD__C2(6.50222499887672944485e-02, 5.40397917702171048937e-01), w,
              BD__C2(3.97917223959155352819e-01, 1.06420880400844228286e-01));
  bd_f64d q34 =
      BD__FMA(BD__C2(1.32494738004321644526e-04, 1.26171219808761642112e-01), w,
              BD__C2(5.08130628187576562776e-03, 7.18286544141962662868e-02));
  bd_f64d q56 =
      BD__FMA(BD__C2(0.0, 1.19844998467991074170e-02), w,
              BD__C2(-3.96022827877536812320e-06, 1.36370839120290507362e-02));
  bd_f64d q = BD__FMA(q56, w4, BD__FMA(q34, w2, q12));
  q = BD__FMA(q, w, bd__vspl_dd(1.0));
#undef BD__C2
  return p / q;
}

BD_INL bd_f64d bd__erf_dd(bd_f64d x) {
  bd_f64d ax = __builtin_elementwise_abs(x);
  bd_i64d m1 = (bd_i64d)(ax >= 0.84375), m2 = (bd_i64d)(ax >= 1.25);
  bd_f64d rr = bd__erfrat_dd(x, ax, m1);
  bd_f64d e = bd__erfcpos_dd(ax);
  /* x + x R, scaled by 8 so that a subnormal x rounds once, at the end. */
  bd_f64d x8 = x * 8.0;
  bd_f64d y0 = BD__FMA(x8, rr, x8) * 0.125;
  bd_f64d y = bd__vsel_dd(m2, 1.0 - e, 8.45062911510467529297e-01 + rr);
  y = bd__vsel_dd(m1, __builtin_elementwise_copysign(y, x), y0);
  return bd__vsel_dd((bd_i64d)(x != x), x + x, y);
}

BD_INL bd_f64d bd__erfc_dd(bd_f64d x) {
  bd_f64d ax = __builtin_elementwise_abs(x);
  bd_i64d m1 = (bd_i64d)(ax >= 0.84375);
  bd_f64d rr = bd__erfrat_dd(x, ax, m1);
  bd_f64d e = bd__erfcpos_dd(ax);
  bd_f64d y0 = 1.0 - BD__FMA(x, rr, x);
  bd_f64d y1 = 1.0 + (8.45062911510467529297e-01 + rr);
  bd_f64d y = bd__vsel_dd((bd_i64d)(x <= -1.25), 2.0 - e, e);
  y = bd__vsel_dd((bd_i64d)(x > -1.25) & (bd_i64d)(x < -0.84375), y1, y);
  y = bd__vsel_dd((bd_i64d)(x >= -0.84375) & (bd_i64d)(x < 0.25), y0, y);
  return bd__vsel_dd((bd_i64d)(x != x), x + x, y);
}
