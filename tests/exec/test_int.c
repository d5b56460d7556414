/* Differential tests, integers and _Bool: every integer type as parameter,
 * local and return value; arithmetic, shifts, bitwise ops, comparisons
 * (signed and unsigned), division and remainder (including a divisor that is
 * 0 only in lanes whose branch is not taken), narrowing, promotions.
 * Bit-exact. Signed overflow is undefined in C, so signed arithmetic gets
 * operands that cannot overflow; unsigned arithmetic gets anything. */
#include "exec_util.h"
#include "../common/test_filter.h"

/* Operands whose sums/products fit in int. */
static int gen_i32m(rng_t *r) {
  static const int e[] = {0, 1, -1, 2, -2, 46340, -46340, 7, -7, 255, 256};
  if (rng_below(r, 4) == 0)
    return e[rng_below(r, sizeof e / sizeof e[0])];
  return rng_below(r, 2 * 46340 + 1) - 46340;
}
static long gen_i64m(rng_t *r) {
  static const long e[] = {0,           1,          -1,         3037000499L,
                           -3037000499L, 4294967296L, -4294967296L, 1L << 40};
  if (rng_below(r, 4) == 0)
    return e[rng_below(r, sizeof e / sizeof e[0])];
  return (long)(rng_u64(r) % 6074000999ULL) - 3037000499L;
}
static int gen_shift32(rng_t *r) { return rng_below(r, 32); }
static int gen_shift64(rng_t *r) { return rng_below(r, 64); }
/* Divisors: never 0 and never -1 paired with INT_MIN (undefined). */
static int gen_div32(rng_t *r) {
  int d = gen_i32(r);
  if (d == 0 || d == -1)
    d = 3;
  return d;
}
static long gen_div64(rng_t *r) {
  long d = gen_i64(r);
  if (d == 0 || d == -1)
    d = -5;
  return d;
}
static unsigned gen_udiv32(rng_t *r) {
  unsigned d = gen_u32(r);
  return d ? d : 1u;
}
static unsigned long gen_udiv64(rng_t *r) {
  unsigned long d = gen_u64(r);
  return d ? d : 7ul;
}

/* ---- 32-bit signed ------------------------------------------------------ */
BD_BATCH int i_arith(int a, int b) { return a + b - (a * b) / 3 + (-a); }
BD_BATCH int i_div(int a, int b) { return a / b; }
BD_BATCH int i_rem(int a, int b) { return a % b; }
BD_BATCH int i_bits(int a, int b) {
  return (a & b) ^ (a | 0x0f0f) ^ ~b ^ (a & ~b);
}
BD_BATCH int i_shl(int a, int s) { return (int)((unsigned)a << s); }
BD_BATCH int i_shr(int a, int s) { return a >> s; } /* arithmetic */
BD_BATCH int i_cmp(int a, int b) {
  return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 |
         (a == b) << 4 | (a != b) << 5 | (!a) << 6;
}
BD_BATCH int i_logic(int a, int b) {
  return (a && b) + 2 * (a || !b) + 4 * (a > 0 && b < 0) + 8 * !(a ^ b);
}
BD_BATCH int i_incdec(int a) {
  int b = a++;
  int c = --a;
  a += 5;
  a -= b;
  a *= 3;
  a /= 2;
  a %= 7;
  a <<= 2;
  a >>= 1;
  a &= 0xff;
  a |= 0x100;
  a ^= c & 0xf;
  return a + b++ + ++c;
}

BITS2(i_arith, int, int, gen_i32m, int, gen_i32m)
BITS2(i_div, int, int, gen_i32, int, gen_div32)
BITS2(i_rem, int, int, gen_i32, int, gen_div32)
BITS2(i_bits, int, int, gen_i32, int, gen_i32)
BITS2(i_shl, int, int, gen_i32, int, gen_shift32)
BITS2(i_shr, int, int, gen_i32, int, gen_shift32)
BITS2(i_cmp, int, int, gen_i32, int, gen_i32)
BITS2(i_logic, int, int, gen_i32, int, gen_i32)
BITS1(i_incdec, int, int, gen_i32m)

/* Division guarded by branches: the divisor is 0 (or the pair is
 * INT_MIN / -1) only in lanes that do not execute the division. */
