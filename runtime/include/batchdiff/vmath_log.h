/* batchdiff inline vector math: double log (FMA builds). No include guard:
 * included once by vmath_fast.h, after vmath_erf.h (bd__row3_dd, BD__SPLAT).
 * Errors: docs/runtime.md.
 *
 * x = 2^k z, z in [0.6875, 1.375); the top 7 bits of z's offset from 0.6875
 * pick bin i of bd_rt_log_tab (libbatchdiff_rt, gen_vmath_tables.c): ic, an
 * 8-bit approximation of 1/c (c the bin's centre; ic = 1 for the two bins
 * around 1, so log(x) near 1 does not cancel), and -log(ic) = lh + ll with
 * lh a multiple of 2^-42. Then r = z ic - 1 is exact (one FMA: z ic - 1 is
 * a multiple of ulp(z) ulp(ic) below 2^53 times that; |r| <= 2^-7) and
 *   log(x) = k ln2hi + lh + r + (k ln2lo + ll) + r^2 P(r),
 * P of degree 6 (2^-58.7 absolute). k ln2hi + lh is exact (ln2hi has 42
 * bits, |k| <= 1075); adding r by Fast2Sum (|lh| >= |r| where ic != 1,
 * checked by the generator) leaves one final rounding and terms below
 * 2^-9 of it: ~0.5 ULP. */

/* log(x) for positive normal finite x, plus kadj ln2. */
BD_INL bd_f64d bd__tlogk_dd(bd_f64d x, double kadj) {
  bd_i64d ix = (bd_i64d)x;
  bd_i64d tmp = ix - 0x3fe6000000000000LL;
  bd_i64d off = (bd_i64d)((bd_u64d)tmp >> 40) & 0xfe0; /* bin i times 32 */
  bd_i64d kk = (bd_i64d)((bd_u64d)tmp >> 52);
  /* k + 2048 in the mantissa of 2^52 (no int64 -> double in AVX2) */
  bd_f64d kd =
      (bd_f64d)((kk ^ 0x800) | 0x4330000000000000LL) - (0x1p52 + 2048.0 - kadj);
  bd_f64d z = (bd_f64d)(ix - (tmp & (int64_t)0xfff0000000000000ULL));
  bd_f64d ic, lh, ll;
  bd__row3_dd(off, bd_rt_log_tab, &ic, &lh, &ll);
  /* Coefficients as memory operands of the FMAs (see vmath_erf.h): rows of
   * 16 copies, read as one vector of any width. */
  static const double k[6][16] __attribute__((aligned(64))) = {
      BD__R16(-0x1.fc817da8a9ff0p-4), BD__R16(0x1.24955a2058472p-3),
      BD__R16(-0x1.55555b13d3787p-3), BD__R16(0x1.999999965ed65p-3),
      BD__R16(-0x1.fffffffffb4e6p-3), BD__R16(0x1.555555555555dp-2),
  };
  const double *K = &k[0][0];
  __asm__ volatile("" : "+r"(K)); /* volatile: not shared with the rare path */
  bd_f64d r = BD__FMA(z, ic, bd__vspl_dd(-1.0)); /* exact */
  bd_f64d p = BD__FMA(bd__vld_dd(K), r, bd__vld_dd(K + 16));
  p = BD__FMA(p, r, bd__vld_dd(K + 32));
  p = BD__FMA(p, r, bd__vld_dd(K + 48));
  p = BD__FMA(p, r, bd__vld_dd(K + 64));
  p = BD__FMA(p, r, bd__vld_dd(K + 80));
  p = BD__FMA(p, r, bd__vspl_dd(-0.5));
  bd_f64d w = BD__FMA(kd, bd__vspl_dd(0x1.62e42fefa3800p-1), lh); /* exact */
  bd_f64d hi = w + r;
  bd_f64d lo = (w - hi) + r;
  lo = lo + BD__FMA(kd, bd__vspl_dd(0x1.ef35793c76730p-45), ll);
  return hi + BD__FMA(r * r, p, lo);
}

/* Lanes with x < 2^-1022 (subnormal, 0, negative) or x >= inf (inf, NaN)
 * are redone after the vector (rare: one test per vector); subnormals
 * scaled by 2^52. The test is one signed compare on the bits: x - 2^-1022
 * as an unsigned integer, shifted by 2^63. */
BD_INL bd_f64d bd__tlog_dd(bd_f64d x) {
  bd_f64d y = bd__tlogk_dd(x, 0.0);
  bd_i64d sh = (bd_i64d)((bd_u64d)x + 0x7ff0000000000000ULL);
  bd_i64d special = (bd_i64d)(sh > (int64_t)0xffdfffffffffffffULL);
  if (__builtin_reduce_or(special)) {
    bd_f64d x0 = x * 0.0;
    bd_f64d sr = bd__tlogk_dd(x * 0x1p52, -52.0);
    sr = bd__vsel_dd((bd_i64d)(x0 != x0), x + x, sr);
    sr = bd__vsel_dd((bd_i64d)(x < 0.0), bd__vspl_dd(__builtin_nan("")), sr);
    sr = bd__vsel_dd((bd_i64d)(x == 0.0), bd__vspl_dd(-__builtin_inf()), sr);
    y = bd__vsel_dd(special, sr, y);
  }
  return y;
}
