/* batchdiff inline vector math: double erf and erfc (FMA builds). No include
 * guard: included once by vmath_fast.h, after the double kernels of
 * vmath_fast_body.h (bd__*_dd). Branch-free, no exp, all lanes through one
 * path: a table row per lane and one polynomial. Errors: docs/runtime.md.
 *
 * erfc(a), a = |x| clamped to 27.25 (erfc rounds to 0 beyond 27.23): r =
 * a rounded to a multiple of 1/128, d = a - r (exact, |d| <= 1/256); row r
 * of bd_rt_erfc_tab (libbatchdiff_rt, gen_vmath_tables.c) holds erfc(r) as
 * eh + el and s = 2/sqrt(pi) exp(-r^2), all times 2^128 (normal up to r =
 * 27.25). Then
 *   erfc(a) = erfc(r) - s d B,  B = int_0^1 exp(-v t - q t^2) dt,
 *   v = 2 r d (|v| <= 0.213), q = d^2 (<= 2^-16),
 *   B = P0(v) - q (P1(v) - q (P2(v) - q P3(v))),
 * P_k(v) = int_0^1 t^(2k) exp(-v t) dt / k!, Chebyshev fits of degree 9, 7,
 * 4, 1 (errors 2^-56.5, 2^-43.6, 2^-26.3, 2^-12: each below 2^-58 of the
 * result after the weights q^k and s d B / erfc(a) <= 0.22). The result is
 * eh + (el - s d B), rounded once, times 2^-128: one more rounding only for
 * subnormal results, far below their quantum. erfc(x < 0) = 2 - erfc(a) by
 * one FMA. erf: |x| < 0.625: x + x R(x^2), R = erf(x)/x - 1 of degree 10
 * (2^-56.3 relative to erf(x)/x), scaled by 8 so that a subnormal x rounds
 * once; else +-(1 - erfc(a)) with erfc(a) kept as the pair above. */

/* A double constant in every lane, as a static initializer. */
#if BD_WD == 8
#define BD__SPLAT(c)                                                           \
  { c, c, c, c, c, c, c, c }
#elif BD_WD == 4
#define BD__SPLAT(c)                                                           \
  { c, c, c, c }
#else
#define BD__SPLAT(c)                                                           \
  { c, c }
#endif

/* Columns 0, 1, 2 of row j (of 3 doubles) of table t, in each lane (one
 * 16-byte load for columns 0 and 1). */
BD_INL void bd__erfrow_dd(bd_i64d j, const double *t, bd_f64d *eh, bd_f64d *el,
                          bd_f64d *s) {
  bd__v2d p[BD_WD];
  for (int i = 0; i < BD_WD; i++) {
    int64_t ji = j[i];
    __asm__("" : "+r"(ji)); /* 3 ji by lea, not a 64-bit vector multiply */
    const double *row = t + 3 * ji;
    __builtin_memcpy(&p[i], row, sizeof p[i]);
    (*s)[i] = row[2];
  }
#if BD_WD == 4
  bd_f64d lo = __builtin_shufflevector(p[0], p[2], 0, 1, 2, 3);
  bd_f64d hi = __builtin_shufflevector(p[1], p[3], 0, 1, 2, 3);
  *eh = __builtin_shufflevector(lo, hi, 0, 4, 2, 6);
  *el = __builtin_shufflevector(lo, hi, 1, 5, 3, 7);
#elif BD_WD == 8
  /* [eh0, el0, ..., eh3, el3] and the same of lanes 4-7, then two
   * vpermt2pd: the element-wise form left lane inserts and spills */
  bd__v4d a0 = __builtin_shufflevector(p[0], p[1], 0, 1, 2, 3);
  bd__v4d a1 = __builtin_shufflevector(p[2], p[3], 0, 1, 2, 3);
  bd__v4d b0 = __builtin_shufflevector(p[4], p[5], 0, 1, 2, 3);
  bd__v4d b1 = __builtin_shufflevector(p[6], p[7], 0, 1, 2, 3);
  bd_f64d a = __builtin_shufflevector(a0, a1, 0, 1, 2, 3, 4, 5, 6, 7);
  bd_f64d b = __builtin_shufflevector(b0, b1, 0, 1, 2, 3, 4, 5, 6, 7);
  *eh = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
  *el = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
#else
  for (int i = 0; i < BD_WD; i++) {
    (*eh)[i] = p[i][0];
    (*el)[i] = p[i][1];
  }
#endif
}

