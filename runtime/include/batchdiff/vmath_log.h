/* batchdiff inline vector math: double log (FMA builds). No include guard:
 * included once by vmath_fast.h, after vmath_fast_body.h (bd__vld_dd,
 * BD__R16). Errors: docs/runtime.md.
 *
 * fdlibm's e_log.c with FMA, table-free: x = 2^k z, z in [sqrt(2)/2,
 * sqrt(2)), f = z - 1 (exact), s = f / (2 + f), R = z P(z) with z = s^2, P
 * of degree 6 (fdlibm's coefficients), and fdlibm's short form
 *   log(x) = k ln2hi + (f - (s (f - R) - k ln2lo))
 * with s f - s z P - k ln2lo in two FMAs (one rounding) and k ln2hi (32
 * bits) added by the last FMA: 0.824 ULP measured, at the ends of z's range
 * (fdlibm's longer form there, f - (f^2/2 - s (f^2/2 + R) - k ln2lo), was
 * 0.742 for 3 more FMA-pipe operations; lognormal_nll at 4 lanes is bound
 * by those pipes). A table version with an 8-bit 1/c and -log(c) in two
 * parts was 0.50 ULP but 13.3 instead of 10.3 instructions per element.
 *
 * 64-byte vectors (AVX-512) take another kernel: there the division is the
 * cost (one vdivpd zmm per log, 16 cycles on Intel: lognormal_nll was bound
 * by its three divisions), and vpermi2pd reads a 16-entry table from two
 * registers. See bd__logfmak_dd below; double log1p at 64 bytes uses the
 * same table (bd__log1pt_dd). */

#include "vmath_log_tab.h"

/* The table kernel where the division is dear: 64-byte vectors, except for
 * AMD Zen 4 (-march=znver4 or native there), where a 512-bit division issues
 * about every 10 cycles and a permute costs as much as an FMA: the division
 * kernel measured faster there (docs/performance-history-2.md, "The double
 * log at 8 lanes"). */
#if BD_VBYTES == 64 && defined(__AVX512F__) && !defined(__znver4__)
#define BD__LOG_TABLE 1
#else
#define BD__LOG_TABLE 0
#endif

#if BD__LOG_TABLE
/* A row of 16 doubles indexed by i's low 4 bits (vpermi2pd). */
BD_INL bd_f64d bd__logt_dd(const double *t, bd_i64d i) {
  return (bd_f64d)__builtin_ia32_vpermi2varpd512(
      (bd__x8df)bd__vld_dd(t), (bd__x8di)i, (bd__x8df)bd__vld_dd(t + 8));
}

/* The table's rows (invc, lh, ll: 16 doubles each) and g's coefficients
 * (rows of 16 copies), shared by log and log1p. */
BD_INL const double *bd__logt_rows_dd(void) {
  static const double t[3][16] __attribute__((__aligned__(64))) = {
      {BD__LOGT_INVC}, {BD__LOGT_LH}, {BD__LOGT_LL}};
  return &t[0][0];
}
BD_INL const double *bd__logt_poly_dd(void) {
  static const double k[BD__LOGT_NP][16]
      __attribute__((__aligned__(64))) = {BD__LOGT_P_ROWS};
  return &k[0][0];
}

/* log(x) for positive normal finite x, plus kadj ln2; 64-byte vectors.
 * x = 2^k z, z in [0.703125, 1.40625) and a bin i of z from its bits
 * (scripts/gen-log-table.py): r = z invc - 1 is exact (invc has few bits;
 * bin 9 holds 1, invc = 1), |r| <= 0.0342, and
 *   log(x) = (k ln2hi + lh) + r + (k ln2lo + ll + r^2 g(r))
 * with k ln2hi + lh exact (both on the 2^-42 grid), its sum with r split
 * exactly (Fast2Sum: |k ln2hi + lh| >= |r| unless it is 0) and g of degree
 * 8 (2^-55 absolute). No division: 0.55 ULP measured (docs/runtime.md). */
BD_INL bd_f64d bd__logfmak_dd(bd_f64d x, double kadj) {
  const double *t = bd__logt_rows_dd();
  const double *K = bd__logt_poly_dd();
  __asm__ volatile("" : "+r"(K)); /* volatile: not shared with the rare path */
  bd_i64d ix = (bd_i64d)x;
  bd_i64d tmp = ix - BD__LOGT_OFF;
  bd_f64d kd = __builtin_convertvector((tmp >> 52) + (int64_t)kadj, bd_f64d);
  bd_f64d z = (bd_f64d)(ix - (tmp & (int64_t)0xfff0000000000000ULL));
  bd_i64d i = tmp >> 48;
  bd_f64d r = BD__FMA(z, bd__logt_dd(t, i), bd__vspl_dd(-1.0));
  bd_f64d w = BD__FMA(kd, bd__vspl_dd(BD__LOGT_LN2HI), bd__logt_dd(t + 16, i));
  bd_f64d hi = w + r;
  bd_f64d lo = (w - hi) + r;
  bd_f64d g = bd__vld_dd(K);
  for (int j = 1; j < BD__LOGT_NP; j++)
    g = BD__FMA(g, r, bd__vld_dd(K + 16 * j));
  bd_f64d tail =
      BD__FMA(kd, bd__vspl_dd(BD__LOGT_LN2LO), bd__logt_dd(t + 32, i)) + lo;
  return hi + BD__FMA(r * r, g, tail);
}