BD_BATCH int i_div_guard(int a, int b) {
  if (b == 0)
    return -1;
  if (b == -1)
    return a == INT_MIN ? a : -a;
  return a / b + a % b;
}
BD_BATCH int i_div_sel(int a, int b) {
  return b != 0 && b != -1 ? a / b : 0;
}
BD_BATCH int i_div_sc(int a, int b) {
  int r = 0;
  if (b > 0 && a / b > 2) /* short-circuit protects a / b */
    r = 1;
  return r + (b < 0 || (a % (b + 1 ? b + 1 : 1)) != 0);
}
BD_BATCH unsigned u_div_guard(unsigned a, unsigned b) {
  return b ? a / b * 3u + a % b : a;
}
BD_BATCH long l_div_guard(long a, long b) {
  if (b == 0 || b == -1)
    return 0;
  return a / b - a % b;
}
BD_BATCH short s_div_guard(short a, short b) {
  return b ? (short)(a / b) : (short)(a % 3); /* SHRT_MIN/-1 is fine: int */
}

BITS2(i_div_guard, int, int, gen_i32, int, gen_i32s)
BITS2(i_div_sel, int, int, gen_i32, int, gen_i32s)
BITS2(i_div_sc, int, int, gen_i32, int, gen_i32s)
BITS2(u_div_guard, unsigned, unsigned, gen_u32, unsigned, gen_u32)
BITS2(l_div_guard, long, long, gen_i64, long, gen_i64)
BITS2(s_div_guard, short, short, gen_i16, short, gen_i16)

/* ---- unsigned 32 ---------------------------------------------------------*/
BD_BATCH unsigned u_arith(unsigned a, unsigned b) {
  return a * b + a - b * 7u + (a >> 3) - (b << 5) + (-a);
}
BD_BATCH unsigned u_div(unsigned a, unsigned b) { return a / b + a % b; }
BD_BATCH int u_cmp(unsigned a, unsigned b) {
  return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 |
         (a == b) << 4 | (a != b) << 5;
}
BD_BATCH unsigned u_shr(unsigned a, int s) { return a >> s; } /* logical */
BD_BATCH int su_mix(int a, unsigned b) {
  /* a converts to unsigned: -1 < 1u is false. */
  return (a < b) + 2 * (a + b > 10u) + 4 * ((unsigned)a / 2u > b);
}

BITS2(u_arith, unsigned, unsigned, gen_u32, unsigned, gen_u32)
BITS2(u_div, unsigned, unsigned, gen_u32, unsigned, gen_udiv32)
BITS2(u_cmp, int, unsigned, gen_u32, unsigned, gen_u32)
BITS2(u_shr, unsigned, unsigned, gen_u32, int, gen_shift32)
BITS2(su_mix, int, int, gen_i32, unsigned, gen_u32)

/* ---- 64-bit ---------------------------------------------------------------*/
BD_BATCH long l_arith(long a, long b) { return a + b - a * b / 5 + (a >> 7); }
BD_BATCH long l_div(long a, long b) { return a / b + a % b; }
BD_BATCH int l_cmp(long a, long b) {
  return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 |
         (a == b) << 4 | (a != b) << 5;
}
BD_BATCH unsigned long ul_arith(unsigned long a, unsigned long b) {
  return a * b + (a >> 13) - (b << 3) + ~a;
}
BD_BATCH unsigned long ul_div(unsigned long a, unsigned long b) {
  return a / b + a % b;
}
BD_BATCH int ul_cmp(unsigned long a, unsigned long b) {
  return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3;
}
BD_BATCH long l_shift(long a, int s) {
  return (a >> s) ^ (long)((unsigned long)a << s);
}
BD_BATCH long li_mix(int a, long b) { return a * b / 3 + (a < b) + (long)a; }

BITS2(l_arith, long, long, gen_i64m, long, gen_i64m)
BITS2(l_div, long, long, gen_i64, long, gen_div64)
BITS2(l_cmp, int, long, gen_i64, long, gen_i64)
BITS2(ul_arith, unsigned long, unsigned long, gen_u64, unsigned long, gen_u64)
BITS2(ul_div, unsigned long, unsigned long, gen_u64, unsigned long,
      gen_udiv64)
BITS2(ul_cmp, int, unsigned long, gen_u64, unsigned long, gen_u64)
BITS2(l_shift, long, long, gen_i64, int, gen_shift64)
BITS2(li_mix, long, int, gen_i32m, long, gen_i64m)