/* Columns 0, 1, 2 of the rows (of 4 doubles) at byte offsets off of table t,
 * in each lane (two 16-byte loads a lane; 8 lanes: one 32-byte load). */
BD_INL void bd__row3_dd(bd_i64d off, const double *t, bd_f64d *c0, bd_f64d *c1,
                        bd_f64d *c2) {
  /* The offsets stay vector arithmetic (one shift and mask for all
   * lanes), not a scalar shift and mask per extracted lane. */
  __asm__("" : "+v"(off));
#if BD_WD == 8
  /* Whole-register transposes (vinsertf64x4, vpermt2pd): 1.8 -> 1.4 ns
   * per element for erfc at 8 lanes (AVX-512, Zen 4), where the
   * element-wise form (below) ran no faster than 4 lanes; vgatherqpd was
   * slower still (2.6 ns). */
  bd__v4d w[8];
  for (int i = 0; i < 8; i++)
    __builtin_memcpy(&w[i], (const char *)t + off[i], sizeof w[i]);
  bd_f64d z0 = __builtin_shufflevector(w[0], w[1], 0, 1, 2, 3, 4, 5, 6, 7);
  bd_f64d z1 = __builtin_shufflevector(w[2], w[3], 0, 1, 2, 3, 4, 5, 6, 7);
  bd_f64d z2 = __builtin_shufflevector(w[4], w[5], 0, 1, 2, 3, 4, 5, 6, 7);
  bd_f64d z3 = __builtin_shufflevector(w[6], w[7], 0, 1, 2, 3, 4, 5, 6, 7);
  /* [c0, c1] of rows 0-3, [c2, c3] of rows 0-3; the same of rows 4-7 */
  bd_f64d u0 = __builtin_shufflevector(z0, z1, 0, 4, 8, 12, 1, 5, 9, 13);
  bd_f64d v0 = __builtin_shufflevector(z0, z1, 2, 6, 10, 14, 3, 7, 11, 15);
  bd_f64d u1 = __builtin_shufflevector(z2, z3, 0, 4, 8, 12, 1, 5, 9, 13);
  bd_f64d v1 = __builtin_shufflevector(z2, z3, 2, 6, 10, 14, 3, 7, 11, 15);
  *c0 = __builtin_shufflevector(u0, u1, 0, 1, 2, 3, 8, 9, 10, 11);
  *c1 = __builtin_shufflevector(u0, u1, 4, 5, 6, 7, 12, 13, 14, 15);
  *c2 = __builtin_shufflevector(v0, v1, 0, 1, 2, 3, 8, 9, 10, 11);
#else
  bd__v2d p[BD_WD], q[BD_WD];
  for (int i = 0; i < BD_WD; i++) {
    const char *row = (const char *)t + off[i];
    __builtin_memcpy(&p[i], row, sizeof p[i]);
    __builtin_memcpy(&q[i], row + 16, sizeof q[i]);
  }
#if BD_WD == 4
  bd_f64d a = __builtin_shufflevector(p[0], p[2], 0, 1, 2, 3);
  bd_f64d b = __builtin_shufflevector(p[1], p[3], 0, 1, 2, 3);
  bd_f64d c = __builtin_shufflevector(q[0], q[2], 0, 1, 2, 3);
  bd_f64d d = __builtin_shufflevector(q[1], q[3], 0, 1, 2, 3);
  *c0 = __builtin_shufflevector(a, b, 0, 4, 2, 6);
  *c1 = __builtin_shufflevector(a, b, 1, 5, 3, 7);
  *c2 = __builtin_shufflevector(c, d, 0, 4, 2, 6);
#else
  for (int i = 0; i < BD_WD; i++) {
    (*c0)[i] = p[i][0];
    (*c1)[i] = p[i][1];
    (*c2)[i] = q[i][0];
  }
#endif
#endif
}