/* log1p(x) by the same table (64-byte vectors), for x with u = 1 + x
 * rounded in (0, 2^1022), c = x - (u - 1) the exact error of u (u - 1 is
 * exact for u < 2^53; a sum's error is a double; above 2^53 c may be off by
 * ulp(u) / 2: below 2^-6 ULP of a result over 36): log1p(x) = log(u + c),
 * u = 2^k z as in bd__logfmak_dd. In the bin of 1 at k = 0 (i = 9, x in
 * about [-2^-6, 2^-5]) r is x itself: log1p(x) = r + r^2 g(r) with no c,
 * which there may be as large as the result. Elsewhere the result is at
 * least 0.0155 and c / u, at most 2^-53, is added as cc (1 - r) with cc = c
 * 2^-k invc (1 / u = 2^-k invc / (1 + r); c 2^-k exact, k <= 1022 so 2^-k
 * is normal): r^2 g - r cc in one FMA, r times that plus cc and the tail in
 * the next. Left out: cc r^2 and cc^2 / 2, below 2^-57 of the result.
 * The sign of x is or'ed into the result: log1p(-0) = -0. */
BD_INL bd_f64d bd__log1ptk_dd(bd_f64d x, bd_f64d u) {
  const double *t = bd__logt_rows_dd();
  const double *K = bd__logt_poly_dd();
  __asm__ volatile("" : "+r"(K)); /* volatile: not shared with the rare path */
  bd_i64d iu = (bd_i64d)u;
  bd_i64d tmp = iu - BD__LOGT_OFF;
  bd_f64d kd = __builtin_convertvector(tmp >> 52, bd_f64d);
  bd_i64d kb = tmp & (int64_t)0xfff0000000000000ULL; /* k << 52 */
  bd_f64d z = (bd_f64d)(iu - kb);
  bd_i64d i = tmp >> 48;
  bd_f64d invc = bd__logt_dd(t, i);
  bd_i64d one = (bd_i64d)(i == (0x3ff0000000000000LL - BD__LOGT_OFF) >> 48);
  bd_f64d r = bd__vsel_dd(one, x, BD__FMA(z, invc, bd__vspl_dd(-1.0)));
  bd_f64d c = x - (u - 1.0);
  bd_f64d cc = c * (bd_f64d)(0x3ff0000000000000LL - kb) * invc;
  cc = bd__vsel_dd(one, bd__vspl_dd(0.0), cc);
  bd_f64d w = BD__FMA(kd, bd__vspl_dd(BD__LOGT_LN2HI), bd__logt_dd(t + 16, i));
  bd_f64d hi = w + r;
  bd_f64d lo = (w - hi) + r;
  bd_f64d g = bd__vld_dd(K);
  for (int j = 1; j < BD__LOGT_NP; j++)
    g = BD__FMA(g, r, bd__vld_dd(K + 16 * j));
  bd_f64d tail =
      BD__FMA(kd, bd__vspl_dd(BD__LOGT_LN2LO), bd__logt_dd(t + 32, i)) + lo;
  bd_f64d y = hi + BD__FMA(r, BD__FMA(r, g, -cc), tail + cc);
  /* x's sign (one vpternlogq): log1p(-0) = -0; other results have it */
  return (bd_f64d)((bd_i64d)y | ((bd_i64d)x & (int64_t)0x8000000000000000ULL));
}
#else
/* log(x) for positive normal finite x, plus kadj ln2. */
BD_INL bd_f64d bd__logfmak_dd(bd_f64d x, double kadj) {
  bd_i64d ix = (bd_i64d)x;
  bd_i64d tmp = ix - 0x3fe6a09e667f3bcdLL;
#if BD_VBYTES == 64 && defined(__AVX512DQ__)
  /* vcvtqq2pd: one operation fewer than the 2^52 trick below */
  bd_f64d kd = __builtin_convertvector((tmp >> 52) + (int64_t)kadj, bd_f64d);
#else
  bd_i64d kk = (bd_i64d)((bd_u64d)tmp >> 52);
  /* k + 2048 in the mantissa of 2^52 (no int64 -> double in AVX2) */
  bd_f64d kd =
      (bd_f64d)((kk ^ 0x800) | 0x4330000000000000LL) - (0x1p52 + 2048.0 - kadj);
#endif
  bd_f64d f =
      (bd_f64d)(ix - (tmp & (int64_t)0xfff0000000000000ULL)) - 1.0; /* exact */
  /* Coefficients as memory operands of the FMAs (see vmath_erf.h): rows of
   * 16 copies, read as one vector of any width. */
  static const double k[7][16] __attribute__((__aligned__(64))) = {
      BD__R16(1.479819860511658591e-01), BD__R16(1.531383769920937332e-01),
      BD__R16(1.818357216161805012e-01), BD__R16(2.222219843214978396e-01),
      BD__R16(2.857142874366239149e-01), BD__R16(3.999999999940941908e-01),
      BD__R16(6.666666666666735130e-01),
  };
  const double *K = &k[0][0];
  __asm__ volatile("" : "+r"(K)); /* volatile: not shared with the rare path */
  bd_f64d s = f / (2.0 + f);
  bd_f64d z = s * s;
  bd_f64d p = BD__FMA(bd__vld_dd(K), z, bd__vld_dd(K + 16));
  for (int i = 2; i < 7; i++)
    p = BD__FMA(p, z, bd__vld_dd(K + 16 * i));
  /* s (f - R) - k ln2lo, R = z p */
  bd_f64d t = BD__FMA(s, f, BD__FMA(-(s * z), p, kd * -0x1.a39ef35793c76p-33));
  return BD__FMA(kd, bd__vspl_dd(0x1.62e42feep-1), f - t);
}