/* ---- short / char / _Bool: promotions and narrowing -----------------------*/
BD_BATCH short s_arith(short a, short b) {
  short c = a * b; /* int product narrowed to short */
  c += a;
  c++;
  return (short)(c - b / 3);
}
BD_BATCH int s_promote(short a, unsigned short b) {
  return a * b + (a < b) + (unsigned short)(a + b);
}
BD_BATCH signed char c_arith(signed char a, signed char b) {
  signed char c = a + b; /* wraps by narrowing */
  c *= 3;
  return c >> 1;
}
BD_BATCH unsigned char uc_arith(unsigned char a, unsigned char b) {
  unsigned char c = a - b;
  c <<= 1;
  c += a / (b | 1);
  return c;
}
BD_BATCH int c_cmp(char a, unsigned char b, signed char c) {
  return (a < b) + 2 * (c < a) + 4 * (b > c) + 8 * (a == c) + a - b * c;
}
BD_BATCH int narrow(int a) {
  char c = (char)a;
  short s = (short)a;
  unsigned char uc = (unsigned char)a;
  unsigned short us = (unsigned short)a;
  signed char sc = (signed char)(a >> 4);
  return c + s + uc + us + sc;
}
BD_BATCH long widen(signed char a, short b, unsigned u, int i) {
  long r = a;
  r += b;
  r += u; /* zero-extended */
  r += i; /* sign-extended */
  unsigned long ul = (unsigned long)i; /* sign-extended, then unsigned */
  return r ^ (long)(ul >> 1);
}
BD_BATCH _Bool b_ops(_Bool a, _Bool b, int k) {
  _Bool c = k; /* nonzero -> 1 */
  _Bool d = a && !b;
  c ^= d;
  _Bool e = a + b; /* 2 -> 1 */
  return (c || e) && !(a && b && k < 0);
}
BD_BATCH int b_arith(_Bool a, _Bool b) {
  _Bool c = a;
  c++; /* _Bool ++ sets to 1 */
  _Bool d = b;
  d--; /* _Bool -- toggles */
  return a + b * 2 + c * 4 + d * 8 + (a - b) * 16;
}

BITS2(s_arith, short, short, gen_i16, short, gen_i16)
BITS2(s_promote, int, short, gen_i16, unsigned short, gen_u16)
BITS2(c_arith, signed char, signed char, gen_i8, signed char, gen_i8)
BITS2(uc_arith, unsigned char, unsigned char, gen_u8, unsigned char, gen_u8)
BITS3(c_cmp, int, char, gen_c, unsigned char, gen_u8, signed char, gen_i8)
BITS1(narrow, int, int, gen_i32)
BITS4(widen, long, signed char, gen_i8, short, gen_i16, unsigned, gen_u32,
      int, gen_i32)
BITS3(b_ops, _Bool, _Bool, gen_b, _Bool, gen_b, int, gen_i32)
BITS2(b_arith, int, _Bool, gen_b, _Bool, gen_b)

/* ---- integers feeding floats and back -------------------------------------*/
BATCHDIFF float if_mix(float x, int k, unsigned char c) {
  int j = k % 4;
  if (j < 0)
    j = -j;
  float r = x;
  if (j == 0)
    r = x * c;
  else if (j == 1)
    r = x + (float)(k / 3);
  else if (j == 2)
    r = (float)(c >> 2) - x;
  else
    r = x / (float)(j + c);
  return r;
}
BD_BATCH int fi_mix(double x, int k) {
  int t = (int)(x * 0.5) + k; /* x in range below */
  return t % 5 + (x > k);
}
static double gen_d_small(rng_t *r) { return rng_range(r, -1e6, 1e6); }

BITS3(if_mix, float, float, gen_f, int, gen_i32m, unsigned char, gen_u8)
BITS2(fi_mix, int, double, gen_d_small, int, gen_i32m)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(i_arith),     T_(i_div),      T_(i_rem),     T_(i_bits),
      T_(i_shl),       T_(i_shr),      T_(i_cmp),     T_(i_logic),
      T_(i_incdec),    T_(i_div_guard), T_(i_div_sel), T_(i_div_sc),
      T_(u_div_guard), T_(l_div_guard), T_(s_div_guard), T_(u_arith),
      T_(u_div),       T_(u_cmp),      T_(u_shr),     T_(su_mix),
      T_(l_arith),     T_(l_div),      T_(l_cmp),     T_(ul_arith),
      T_(ul_div),      T_(ul_cmp),     T_(l_shift),   T_(li_mix),
      T_(s_arith),     T_(s_promote),  T_(c_arith),   T_(uc_arith),
      T_(c_cmp),       T_(narrow),     T_(widen),     T_(b_ops),
      T_(b_arith),     T_(if_mix),     T_(fi_mix),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_int", tests, NULL, NULL);
}