/* erfc(|x|) 2^128 = *yh + *yl (NaN: that of 27.25). */
BD_INL void bd__erfcpos_dd(bd_f64d x, bd_f64d *yh, bd_f64d *yl) {
  bd_f64d a = bd__vmin_dd(__builtin_elementwise_abs(x), 27.25);
  bd_f64d z = a + 0x1p45; /* r in the last bits */
  bd_i64d j = (bd_i64d)z - 0x42c0000000000000LL;
  bd_f64d r = z - 0x1p45;
  bd_f64d d = a - r;
  bd_f64d v = (r + r) * d, q = d * d, v2 = v * v;
  bd_f64d eh, el, s;
  bd__erfrow_dd(j, bd_rt_erfc_tab, &eh, &el, &s);
  /* Coefficients as full vectors in memory, behind an opaque pointer: each
   * FMA then reads its coefficient as a memory operand, where a constant
   * would cost a broadcast instruction of its own. */
  static const bd_f64d k[] = {
      BD__SPLAT(0x1.723fce52527d2p-19),
      BD__SPLAT(0x1.a019f224f7e51p-13),
      BD__SPLAT(0x1.1111111211aeap-7),
      BD__SPLAT(0x1.55555555553e1p-3),
      BD__SPLAT(-0x1.282607ab435e6p-22),
      BD__SPLAT(-0x1.a019f74e3f6abp-16),
      BD__SPLAT(-0x1.6c16c16cc1d0dp-10),
      BD__SPLAT(-0x1.55555555554d9p-5),
      BD__SPLAT(-0.5),
      BD__SPLAT(-0x1.4d3b0d880e77ap-16),
      BD__SPLAT(0x1.44103cb9ffed6p-13),
      BD__SPLAT(-0x1.111106ee1fb8ep-10),
      BD__SPLAT(0x1.861848a3da9cap-8),
      BD__SPLAT(-0x1.c71c71c894d0ep-6),
      BD__SPLAT(0x1.9999999d358dbp-4),
      BD__SPLAT(-0x1.ffffffffffeefp-3),
      BD__SPLAT(0x1.5555555555019p-2),
      BD__SPLAT(0x1.2fe0637c54688p-9),
      BD__SPLAT(-0x1.561b8735538ffp-7),
      BD__SPLAT(0x1.2492335e1d31ap-5),
      BD__SPLAT(-0x1.55550d74b1666p-4),
      BD__SPLAT(0x1.999999999999ap-4),
      BD__SPLAT(-0x1.565d9adeff329p-6),
      BD__SPLAT(0x1.8989d0d097e3bp-6),
  };
  const bd_f64d *K = k;
  __asm__("" : "+r"(K));
  /* P0 = even + v odd, in v^2 */
  bd_f64d pe = BD__FMA(K[0], v2, K[1]);
  pe = BD__FMA(pe, v2, K[2]);
  pe = BD__FMA(pe, v2, K[3]);
  pe = pe * v2; /* P0 - 1: the 1 is added exactly below */
  bd_f64d po = BD__FMA(K[4], v2, K[5]);
  po = BD__FMA(po, v2, K[6]);
  po = BD__FMA(po, v2, K[7]);
  po = BD__FMA(po, v2, K[8]);
  bd_f64d p1 = BD__FMA(K[9], v, K[10]);
  p1 = BD__FMA(p1, v, K[11]);
  p1 = BD__FMA(p1, v, K[12]);
  p1 = BD__FMA(p1, v, K[13]);
  p1 = BD__FMA(p1, v, K[14]);
  p1 = BD__FMA(p1, v, K[15]);
  p1 = BD__FMA(p1, v, K[16]);
  bd_f64d p2 = BD__FMA(K[17], v, K[18]);
  p2 = BD__FMA(p2, v, K[19]);
  p2 = BD__FMA(p2, v, K[20]);
  p2 = BD__FMA(p2, v, K[21]);
  bd_f64d p3 = BD__FMA(K[22], v, K[23]);
  bd_f64d t = BD__FMA(-q, p3, p2);
  t = BD__FMA(-q, t, p1);
  bd_f64d b1 = BD__FMA(po, v, pe);
  b1 = BD__FMA(-q, t, b1); /* B - 1 */
  /* s d B = ch + cl + ch (B - 1), ch + cl = s d exactly; eh - ch by
   * Fast2Sum (ch <= 0.22 eh) */
  bd_f64d ch = s * d;
  bd_f64d cl = BD__FMA(s, d, -ch);
  bd_f64d sh = eh - ch;
  *yh = sh;
  *yl = ((eh - sh) - ch) + (el - BD__FMA(ch, b1, cl));
}

