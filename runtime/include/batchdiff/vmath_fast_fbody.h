/* batchdiff inline vector math: float kernels in float arithmetic, for
 * builds with FMA (without FMA the float functions compute in double, see
 * vmath_fast.h). No include guard: vmath_fast.h includes this file once per
 * float vector type after defining
 *   BD__S   name suffix (f32n, f32d), BD__VF the float vector type,
 *   BD__VI  the int32 vector of the same lanes,
 *   BD__FT  1 for the table log, 0 for the division kernel's.
 * Error analyses: docs/runtime.md, "Inline vector math". */

#define BD__K(name) BD__FPASTE(name, BD__S)

BD_INL BD__VF BD__K(bd__fspl_)(float c) { return (BD__VF){0} + c; }
BD_INL BD__VF BD__K(bd__fsel_)(BD__VI m, BD__VF a, BD__VF b) {
  return (BD__VF)(((BD__VI)a & m) | ((BD__VI)b & ~m));
}

/* The vector at p (any alignment): coefficients are read from rows of 16
 * copies behind an opaque pointer, so each FMA takes its coefficient as a
 * memory operand instead of a broadcast instruction (see vmath_erf.h). */
BD_INL BD__VF BD__K(bd__fld_)(const float *p) {
  BD__VF v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

/* exp(x) for |x| <= 86.5 (results normal, no special values):
 * x = (16 n + j) ln2/16 + s, N = 16 n + j = round(16 x / ln2), s = x - N
 * c1 - N c2 (c1 + c2 = ln2/16; the first fma is exact, the second rounds
 * once: |s| <= ln2/32); exp(s) - 1 = s + s^2 (c2 + c3 s) (2^-29.2
 * absolute); 2^(j/16) = th + tl from a 16-entry table (th rounded, tl its
 * error), y = th + (th p + tl), scaled by 2^n on the exponent bits: 0.564 ULP
 * over every input, 7 fma/mul and 2 table permutes (the polynomial kernel
 * it replaced: 12 fma/mul, 0.81 ULP). */
BD_INL BD__VF BD__K(bd__fexpf_)(BD__VF x) {
  static const float k[10][16] __attribute__((__aligned__(64))) = {
      {0x1p+0f, 0x1.0b5586p+0f, 0x1.172b84p+0f, 0x1.2387a6p+0f, 0x1.306fep+0f,
       0x1.3dea64p+0f, 0x1.4bfdaep+0f, 0x1.5ab07ep+0f, 0x1.6a09e6p+0f,
       0x1.7a1148p+0f, 0x1.8ace54p+0f, 0x1.9c4918p+0f, 0x1.ae89fap+0f,
       0x1.c199bep+0f, 0x1.d5818ep+0f, 0x1.ea4afap+0f},
      {0x0p+0f, 0x1.9f3122p-25f, -0x1.c15742p-27f, 0x1.ceac48p-25f,
       0x1.4636e2p-25f, 0x1.824684p-25f, -0x1.593abcp-25f, -0x1.5bd5ecp-27f,
       0x1.9fcef4p-26f, -0x1.829fdp-25f, 0x1.15506ep-27f, 0x1.51f848p-27f,
       -0x1.a94b14p-26f, -0x1.3d56b2p-27f, -0x1.822dbcp-27f, 0x1.52486cp-27f},
      BD__R16(0x1.715476p+4f),
      BD__R16(0x1.8p23f),
      BD__R16(-0x1.62e430p-5f),
      BD__R16(0x1.05c610p-33f),
      BD__R16(0x1.5556d4p-3f),
      BD__R16(0x1.000222p-1f)};
  const float *K = &k[0][0];
  __asm__ volatile("" : "+r"(K)); /* volatile: see bd__flog1pk_ */
#define BD__C(i) BD__K(bd__fld_)(K + 16 * (i))
  BD__VF z = BD__FMA(x, BD__C(2), BD__C(3));
  BD__VF kd = z - BD__C(3);
  BD__VF r = BD__FMA(kd, BD__C(4), x);
  BD__VF s = BD__FMA(kd, BD__C(5), r);
  BD__VF q = BD__FMA(BD__C(6), s, BD__C(7));
  BD__VF p = BD__FMA(s * s, q, s);
  BD__VF th = BD__K(bd__flut16_)(K, (BD__VI)z);
  BD__VF tl = BD__K(bd__flut16_)(K + 16, (BD__VI)z);
  BD__VF y = th + BD__FMA(th, p, tl);
#undef BD__C
  return (BD__VF)((BD__VI)y + (((BD__VI)z << 19) & (int32_t)0xff800000));
}

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

/* k ln2 + log1p(f) for f in [-1/4, 1/2] (a little beyond where k was taken
 * from a rounded 1 + x), f exact: fdlibm's s = f / (2 + f) (|s| <= 1/5),
 * log1p(f) = f - s (f - R), R = z P(z), z = s^2, P of degree 3 (2^-27.9
 * relative), with one fma for s f - s R - k ln2lo and the rounding e of
 * d = 2 + f corrected in it (f / (d + e) ~ s - s e / d and s / d ~ s / f:
 * s f - z e; without it 0.85 ULP); k ln2hi (12 bits: exact) added by the
 * last fma. 0.763 ULP on every 61st float (the polynomial kernel it
 * replaced, degree 10 in f without the division: 0.795 there, 0.820 over
 * every input), 10 instead of 14 fma/mul and a division. kn = -k (and the
 * rows hold -ln2lo, ln2hi), so that k = 0 adds -0. */
BD_INL BD__VF BD__K(bd__flog1pk_)(BD__VF f, BD__VF kn) {
  static const float k[6][16] __attribute__((__aligned__(64))) = {
      BD__R16(0x1.e6587ap-3f), BD__R16(0x1.242ce0p-2f),
      BD__R16(0x1.999a6ap-2f), BD__R16(0x1.555556p-1f),
      BD__R16(0x1.62ep-1f),    BD__R16(0x1.0bfbe8p-15f)};
  const float *K = &k[0][0];
  /* volatile: each call reads its own rows (memory operands); shared, the
   * rows were loaded once for all chains of a kernel and spilled */
  __asm__ volatile("" : "+r"(K));
#define BD__C(i) BD__K(bd__fld_)(K + 16 * (i))
  BD__VF d = 2.0f + f;
  BD__VF s = f / d;
  BD__VF z = s * s;
  BD__VF p = BD__FMA(BD__C(0), z, BD__C(1));
  p = BD__FMA(p, z, BD__C(2));
  p = BD__FMA(p, z, BD__C(3));
  BD__VF c = BD__FMA(-(s * z), p, kn * BD__C(5));
  c = BD__FMA(-z, (2.0f - d) + f, c);
  BD__VF t = BD__FMA(s, f, c);
#undef BD__C
  /* -(-k ln2hi) + (f - t): for k = 0 the product is -0, so f - t = -0 (f =
   * -0: log1pf(-0)) stays -0 without a blend */
  return BD__FMA(-kn, BD__K(bd__fld_)(K + 64), f - t);
}

#if BD__FT
/* The 64-byte float log (bd_f32n; BD__FT, vmath_fast.h): no division (a
 * 512-bit vdivps issues about once per 10 cycles on Intel's AVX-512 cores,
 * and sqrtf shares the divider). x = 2^k z, z in [0.703125, 1.40625), bin i of
 * z from the bits of x - bits(0.703125) (scripts/gen-flog-table.py: 1/c with
 * few bits so that r = z invc - 1 is exact, |r| <= 0.0342; bin 9 holds 1, invc
 * = 1), the rows read by one vpermps each. log(x) = (k ln2hi + lh) + r + (k
 * ln2lo + ll + r^2 g(r)): k ln2hi + lh exact (both on the 2^-16 grid,
 * |k| <= 151), its sum with r split exactly (Fast2Sum: |k ln2hi + lh| >=
 * |r| unless it is 0), g of degree 3. The table's rows, then g's
 * coefficients, ln2hi, ln2lo and -1, rows of 16 copies. */
BD_INL const float *BD__K(bd__flogt_rows_)(void) {
  static const float t[3 + BD__FLOGT_NP + 3][16]
      __attribute__((__aligned__(64))) = {
          BD__FLOGT_ROWS, BD__FLOGT_P_ROWS, BD__R16(BD__FLOGT_LN2HI),
          BD__R16(BD__FLOGT_LN2LO), BD__R16(-1.0f)};
  return &t[0][0];
}

/* log(x) + ka ln2 for positive normal finite x. */
BD_INL BD__VF BD__K(bd__flogf_)(BD__VF x, BD__VF ka) {
  const float *T = BD__K(bd__flogt_rows_)();
  __asm__ volatile("" : "+r"(T)); /* volatile: see bd__flog1pk_ */
#define BD__C(i) BD__K(bd__fld_)(T + 16 * (3 + (i)))
  BD__VI ix = (BD__VI)x;
  BD__VI tmp = ix - BD__FLOGT_OFF;
  BD__VF kd = __builtin_convertvector(tmp >> 23, BD__VF) + ka;
  BD__VF z = (BD__VF)(ix - (tmp & (int32_t)0xff800000));
  BD__VI i = tmp >> 19;
  BD__VF r = BD__FMA(z, BD__K(bd__flut16_)(T, i), BD__C(BD__FLOGT_NP + 2));
  BD__VF w = BD__FMA(kd, BD__C(BD__FLOGT_NP), BD__K(bd__flut16_)(T + 16, i));
  BD__VF hi = w + r;
  BD__VF lo = r - (hi - w);
  BD__VF g = BD__C(0);
  for (int j = 1; j < BD__FLOGT_NP; j++)
    g = BD__FMA(g, r, BD__C(j));
  BD__VF tail =
      BD__FMA(kd, BD__C(BD__FLOGT_NP + 1), BD__K(bd__flut16_)(T + 32, i)) + lo;
  return hi + BD__FMA(r * r, g, tail);
#undef BD__C
}

#else
/* log(x) + ka for positive normal finite x: x = 2^k m, m in [3/4, 3/2),
 * f = m - 1 exact; -k = (0x3fbfffff - bits(x)) >> 23 (the ceiling of
 * -(bits(x) - 0x3f400000) / 2^23), and -k << 23 its low bits cleared. */
BD_INL BD__VF BD__K(bd__flogf_)(BD__VF x, BD__VF ka) {
  BD__VI nt = 0x3fbfffff - (BD__VI)x;
  BD__VF kn = __builtin_convertvector(nt >> 23, BD__VF) - ka;
  BD__VF m = (BD__VF)((BD__VI)x + (nt & (int32_t)0xff800000));
  return BD__K(bd__flog1pk_)(m - 1.0f, kn);
}
#endif

/* Lanes logf does not take: x not a positive normal finite float (zero,
 * subnormal, negative, inf, NaN), one signed compare on the bits. */
BD_INL BD__VI BD__K(bd__flogf_special_)(BD__VF x) {
  return ((BD__VI)x + 0x7f800000) > (int32_t)0xfeffffff;
}

/* log1p(x) + ka for x < 1.5 2^126: 1 + x = 2^k m with m in [3/4, 3/2) (k
 * from u = 1 + x rounded, -k as in bd__flogf_); f = m - 1 = x 2^-k - (1 -
 * 2^-k) by one fma is exact (x's last bit is at or above f's when k != 0;
 * f = x when k = 0), so no correction term. x = +-0 returns x (f = x, and
 * the last fma adds -0 for k = 0). */
BD_INL BD__VF BD__K(bd__flog1pf_)(BD__VF x, BD__VF ka) {
  BD__VF u = 1.0f + x;
  BD__VI nt = 0x3fbfffff - (BD__VI)u;
  BD__VF kn = __builtin_convertvector(nt >> 23, BD__VF) - ka;
  BD__VF s = (BD__VF)(0x3f800000 + (nt & (int32_t)0xff800000)); /* 2^-k */
  BD__VF f = BD__FMA(x, s, -(1.0f - s));
  return BD__K(bd__flog1pk_)(f, kn);
}

/* Lanes log1pf does not take: x <= -1 (u <= 0), x >= 1.5 2^126 (u too:
 * k >= 127, 2^-k not normal), NaN; one signed compare on u's bits. */
BD_INL BD__VI BD__K(bd__flog1pf_special_)(BD__VF x) {
  BD__VF u = 1.0f + x;
  return ((BD__VI)u + 0x7fffffff) > (int32_t)0xfe3ffffe;
}

/* tanh(x) = sign(x) (1 - E) / (1 + E), E = exp(-2a), a = |x| capped at 9.1
 * (tanhf rounds to 1 beyond 9.01): -2a = n ln2 + r + rl as in expf (n in
 * [-26, 0]), E = 2^n (1 + ph + pl), ph + pl = r + r^2/2 + r^3 S(r) + rl
 * (1 + r) by Fast2Sum (r^2 exact by fma), S of degree 4 (2^-34) in Estrin form
 * (rnn-style recurrences wait for tanh's latency). E, 1 - E and 1 + E as
 * normalized pairs (Fast2Sum);
 * the quotient q0 = N/D by one reciprocal, corrected once with the exact
 * residual and the low parts. No polynomial region, no cancellation: one
 * path for every lane (NaN propagates through the cap). */
BD_INL BD__VF BD__K(bd__ftanhf_)(BD__VF x) {
  static const float k[13][16]
      __attribute__((__aligned__(64))) = {BD__R16(0x1.9df768p-13f),
                                          BD__R16(0x1.6d4cc2p-10f),
                                          BD__R16(0x1.111310p-7f),
                                          BD__R16(0x1.5554e8p-5f),
                                          BD__R16(0x1.555554p-3f),
                                          BD__R16(0.5f),
                                          BD__R16(-0x1.715476p+1f),
                                          BD__R16(0x1.8p23f),
                                          BD__R16(-0x1.62e430p-1f),
                                          BD__R16(0x1.05c610p-29f),
                                          BD__R16(1.0f),
                                          BD__R16(9.1f),
                                          BD__R16(-2.0f)};
  const float *K = &k[0][0];
  __asm__("" : "+r"(K));
#define BD__C(i) BD__K(bd__fld_)(K + 16 * (i))
  BD__VI sgn = (BD__VI)x & (int32_t)0x80000000;
  BD__VF a = (BD__VF)((BD__VI)x ^ sgn);
  BD__VF cap = BD__C(11);
  a = BD__K(bd__fsel_)((BD__VI)(cap < a), cap, a); /* NaN stays */
  BD__VF z = BD__FMA(a, BD__C(6), BD__C(7));
  BD__VF kd = z - BD__C(7);
  BD__VF r = BD__FMA(kd, BD__C(8), a * BD__C(12)); /* exact */
  BD__VF rl = kd * BD__C(9);
  BD__VF r2 = r * r;
  BD__VF p56 = BD__FMA(BD__C(1), r, BD__C(2));
  BD__VF p34 = BD__FMA(BD__C(3), r, BD__C(4));
  BD__VF q = BD__FMA(r2, BD__FMA(r2, BD__C(0), p56), p34);
  /* exp(r + rl) - 1 = ph + pl: r + r^2/2 + r^3 S(r) + rl exp(r), with r^2
   * exact (fma) and rl exp(r) ~ rl (1 + r); -r^2/2 is added last so t is
   * rounded once at its size */
  BD__VF c = BD__FMA(BD__FMA(r, r, -r2), BD__C(5), BD__FMA(rl, r, rl));
  BD__VF t = BD__FMA(r2, BD__C(5), BD__FMA(r2 * r, q, c));
  BD__VF ph = r + t;
  BD__VF pl = (r - ph) + t;
  BD__VF s = (BD__VF)(((BD__VI)z << 23) + (BD__VI)BD__C(10)); /* 2^n */
  BD__VF one = BD__C(10);
  /* E = s + b + sl, b = 2^n ph and sl = 2^n pl exact; 1 + E and 1 - E
   * summed from 1 +- s (exact up to their Fast2Sum errors) and b, so that
   * the division waits for b only; sl stays a term of its own (for a -> 0
   * the a^2 terms of 1 - E and 1 + E matter at 2a relative). */
  BD__VF b = s * ph;
  BD__VF sl = s * pl;
  BD__VF c1 = one + s;
  BD__VF c1e = (one - c1) + s;
  BD__VF n1 = one - s;
  BD__VF n1e = (one - n1) - s;
  BD__VF dh = BD__FMA(s, ph, c1); /* = c1 + b rounded, without waiting for b */
  BD__VF dl = (((c1 - dh) + b) + c1e) + sl;
  BD__VF nh = BD__FMA(-s, ph, n1);
  BD__VF nl = (((n1 - nh) - b) + n1e) - sl;
#undef BD__C
  /* q0 = nh / dh and 1 / dh side by side (two divisions, shorter chain),
   * corrected once with the exact residual and the low parts */
  BD__VF rho = one / dh;
  BD__VF q0 = nh / dh;
  BD__VF res = BD__FMA(-q0, dh, nh) + BD__FMA(-q0, dl, nl);
  BD__VF y = BD__FMA(res, rho, q0);
  return (BD__VF)((BD__VI)y | sgn);
}

#undef BD__K
