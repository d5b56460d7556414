/* batchdiff inline vector math: double pow (FMA builds). No include guard:
 * included once by vmath_fast.h, after vmath_erf.h (bd__row3_dd) and
 * vmath_fast_body.h (bd__vld_dd, BD__R16). Errors and speed:
 * docs/runtime.md, docs/performance-kernels.md ("The double pow").
 *
 * pow(x, y) = exp(y log|x|) with log|x| as a double-double hi + lo
 * (relative error about 2^-68) and y log|x| as eh + el (eh = y hi rounded,
 * el = its exact error by FMA plus y lo), then exp of the pair with one
 * final rounding: glibc's algorithm (ARM optimized-routines' pow), with
 * the table-free exp of vmath_fast_body.h in place of its exp table.
 *
 * log: |x| = 2^k z, z in [0.705, 1.41) and one of 128 bins of z by its
 * bits (scripts/gen-pow-table.py): r = z invc - 1 exact (invc has few
 * bits; the bin of 1 has invc = 1), |r| <= 0.00528, and
 *   log|x| = (k ln2hi + lh) + r - r^2/2 + (-r^3/2) q(r) + (k ln2lo + ll)
 * with k ln2hi + lh exact, its sum with r and with -r^2/2 (an exact pair by
 * FMA) by Fast2Sum, q of degree 6 (2^-62 absolute). The rows {invc, lh, ll}
 * are read per lane (bd__row3_dd: 32-byte rows).
 *
 * Fast lanes: |x| normal, x > 0 or y an integer (the sign of odd powers
 * of negative x is set afterwards), |eh| <= 708 (so the result is normal:
 * no overflow, no underflow; NaN fails). Any other lane (x zero, subnormal,
 * inf or NaN, x < 0 with y not an integer, y inf or NaN, results beyond
 * exp(+-708)) is recomputed by an out-of-line cold function with the
 * scalar libm pow, after pow(x, +-0) = 1 and pow(1, y) = 1 for every x and
 * y (C99 Annex F, signaling NaNs included); a vector without such a lane
 * never calls it. */

#include "vmath_pow_tab.h"

BD_INL const double *bd__powt_rows_dd(void) {
  static const double t[1 << BD__POWT_BITS][4]
      __attribute__((__aligned__(64))) = {BD__POWT_ROWS};
  return &t[0][0];
}

/* log(ax) = hi + *lo for positive normal finite ax (other lanes: garbage,
 * no traps). */
