/* batchdiff inline vector math: double erf and erfc (FMA builds). No include
 * guard: included once by vmath_fast.h, after the double kernels of
 * vmath_fast_body.h (bd__*_dd). Branch-free: every lane takes its region's
 * coefficients by blends, one exp.
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

BD_INL bd_f64d bd__sel2_dd(bd_i64d m, double c0, double c1) {
  return bd__vsel_dd(m, bd__vspl_dd(c1), bd__vspl_dd(c0));
}
BD_INL bd_f64d bd__sel3_dd(bd_i64d m2, bd_i64d m3, double c1, double c2,
                           double c3) {
  return bd__vsel_dd(m3, bd__vspl_dd(c3),
                     bd__vsel_dd(m2, bd__vspl_dd(c2), bd__vspl_dd(c1)));
}

/* erfc(a) for a >= 0.25 (a = |x|; smaller a, NaN: a finite garbage value). */
BD_INL bd_f64d bd__erfcpos_dd(bd_f64d ax) {
  bd_f64d a = bd__vmin_dd(bd__vmax_dd(ax, 0.25), 27.5);
  bd_i64d m2 = (bd_i64d)(a >= 1.25), m3 = (bd_i64d)(a >= 0x1.6db6dp+1);
  /* 1/a = t0 + tl */
  bd_f64d t0 = 1.0 / a;
  bd_f64d tl = BD__FMA(-t0, a, bd__vspl_dd(1.0)) * t0;
  bd_f64d w = bd__vsel_dd(m3, t0 * t0, a) -
              bd__sel3_dd(m2, m3, 0x1.8000000000000p-1, 0x1.06dc5d6388659p+1,
                          0x1.fb08e01aafa86p-5);
#define BD__G3(c1, c2, c3) bd__sel3_dd(m2, m3, c1, c2, c3)
  bd_f64d c1h, c1l, c0h, c0l;
  bd_f64d g = BD__G3(-0x1.91d2022ae2bbdp-27, -0x1.3ac4f4606283bp-36,
                     -0x1.8311a948c69ffp+35);
  g = BD__FMA(g, w,
              BD__G3(0x1.6396de6060db3p-25, 0x1.5658c99fc3c36p-34,
                     0x1.ceb11503ba1a4p+32));
  g = BD__FMA(g, w,
              BD__G3(-0x1.143e243ed5ab7p-23, -0x1.2e66f8a863edcp-32,
                     -0x1.bc8c397ea9b4fp+27));
  g = BD__FMA(g, w,
              BD__G3(0x1.d03d2d827a577p-22, 0x1.3b066a2f1ec7fp-30,
                     0x1.4dec210e90305p+25));
  g = BD__FMA(g, w,
              BD__G3(-0x1.7e5239f400281p-20, -0x1.4745cc3be4283p-28,
                     -0x1.dfa4fec791ccfp+23));
  g = BD__FMA(g, w,
              BD__G3(0x1.30f773e2f0c79p-18, 0x1.48084376ddcb7p-26,
                     0x1.490b015852edap+21));
  g = BD__FMA(g, w,
              BD__G3(-0x1.d8bab95a440f1p-17, -0x1.419a1ec89e33cp-24,
                     -0x1.b4c9c0f5dc502p+18));
  g = BD__FMA(g, w,
              BD__G3(0x1.6371f8254f0f3p-15, 0x1.34855c0ac4775p-22,
                     0x1.4813f69ee6b09p+16));
  g = BD__FMA(g, w,
              BD__G3(-0x1.02b160b53f004p-13, -0x1.210d26abb81d4p-20,
                     -0x1.028e8eb70446ap+14));
  g = BD__FMA(g, w,
              BD__G3(0x1.6b982cf56f377p-12, 0x1.0818cc9140d17p-18,
                     0x1.a903b6ad45a99p+11));
  g = BD__FMA(g, w,
              BD__G3(-0x1.ec0cf4e13d820p-11, -0x1.d5e5b4c2947f9p-17,
                     -0x1.7137e72c8d684p+9));
  g = BD__FMA(g, w,
              BD__G3(0x1.3f81897b1847fp-9, 0x1.964e44d4e39fep-15,
                     0x1.560fad7395fdbp+7));
  g = BD__FMA(g, w,
              BD__G3(-0x1.8c97dd4ea6fc0p-8, -0x1.54c187ee8abcfp-13,
                     -0x1.559630616175ep+5));
  g = BD__FMA(g, w,
              BD__G3(0x1.d43a7c7a6a933p-7, 0x1.1485431efeddcp-11,
                     0x1.750e290693d6cp+3));
  g = BD__FMA(g, w,
              BD__G3(-0x1.054d68295b22cp-5, -0x1.b103158f4ef30p-10,
                     -0x1.c692c8c28129ap+1));
  g = BD__FMA(
      g, w,
      BD__G3(0x1.1192f5bd68750p-4, 0x1.4600eb825b794p-8, 0x1.3e16374edb43dp+0));
  g = BD__FMA(g, w,
              BD__G3(-0x1.09e77d40e0239p-3, -0x1.d60e877bac7cdp-7,
                     -0x1.0b70487f28c9bp-1));
  g = BD__FMA(
      g, w,
      BD__G3(0x1.d90093ae10928p-3, 0x1.42d3fa301c067p-5, 0x1.243a11d825505p-2));
  c1h = BD__G3(-0x1.78cdd551ee51ap-2, -0x1.a39d8f63f43bap-4,
               -0x1.e9f6429b67775p-3);
  c1l = BD__G3(0x1.20c03db2b0ea5p-56, -0x1.e5baa91c4fee9p-59,
               -0x1.86e6ed9269825p-59);
  c0h =
      BD__G3(0x1.038d54ea3d834p-1, 0x1.ff9173c6ef746p-3, 0x1.18a62a12579ffp-1);
  c0l = BD__G3(-0x1.ec2f17ab340ecp-55, 0x1.aaa0cc6b79baep-57,
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
  bd_f64d th = bd__vsel_dd(m3, t0, bd__vspl_dd(1.0));
  bd_f64d tt = bd__vsel_dd(m3, tl, bd__vspl_dd(0.0));
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

/* R = P/Q of fdlibm for |x| < 1.25 (m1: |x| >= 0.84375); other lanes
 * garbage. */
BD_INL bd_f64d bd__erfrat_dd(bd_f64d x, bd_f64d ax, bd_i64d m1) {
  bd_f64d w = bd__vsel_dd(m1, ax - 1.0, x * x);
#define BD__C2(c0, c1) bd__sel2_dd(m1, c0, c1)
  bd_f64d p = BD__C2(0.0, -2.16637559486879084300e-03);
  p = BD__FMA(p, w, BD__C2(0.0, 3.54783043256182359371e-02));
  p = BD__FMA(p, w,
              BD__C2(-2.37630166566501626084e-05, -1.10894694282396677476e-01));
  p = BD__FMA(p, w,
              BD__C2(-5.77027029648944159157e-03, 3.18346619901161753674e-01));
  p = BD__FMA(p, w,
              BD__C2(-2.84817495755985104766e-02, -3.72207876035701323847e-01));
  p = BD__FMA(p, w,
              BD__C2(-3.25042107247001499370e-01, 4.14856118683748331666e-01));
  p = BD__FMA(p, w,
              BD__C2(1.28379167095512558561e-01, -2.36211856075265944077e-03));
  bd_f64d q = BD__C2(0.0, 1.19844998467991074170e-02);
  q = BD__FMA(q, w,
              BD__C2(-3.96022827877536812320e-06, 1.36370839120290507362e-02));
  q = BD__FMA(q, w,
              BD__C2(1.32494738004321644526e-04, 1.26171219808761642112e-01));
  q = BD__FMA(q, w,
              BD__C2(5.08130628187576562776e-03, 7.18286544141962662868e-02));
  q = BD__FMA(q, w,
              BD__C2(6.50222499887672944485e-02, 5.40397917702171048937e-01));
  q = BD__FMA(q, w,
              BD__C2(3.97917223959155352819e-01, 1.06420880400844228286e-01));
#undef BD__C2
  q = BD__FMA(q, w, bd__vspl_dd(1.0));
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