BD_INL bd_f64d bd__erf_dd(bd_f64d x) {
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
  /* 1 - (eh + el): Fast2Sum of 1 - eh (eh <= erfc(0.62) < 1), then el */
  bd_f64d yh, yl;
  bd__erfcpos_dd(x, &yh, &yl);
  yh = yh * 0x1p-128;
  yl = yl * 0x1p-128;
  bd_f64d t = 1.0 - yh;
  bd_f64d y = t + (((1.0 - t) - yh) - yl);
  y = __builtin_elementwise_copysign(y, x);
  y = bd__vsel_dd((bd_i64d)(__builtin_elementwise_abs(x) < 0.625), y0, y);
  return bd__vsel_dd((bd_i64d)(x != x), x + x, y);
}

/* erfc(x) for x <= 8 (NaN: NaN; x < -8: 2, which erfc(x) rounds to), by
 * bd_rt_erfc128_tab: r = |x| rounded to a multiple of 1/128, d = |x| - r
 * (|d| <= 2^-8), v = 2 r d (|v| <= 2^-4), q = d^2 (<= 2^-16), erfc(|x|) = eh +
 * el - s d B with B = P0(v) - q (P1(v) - q (P2(v) - q P3)), P_k(v) = int_0^1
 * t^(2k) exp(-v t) dt / k! by Chebyshev fits of degrees 7, 5, 3 and 0
 * (2^-56.4, 2^-41.6, 2^-27.7, 2^-9.5 with the coefficients rounded: each
 * below 2^-56 of B after the weights q^k). s d B is at most 2^-4 of the
 * result, so its rounding errors stay below 2^-56 of it: one final rounding
 * (two for x < 0: 2 - y). The table is 32 KB: a call that finds it out of
 * cache (another process ran in between) misses on at most 513 lines, where
 * the 128 KB table of 1/512 steps (degrees 6, 3, 1) missed on up to 2049 and
 * cost more than its shorter polynomials save (docs/performance-history-2.md,
 * "bs_call value + gradient under load"). */