BD_INL bd_f64d bd__powlog_dd(bd_f64d ax, bd_f64d *lo) {
  bd_i64d ix = BD__BITS_DD(ax);
  bd_i64d tmp = ix - BD__POWT_OFF;
  /* the bin's byte offset in the table (rows of 4 doubles) */
  bd_i64d off = (bd_i64d)((bd_u64d)tmp >> (52 - BD__POWT_BITS - 5)) &
                (((1 << BD__POWT_BITS) - 1) << 5);
#if BD_VBYTES == 64 && defined(__AVX512DQ__)
  bd_f64d kd = __builtin_convertvector(tmp >> 52, bd_f64d);
#else
  bd_i64d kk = (bd_i64d)((bd_u64d)tmp >> 52);
  /* k + 2048 in the mantissa of 2^52 (no int64 -> double in AVX2) */
  bd_f64d kd =
      (bd_f64d)((kk ^ 0x800) | 0x4330000000000000LL) - (0x1p52 + 2048.0);
#endif
  bd_f64d z = (bd_f64d)(ix - (tmp & (int64_t)0xfff0000000000000ULL));
  bd_f64d invc, lh, ll;
  bd__row3_dd(off, bd__powt_rows_dd(), &invc, &lh, &ll);
  bd_f64d r = BD__FMA(z, invc, bd__vspl_dd(-1.0));
  bd_f64d t1 = BD__FMA(kd, bd__vspl_dd(BD__POWT_LN2HI), lh); /* exact */
  bd_f64d t2 = t1 + r;
  bd_f64d lo1 = BD__FMA(kd, bd__vspl_dd(BD__POWT_LN2LO), ll);
  bd_f64d lo2 = (t1 - t2) + r;
  bd_f64d ar = r * -0.5; /* exact */
  bd_f64d ar2 = r * ar;
  bd_f64d ar3 = r * ar2;
  bd_f64d hi = t2 + ar2;
  bd_f64d lo3 = BD__FMA(ar, r, -ar2);
  bd_f64d lo4 = (t2 - hi) + ar2;
  bd_f64d r2 = r * r;
  bd_f64d q01 = BD__FMA(r, bd__vspl_dd(BD__POWT_Q1), bd__vspl_dd(BD__POWT_Q0));
  bd_f64d q23 = BD__FMA(r, bd__vspl_dd(BD__POWT_Q3), bd__vspl_dd(BD__POWT_Q2));
  bd_f64d q45 = BD__FMA(r, bd__vspl_dd(BD__POWT_Q5), bd__vspl_dd(BD__POWT_Q4));
  bd_f64d q46 = BD__FMA(r2, bd__vspl_dd(BD__POWT_Q6), q45);
  bd_f64d q = BD__FMA(r2, BD__FMA(r2, q46, q23), q01);
  bd_f64d l = BD__FMA(ar3, q, ((lo1 + lo2) + lo3) + lo4);
  bd_f64d y = hi + l;
  *lo = (hi - y) + l;
  return y;
}

/* exp(x + xl) for |x| <= 708, |xl| <= 2^-40: bd__expfma_dd with the low
 * part xl added to the reduction's low part rl (before the one final
 * rounding). */
BD_INL bd_f64d bd__powexp_dd(bd_f64d x, bd_f64d xl) {
  bd_f64d z =
      BD__FMA(x, bd__vspl_dd(0x1.71547652b82fep0), bd__vspl_dd(0x1.8p52));
  bd_i64d n = BD__BITS_DD(z) - 0x4338000000000000LL;
  bd_f64d kd = z - 0x1.8p52;
  bd_f64d r = BD__FMA(kd, bd__vspl_dd(-0x1.62e42fefa39efp-1), x);
  bd_f64d rl = BD__FMA(kd, bd__vspl_dd(-0x1.abc9e3b39803fp-56), xl);
  bd_f64d s = r + rl;
  static const double k[10][16] __attribute__((__aligned__(64))) = {
      BD__R16(0x1.1f75aba0b1e2ep-29), BD__R16(0x1.af52906239de4p-26),
      BD__R16(0x1.27e4da1a3bf04p-22), BD__R16(0x1.71ddffef9e7b1p-19),
      BD__R16(0x1.a01a01a741b3cp-16), BD__R16(0x1.a01a01aca0134p-13),
      BD__R16(0x1.6c16c16c16212p-10), BD__R16(0x1.111111110ff87p-7),
      BD__R16(0x1.5555555555556p-5),  BD__R16(0x1.5555555555557p-3),
  };
  const double *K = &k[0][0];
  __asm__ volatile("" : "+r"(K)); /* volatile: not shared with other calls */
  bd_f64d p = bd__vld_dd(K);
  for (int i = 1; i < 10; i++)
    p = BD__FMA(p, s, bd__vld_dd(K + 16 * i));
  p = BD__FMA(p, s, bd__vspl_dd(0.5));
  bd_f64d h = 1.0 + r;
  bd_f64d l = ((1.0 - h) + r) + rl;
  return (h + BD__FMA(s * s, p, l)) * bd__vpow2_dd(n);
}

/* The lanes off the fast path (fast = 0): pow(x, +-0) = 1 and pow(1, y) =
 * 1 (any x, y: NaN, signaling NaN), else the scalar libm pow. */
