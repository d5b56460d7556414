/* batchdiff inline vector math: double log (FMA builds). No include guard:
 * included once by vmath_fast.h, after vmath_erf.h (bd__erfrow_dd's loads,
 * BD__SPLAT). Errors: docs/runtime.md.
 *
 * x = 2^k z, z in [0.6875, 1.375); the
 * top 7 bits of z's offset from 0.6875 pick bin i of bd_rt_log_tab
 * (libbatchdiff_rt, gen_vmath_tables.c): ic = 1/c rounded, -log(ic) as
 * lh + ll, c the bin's centre (c = 1 for the two bins around 1). Then
 * r + pl = z ic - 1 exactly (r = z ic rounded, minus 1; pl its error by
 * FMA; |r| <= 2^-7), and
 *   log(x) = k ln2 + lh + ll + r - r^2/2 + r^3 A(r),
 * A of degree 5 (2^-50 absolute, times r^2 <= 2^-14). k ln2hi + lh, then
 * + r, then - r^2/2 (its rounding error by FMA) are summed by Fast2Sum
 * (each left operand is the larger: |lh| >= 0.0058 >= |r| where c != 1),
 * the low parts added last: one final rounding. */

/* log(x) for positive normal finite x, plus kadj ln2. */
BD_INL bd_f64d bd__tlogk_dd(bd_f64d x, double kadj) {
  bd_i64d ix = (bd_i64d)x;
  bd_i64d tmp = ix - 0x3fe6000000000000LL;
  bd_i64d i = (bd_i64d)((bd_u64d)tmp >> 45) & 127;
  bd_i64d kk = (bd_i64d)((bd_u64d)tmp >> 52);
  /* k + 2048 in the mantissa of 2^52 (no int64 -> double in AVX2) */
  bd_f64d kd =
      (bd_f64d)((kk ^ 0x800) | 0x4330000000000000LL) - (0x1p52 + 2048.0 - kadj);
  bd_f64d z = (bd_f64d)(ix - (tmp & (int64_t)0xfff0000000000000ULL));
  bd_f64d ic, lh, ll;
  bd__erfrow_dd(i, bd_rt_log_tab, &ic, &lh, &ll);
  static const bd_f64d k[] = {
      BD__SPLAT(-0x1.0004ccdecd0bbp-3), BD__SPLAT(0x1.24979e8d8acaep-3),
      BD__SPLAT(-0x1.5555554e21ff7p-3), BD__SPLAT(0x1.999999919973cp-3),
      BD__SPLAT(-0x1.000000000000dp-2), BD__SPLAT(0x1.5555555555564p-2),
  };
  const bd_f64d *K = k;
  __asm__("" : "+r"(K));
  bd_f64d pz = z * ic;
  bd_f64d r = pz - 1.0; /* exact, and r + pl = z ic - 1 exactly */
  bd_f64d pl = BD__FMA(z, ic, -pz);
  bd_f64d a = BD__FMA(K[0], r, K[1]);
  a = BD__FMA(a, r, K[2]);
  a = BD__FMA(a, r, K[3]);
  a = BD__FMA(a, r, K[4]);
  a = BD__FMA(a, r, K[5]);
  bd_f64d kh = kd * 0x1.62e42fefa3800p-1; /* exact: 43 bits */
  bd_f64d t1 = kh + lh;
  bd_f64d e1 = (kh - t1) + lh;
  bd_f64d t2 = t1 + r;
  bd_f64d e2 = (t1 - t2) + r;
  bd_f64d hr = -0.5 * r;
  bd_f64d ar2 = hr * r;
  bd_f64d hi = t2 + ar2;
  bd_f64d lo = ((t2 - hi) + ar2) + BD__FMA(hr, r, -ar2);
  /* log1p(r + pl) = log1p(r) + pl (1 - r) + O(2^-70) */
  lo = lo + ((e1 + e2) + BD__FMA(-r, pl, pl)) +
       BD__FMA(kd, bd__vspl_dd(0x1.ef35793c76730p-45), ll);
  return hi + BD__FMA(r * (r * r), a, lo);
}

/* Lanes with x < 2^-1022 (subnormal, 0, negative) or x * 0 NaN (inf, NaN)
 * are redone after the vector (rare: one test per vector); subnormals
 * scaled by 2^52. Two compares: clang rewrote a range test x > 0 && x < inf
 * into 15 integer instructions on the bits. */
BD_INL bd_f64d bd__tlog_dd(bd_f64d x) {
  bd_f64d y = bd__tlogk_dd(x, 0.0);
  bd_f64d x0 = x * 0.0;
  bd_i64d special = (bd_i64d)(x < 0x1p-1022) | (bd_i64d)(x0 != x0);
  if (__builtin_reduce_or(special)) {
    bd_f64d sr = bd__tlogk_dd(x * 0x1p52, -52.0);
    sr = bd__vsel_dd((bd_i64d)(x0 != x0), x + x, sr);
    sr = bd__vsel_dd((bd_i64d)(x < 0.0), bd__vspl_dd(__builtin_nan("")), sr);
    sr = bd__vsel_dd((bd_i64d)(x == 0.0), bd__vspl_dd(-__builtin_inf()), sr);
    y = bd__vsel_dd(special, sr, y);
  }
  return y;
}