BD_INL bd_f64d bd__erfc8_dd(bd_f64d x, bd_f64d a) {
  /* the row of min(a, 8) (NaN: 8); d = a - r keeps a NaN, so NaN lanes
   * return NaN without a blend */
  bd_f64d z = bd__vmin_dd(a, 8.0) + 0x1p45; /* r in the last bits */
  bd_i64d off = ((bd_i64d)z - 0x42c0000000000000LL) << 5;
  bd_f64d r = z - 0x1p45;
  bd_f64d d = a - r;
  bd_f64d v = (r + r) * d, q = d * d;
  bd_f64d eh, el, s;
  bd__row3_dd(off, bd_rt_erfc128_tab, &eh, &el, &s);
  static const double k[15][16] __attribute__((__aligned__(64))) = {
      BD__R16(-0x1.a02340e09e513p-16), BD__R16(0x1.a02590b6e9943p-13),
      BD__R16(-0x1.6c16c154f88d1p-10), BD__R16(0x1.111110f42b3b7p-7),
      BD__R16(-0x1.55555555557a5p-5),  BD__R16(0x1.5555555555b1dp-3),
      BD__R16(-0x1.1118de74b44cep-10), BD__R16(0x1.86278d6352f0bp-8),
      BD__R16(-0x1.c71c71984befap-6),  BD__R16(0x1.9999993e91fd7p-4),
      BD__R16(0x1.5555555556990p-2),   BD__R16(-0x1.5562fcd2dedd8p-7),
      BD__R16(0x1.24a5401d2a1c5p-5),   BD__R16(-0x1.5555551eb73c8p-4),
      BD__R16(0x1.9999986a29075p-4),
  };
  const double *K = &k[0][0];
  __asm__ volatile("" : "+r"(K)); /* volatile: not shared with other calls */
  bd_f64d p0 = BD__FMA(bd__vld_dd(K), v, bd__vld_dd(K + 16));
  p0 = BD__FMA(p0, v, bd__vld_dd(K + 32));
  p0 = BD__FMA(p0, v, bd__vld_dd(K + 48));
  p0 = BD__FMA(p0, v, bd__vld_dd(K + 64));
  p0 = BD__FMA(p0, v, bd__vld_dd(K + 80));
  p0 = BD__FMA(p0, v, bd__vspl_dd(-0.5));
  p0 = BD__FMA(p0, v, bd__vspl_dd(1.0));
  bd_f64d p1 = BD__FMA(bd__vld_dd(K + 96), v, bd__vld_dd(K + 112));
  p1 = BD__FMA(p1, v, bd__vld_dd(K + 128));
  p1 = BD__FMA(p1, v, bd__vld_dd(K + 144));
  p1 = BD__FMA(p1, v, bd__vspl_dd(-0x1.000000000029ap-2));
  p1 = BD__FMA(p1, v, bd__vld_dd(K + 160));
  bd_f64d p2 = BD__FMA(bd__vld_dd(K + 176), v, bd__vld_dd(K + 192));
  p2 = BD__FMA(p2, v, bd__vld_dd(K + 208));
  p2 = BD__FMA(p2, v, bd__vld_dd(K + 224));
  bd_f64d b = BD__FMA(-q, bd__vspl_dd(0x1.8618618618618p-6), p2);
  b = BD__FMA(-q, b, p1);
  b = BD__FMA(-q, b, p0);
  bd_f64d y = eh + BD__FMA(-(s * d), b, el);
  /* x < 0: 2 - y; x < -8: 2 (y is not erfc(|x|) there) */
  bd_i64d neg = (bd_i64d)(x < 0.0);
  bd_f64d f = bd__vsel_dd(neg, bd__vspl_dd(-1.0), bd__vspl_dd(1.0));
  y = BD__FMA(y, f, (bd_f64d)(neg & (bd_i64d)bd__vspl_dd(2.0)));
  return bd__vsel_dd((bd_i64d)(x < -8.0), bd__vspl_dd(2.0), y);
}

/* Vectors with a lane beyond x = 8 take the kernel above for those lanes,
 * which covers the whole range (erfc(x < -8) is 2 on the fast path). A
 * lane's result must not depend on its neighbours: the others keep the fast
 * path's result, and read the full-range table at the row of 8 only (their
 * own rows would be 24 KB more of it to miss on in a cold call). */
BD_INL bd_f64d bd__erfc_dd(bd_f64d x) {
  bd_i64d big = (bd_i64d)(x > 8.0);
  bd_f64d y = bd__erfc8_dd(x, __builtin_elementwise_abs(x));
  if (!__builtin_reduce_or(big))
    return y;
  bd_f64d yh, yl;
  bd__erfcpos_dd(bd__vsel_dd(big, x, bd__vspl_dd(8.0)), &yh, &yl);
  return bd__vsel_dd(big, (yh + yl) * 0x1p-128, y);
}