BD__COLD bd_f64d bd__pow_fix_dd(bd_f64d x, bd_f64d y, bd_f64d r, bd_i64d fast) {
  for (int i = 0; i < BD_WD; i++)
    if (!fast[i])
      r[i] = (y[i] == 0.0 || x[i] == 1.0) ? 1.0 : __builtin_pow(x[i], y[i]);
  return r;
}

BD_INL bd_f64d bd__pow_dd(bd_f64d x, bd_f64d y) {
  bd_f64d ax = __builtin_elementwise_abs(x);
  bd_f64d lo;
  bd_f64d hi = bd__powlog_dd(ax, &lo);
  bd_f64d eh = y * hi;
  bd_f64d el = BD__FMA(y, lo, BD__FMA(y, hi, -eh));
  bd_f64d r = bd__powexp_dd(eh, el);
  /* y an integer; odd (|y| < 2^53: y / 2 is not an integer) */
  bd_f64d hy = y * 0.5;
  bd_i64d yint = (bd_i64d)(__builtin_elementwise_trunc(y) == y);
  bd_i64d odd = yint & (bd_i64d)(__builtin_elementwise_trunc(hy) != hy);
  r = (bd_f64d)((bd_i64d)r ^
                ((bd_i64d)x & odd & (int64_t)0x8000000000000000ULL));
  bd_i64d norm = (bd_i64d)((bd_u64d)((bd_i64d)ax - 0x0010000000000000LL) <
                           (uint64_t)0x7fe0000000000000ULL);
  bd_i64d fast = norm & ((bd_i64d)(x > 0.0) | yint) &
                 (bd_i64d)(__builtin_elementwise_abs(eh) <= 708.0);
  if (__builtin_reduce_or(~fast))
    r = bd__pow_fix_dd(x, y, r, fast);
  return r;
}

/* ---- powf: in double, rounded once ----
 * x, y floats (exact in double): exp(y log|x|) with the double log and exp
 * (vmath_log.h, vmath_fast_body.h: each within 0.83 ULP of double), so the
 * double result is within about 2^-44 relative (|y log x| <= 708) and the
 * rounding to float within 0.5 + 2^-20 ULP. Float overflow and subnormal
 * results come from the conversion (double rounding: at most 2^-29 ULP
 * more). The same fast lanes as double pow (every float is a normal
 * double); the others take glibc's scalar powf per lane. */
BD__COLD bd_f64d bd__powf_fix_dd(bd_f64d x, bd_f64d y, bd_f64d r,
                                 bd_i64d fast) {
  for (int i = 0; i < BD_WD; i++)
    if (!fast[i])
      r[i] = (y[i] == 0.0 || x[i] == 1.0)
                 ? 1.0
                 : (double)__builtin_powf((float)x[i], (float)y[i]);
  return r;
}

BD_INL bd_f64d bd__powfk_dd(bd_f64d x, bd_f64d y) {
  bd_f64d ax = __builtin_elementwise_abs(x);
  bd_f64d eh = y * bd__logfmak_dd(ax, 0.0);
  bd_f64d r = bd__expfma_dd(eh);
  bd_f64d hy = y * 0.5;
  bd_i64d yint = (bd_i64d)(__builtin_elementwise_trunc(y) == y);
  bd_i64d odd = yint & (bd_i64d)(__builtin_elementwise_trunc(hy) != hy);
  r = (bd_f64d)((bd_i64d)r ^
                ((bd_i64d)x & odd & (int64_t)0x8000000000000000ULL));
  bd_i64d norm = (bd_i64d)((bd_u64d)((bd_i64d)ax - 0x0010000000000000LL) <
                           (uint64_t)0x7fe0000000000000ULL);
  bd_i64d fast = norm & ((bd_i64d)(x > 0.0) | yint) &
                 (bd_i64d)(__builtin_elementwise_abs(eh) <= 708.0);
  if (__builtin_reduce_or(~fast))
    r = bd__powf_fix_dd(x, y, r, fast);
  return r;
}