#endif

/* Lanes with x < 2^-1022 (subnormal, 0, negative) or x >= inf (inf, NaN)
 * are redone after the vector (rare: one test per vector); subnormals
 * scaled by 2^52. The test is one signed compare on the bits: x - 2^-1022
 * as an unsigned integer, shifted by 2^63. */
BD_INL bd_i64d bd__logfma_special_dd(bd_f64d x) {
  bd_i64d sh = (bd_i64d)((bd_u64d)x + 0x7ff0000000000000ULL);
  return (bd_i64d)(sh > (int64_t)0xffdfffffffffffffULL);
}
BD__COLD bd_f64d bd__logfma_fix_dd(bd_f64d x, bd_f64d y) {
  bd_f64d x0 = x * 0.0;
  bd_f64d sr = bd__logfmak_dd(x * 0x1p52, -52.0);
  sr = bd__vsel_dd((bd_i64d)(x0 != x0), x + x, sr);
  sr = bd__vsel_dd((bd_i64d)(x < 0.0), bd__vspl_dd(__builtin_nan("")), sr);
  sr = bd__vsel_dd((bd_i64d)(x == 0.0), bd__vspl_dd(-__builtin_inf()), sr);
  return bd__vsel_dd(bd__logfma_special_dd(x), sr, y);
}
/* Whether a lane is special: at 8 lanes one vfpclasspd (QNaN, SNaN, +-0,
 * +-inf, subnormal, negative: every class but positive normal) instead of
 * the add and compare. */
BD_INL int bd__logfma_any_special_dd(bd_f64d x) {
#if BD_VBYTES == 64 && defined(__AVX512DQ__)
  return __builtin_ia32_fpclasspd512_mask((bd__x8df)x, 0xff,
                                          (unsigned char)-1) != 0;
#else
  return __builtin_reduce_or(bd__logfma_special_dd(x)) != 0;
#endif
}
BD_INL bd_f64d bd__logfma_dd(bd_f64d x) {
  bd_f64d y = bd__logfmak_dd(x, 0.0);
  if (bd__logfma_any_special_dd(x))
    y = bd__logfma_fix_dd(x, y);
  return y;
}

#if BD__LOG_TABLE
/* log1p at 64 bytes (bd__log1ptk_dd; fdlibm's kernel, which 32- and
 * 16-byte vectors keep, divides twice). Lanes with u = 1 + x <= 0 (x <=
 * -1), u >= 2^1022, inf or NaN are redone after the vector: one unsigned
 * compare of u's bits less 1. */
BD_INL bd_i64d bd__log1pt_special_dd(bd_f64d u) {
  return (bd_i64d)((bd_u64d)u - 1 >= (uint64_t)0x7fcfffffffffffffULL);
}
BD__COLD bd_f64d bd__log1pt_fix_dd(bd_f64d x, bd_f64d y) {
  /* x >= 2^1022: log(x), as log1p(x) - log(x) < 2^-1021 */
  bd_f64d sr = bd__vsel_dd((bd_i64d)(x < __builtin_inf()),
                           bd__logfmak_dd(x * 0.5, 1.0), x + x);
  sr = bd__vsel_dd((bd_i64d)(x < -1.0), bd__vspl_dd(__builtin_nan("")), sr);
  sr = bd__vsel_dd((bd_i64d)(x == -1.0), bd__vspl_dd(-__builtin_inf()), sr);
  return bd__vsel_dd(bd__log1pt_special_dd(1.0 + x), sr, y);
}
BD_INL bd_f64d bd__log1pt_dd(bd_f64d x) {
  bd_f64d u = 1.0 + x;
  bd_f64d y = bd__log1ptk_dd(x, u);
  if (__builtin_reduce_or(bd__log1pt_special_dd(u)))
    y = bd__log1pt_fix_dd(x, y);
  return y;
}
#endif
