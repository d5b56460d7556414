/* Type punning as numeric C writes it: local unions of a double and a
 * uint64_t (or a float and a uint32_t), typedef'd, with initializers;
 * fdlibm's ieee_double_shape_type and its word macros; a double's 32-bit
 * words as uint32_t w[2], as 16-bit words (cephes), and through memcpy;
 * unions passed to and returned from helpers, through pointers, in structs
 * and in local arrays. Batched bit for bit against the scalar functions
 * (NaN payloads too where only bits move: CMP_STRICT), and gradients where
 * the bits stay out of the derivative's way (an exact 2^k scale, a sign
 * test, a double written and read back). A float rebuilt from a
 * differentiated value's bits is an error (diagnostics case diff-union). */
#include "exec_util.h"
#include "../common/test_filter.h"

#include <string.h>

/* ---- 1. local unions ---------------------------------------------------- */

/* ilogb-style: the biased exponent field, read from the bits. */
BD_BATCH int un_expo(double x) {
  union {
    double d;
    uint64_t u;
  } v;
  v.d = x;
  return (int)((v.u >> 52) & 0x7ff) - 1023;
}
/* frexp's mantissa (normal x): exponent field replaced by 0x3fe. */
BD_BATCH double un_mant(double x) {
  union {
    double d;
    uint64_t u;
  } v = {.d = x};
  v.u &= ~(0x7ffull << 52);
  v.u |= 0x3feull << 52;
  return v.d;
}
/* ldexp-style: the scale 2^k built in the bits; d/dx = 2^k exactly. */
BATCHDIFF double un_ldexp(double x, int k) {
  int kk = k < -1000 ? -1000 : k > 1000 ? 1000 : k;
  union {
    uint64_t u;
    double d;
  } s = {(uint64_t)(kk + 1023) << 52};
  return x * s.d;
}
typedef union {
  float f;
  uint32_t i;
} fbits;
/* Quake's reciprocal square root through a typedef'd union. */
BD_BATCH float un_rsqrt(float x) {
  fbits v = {x};
  float h = 0.5f * x;
  v.i = 0x5f3759df - (v.i >> 1);
  return v.f * (1.5f - h * v.f * v.f);
}
/* A fast log2 estimate (Mineiro's fastlog2): exponent and mantissa. */
BD_BATCH float un_log2f(float x) {
  union {
    float f;
    uint32_t i;
  } vx = {x};
  union {
    uint32_t i;
    float f;
  } mx = {(vx.i & 0x007FFFFF) | 0x3f000000};
  float y = (float)vx.i;
  y *= 1.1920928955078125e-7f;
  return y - 124.22551499f - 1.498030302f * mx.f -
         1.72587999f / (0.3520887068f + mx.f);
}
/* A double written, its sign read from the bits, the double read back:
 * d/dx = 2x * (3 or -1) exactly (the bits never become a float). */
BATCHDIFF double un_back(double x) {
  union {
    double d;
    int64_t i;
  } v;
  v.d = x;
  int neg = v.i < 0;
  double y = v.d;
  return neg ? -y * y : 3 * y * y;
}
/* Signed narrow and 64-bit integer views, increments, compound ops. */
BD_BATCH long un_ints(double x, int k) {
  union {
    double d;
    int64_t i;
    uint16_t s[4];
    int8_t c[8];
  } v = {x};
  v.s[k & 3]++;
  v.c[7] ^= (int8_t)k;
  long r = v.i + v.c[(k >> 2) & 7];
  v.s[0] += 0x8001;
  return r * 31 + v.s[0] + v.c[6];
}

/* ---- 2. fdlibm's words ------------------------------------------------- */

typedef union {
  double value;
  struct {
    uint32_t lsw;
    uint32_t msw;
  } parts;
} ieee_double_shape_type;

#define EXTRACT_WORDS(ix0, ix1, d)                                             \
  do {                                                                         \
    ieee_double_shape_type ew_u;                                               \
    ew_u.value = (d);                                                          \
    (ix0) = ew_u.parts.msw;                                                    \
    (ix1) = ew_u.parts.lsw;                                                    \
  } while (0)
#define GET_HIGH_WORD(i, d)                                                    \
  do {                                                                         \
    ieee_double_shape_type gh_u;                                               \
    gh_u.value = (d);                                                          \
    (i) = gh_u.parts.msw;                                                      \
  } while (0)
#define GET_LOW_WORD(i, d)                                                     \
  do {                                                                         \
    ieee_double_shape_type gl_u;                                               \
    gl_u.value = (d);                                                          \
    (i) = gl_u.parts.lsw;                                                      \
  } while (0)
#define INSERT_WORDS(d, ix0, ix1)                                              \
  do {                                                                         \
    ieee_double_shape_type iw_u;                                               \
    iw_u.parts.msw = (ix0);                                                    \
    iw_u.parts.lsw = (ix1);                                                    \
    (d) = iw_u.value;                                                          \
  } while (0)
#define SET_HIGH_WORD(d, v)                                                    \
  do {                                                                         \
    ieee_double_shape_type sh_u;                                               \
    sh_u.value = (d);                                                          \
    sh_u.parts.msw = (v);                                                      \
    (d) = sh_u.value;                                                          \
  } while (0)
#define SET_LOW_WORD(d, v)                                                     \
  do {                                                                         \
    ieee_double_shape_type sl_u;                                               \
    sl_u.value = (d);                                                          \
    sl_u.parts.lsw = (v);                                                      \
    (d) = sl_u.value;                                                          \
  } while (0)

/* fdlibm's s_copysign.c. */
BD_BATCH double fd_copysign(double x, double y) {
  uint32_t hx, hy;
  GET_HIGH_WORD(hx, x);
  GET_HIGH_WORD(hy, y);
  SET_HIGH_WORD(x, (hx & 0x7fffffff) | (hy & 0x80000000));
  return x;
}
/* fdlibm's s_frexp.c, mantissa and exponent. */
static const double two54 = 1.80143985094819840000e+16;
static double fd_frexp(double x, int *eptr) {
  int32_t hx, ix, lx;
  EXTRACT_WORDS(hx, lx, x);
  ix = 0x7fffffff & hx;
  *eptr = 0;
  if (ix >= 0x7ff00000 || ((ix | lx) == 0))
    return x; /* 0, inf, nan */
  if (ix < 0x00100000) { /* subnormal */
    x *= two54;
    GET_HIGH_WORD(hx, x);
    ix = hx & 0x7fffffff;
    *eptr = -54;
  }
  *eptr += (ix >> 20) - 1022;
  hx = (hx & 0x800fffff) | 0x3fe00000;
  SET_HIGH_WORD(x, hx);
  return x;
}
BD_BATCH double fd_frexp_m(double x) {
  int e;
  return fd_frexp(x, &e);
}
BD_BATCH int fd_frexp_e(double x) {
  int e;
  fd_frexp(x, &e);
  return e;
}
/* A log2 estimate from the words: exponent plus a quadratic in the
 * mantissa m in [1, 2), rebuilt with INSERT_WORDS. */
BD_BATCH double fd_log2(double x) {
  int32_t hx;
  uint32_t lx;
  EXTRACT_WORDS(hx, lx, x);
  int e = ((hx >> 20) & 0x7ff) - 1023;
  double m;
  INSERT_WORDS(m, (hx & 0x000fffff) | 0x3ff00000, lx);
  return e + (m - 1) * (2.0 - 0.6607 * (m - 1));
}
/* 2^k x with INSERT_WORDS and GET_LOW_WORD: d/dx = 2^k exactly. */
BATCHDIFF double fd_scale(double x, int k) {
  int kk = k < -1000 ? -1000 : k > 1000 ? 1000 : k;
  double s;
  uint32_t lo;
  INSERT_WORDS(s, (uint32_t)(kk + 1023) << 20, 0);
  GET_LOW_WORD(lo, x); /* read only: no derivative lost */
  return (lo & 1) ? x * s : s * x * 1.0;
}
/* SET_LOW_WORD: clear the low word (fdlibm's splitting for exact
 * products). */
BD_BATCH double fd_trunc_lo(double x) {
  SET_LOW_WORD(x, 0);
  return x;
}
/* union { double d; uint32_t w[2]; }: w[1] the high word; any index. */
BD_BATCH double un_words(double x, int k) {
  union {
    double d;
    uint32_t w[2];
  } v = {x};
  v.w[1] ^= 0x80000000u;
  v.w[k & 1] += (uint32_t)k;
  return v.d;
}
/* cephes-style 16-bit words: the exponent in s[3]. */
BD_BATCH int un_short(double x) {
  union {
    double d;
    unsigned short s[4];
  } v;
  v.d = x;
  return ((v.s[3] & 0x7ff0) >> 4) - 1023 + (v.s[0] & 1);
}
/* A double's words by memcpy, and back. */
BD_BATCH double mc_words(double x) {
  uint32_t w[2];
  memcpy(w, &x, sizeof w);
  w[0] += 1;
  w[1] ^= 0x80000000u;
  memcpy(&x, w, sizeof x);
  return x;
}
/* Two floats' bits as one uint64_t, and words of floats. */
BD_BATCH uint64_t mc_pair(float a, float b) {
  float f[2] = {a, b};
  uint64_t u;
  memcpy(&u, f, sizeof u);
  return u ^ (u >> 29);
}
BD_BATCH float mc_fwords(float a, float b) {
  float f[2] = {a, b};
  double d;
  memcpy(&d, f, sizeof d);
  uint32_t w[2];
  memcpy(w, &d, 8);
  w[0] ^= w[1] & 0x7fffff;
  memcpy(f, w, sizeof f);
  return f[0];
}
/* A float view in a double union. */
BD_BATCH float un_halves(double x) {
  union {
    double d;
    float f[2];
  } v = {x};
  v.f[1] = -v.f[1];
  return v.f[0] + (float)v.d;
}

/* ---- 3. unions passed around ------------------------------------------- */

typedef union {
  double d;
  uint64_t u;
} dbits;
static dbits mk(double x) {
  dbits r;
  r.d = x;
  return r;
}
static unsigned top(dbits b) { return (unsigned)(b.u >> 52); }
static void flip(dbits *p) { p->u ^= 1ull << 63; }
BD_BATCH double un_helpers(double x) {
  dbits b = mk(x), c = b;
  flip(&c);
  c.u ^= top(b) & 1;
  dbits *p = &b;
  p->u += 1;
  return c.d + b.d;
}
/* Unions in a struct, anonymous too, and in a local array. */
struct tagged {
  int tag;
  dbits v;
  union {
    float f;
    uint32_t i;
  };
};
BD_BATCH double un_nested(double x, int k) {
  struct tagged t = {1, {x}, {.i = 0x3f800000u}};
  t.v.u ^= (uint64_t)(k & 7) << 49;
  t.i += (uint32_t)k;
  dbits a[3] = {{x}, {.u = 0x4000000000000000ull}, [2] = {x * 2}};
  a[k & 1].u ^= 1;
  a[2] = a[(k >> 1) & 1];
  return t.v.d + t.f + a[2].d + a[0].d;
}
/* A uniform union operand: scalar code in the kernel. */
BATCHDIFF double un_unif(double x, BD_UNIFORM BD_NODIFF double c) {
  dbits b = {c};
  b.u += 3;
  return x * b.d;
}

static int gen_k(rng_t *r) { return rng_below(r, 2101) - 1050; }
static int gen_small(rng_t *r) { return rng_below(r, 81) - 40; }

/* ---- 4. unions as parameters and return values -------------------------- */

/* Passed as their integer member (docs/abi.md, "Structs"). */
BD_BATCH double up_param(dbits p, int k) {
  p.u ^= (uint64_t)(k & 1) << 63;
  return p.d * 2;
}
BD_BATCH dbits up_ret(double x, int k) {
  dbits r = {x};
  r.u += (uint64_t)k;
  return r;
}
struct boxed {
  double w;
  dbits v;
  fbits f;
};
BD_BATCH struct boxed up_box(struct boxed b) {
  b.v.d += b.w;
  b.f.i ^= 1;
  b.w = (double)(b.v.u >> 52);
  return b;
}
BD_BATCH double up_recs(const dbits *p) {
  return p[0].d - p[1].d + (double)(p[2].u & 7);
}
BATCHDIFF double up_nodiff(double x, BD_NODIFF dbits s) { return x * s.d; }

static int same_d(double a, double b) { return memcmp(&a, &b, 8) == 0; }

static void diff_params(void **state_) {
  (void)state_;
  static const size_t ns[] = {1, 3, WD + 1, 2 * WF + 3, 37};
  rng_t rng = {name_seed("unions_params")};
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
    size_t n = ns[ni];
    dbits *p = gp_alloc(n * sizeof(dbits)), *r = gp_alloc(n * sizeof(dbits));
    dbits *p3 = gp_alloc(3 * n * sizeof(dbits));
    int *k = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(n * 8), *o = gp_alloc(n * 8);
    struct boxed *bx = gp_alloc(n * sizeof *bx), *rb = gp_alloc(n * sizeof *rb);
    for (size_t b = 0; b < n; b++) {
      p[b].d = gen_d(&rng);
      k[b] = gen_small(&rng);
      x[b] = gen_d(&rng);
      bx[b].w = gen_d(&rng);
      bx[b].v.d = gen_d(&rng);
      bx[b].f.f = gen_f(&rng);
      for (int j = 0; j < 3; j++)
        p3[3 * b + j].u = rng_u64(&rng);
    }
    up_param_batched(n, p, k, o);
    for (size_t b = 0; b < n; b++)
      assert_true(same_d(o[b], up_param(p[b], k[b])));
    up_ret_batched(n, x, k, r);
    for (size_t b = 0; b < n; b++)
      assert_true(r[b].u == up_ret(x[b], k[b]).u);
    up_box_batched(n, bx, rb);
    for (size_t b = 0; b < n; b++) {
      struct boxed w = up_box(bx[b]);
      if (!same_d(rb[b].w, w.w) || rb[b].v.u != w.v.u || rb[b].f.i != w.f.i)
        print_error("up_box n=%zu b=%zu\n", n, b);
      assert_true(same_d(rb[b].w, w.w) && rb[b].v.u == w.v.u &&
                  rb[b].f.i == w.f.i);
    }
    up_recs_batched(n, p3, 3, o);
    for (size_t b = 0; b < n; b++)
      assert_true(
          same_bits_or_nan(&o[b], &(double){up_recs(p3 + 3 * b)}, 8, 1));
    memset(o, 0, n * 8);
    up_nodiff_grad(n, x, p, NULL, NULL, o);
    for (size_t b = 0; b < n; b++)
      if (!(o[b] == p[b].d || (isnan(o[b]) && isnan(p[b].d)))) {
        print_error("nodiff n=%zu b=%zu x=%a got %a want %a\n", n, b, x[b],
                    o[b], p[b].d);
        fail();
      }
    gp_reset();
  }
}

BITS1(un_expo, int, double, gen_d)
DIFF1(un_mant, double, CMP_STRICT, 0, V, double, gen_d)
BITS2(un_ldexp, double, double, gen_d, int, gen_k)
BITS1(un_rsqrt, float, float, gen_f)
BITS1(un_log2f, float, float, gen_f)
BITS1(un_back, double, double, gen_d)
BITS2(un_ints, long, double, gen_d, int, gen_small)
DIFF2(fd_copysign, double, CMP_STRICT, 0, V, double, gen_d, V, double, gen_d)
DIFF1(fd_frexp_m, double, CMP_BITS, 0, V, double, gen_d)
BITS1(fd_frexp_e, int, double, gen_d)
BITS1(fd_log2, double, double, gen_d)
BITS2(fd_scale, double, double, gen_d, int, gen_k)
DIFF1(fd_trunc_lo, double, CMP_STRICT, 0, V, double, gen_d)
DIFF2(un_words, double, CMP_STRICT, 0, V, double, gen_d, V, int, gen_small)
BITS1(un_short, int, double, gen_d)
DIFF1(mc_words, double, CMP_STRICT, 0, V, double, gen_d)
BITS2(mc_pair, uint64_t, float, gen_f, float, gen_f)
DIFF2(mc_fwords, float, CMP_STRICT, 0, V, float, gen_f, V, float, gen_f)
BITS1(un_halves, float, double, gen_d)
BITS1(un_helpers, double, double, gen_d)
BITS2(un_nested, double, double, gen_d, int, gen_small)
DIFF2(un_unif, double, CMP_BITS, 0, V, double, gen_d, U, double, gen_d)

/* The words are little-endian's and the functions fdlibm's: against libm. */
static void diff_libm(void **state_) {
  (void)state_;
  enum { N = 64 };
  rng_t rng = {name_seed("unions_libm")};
  double *x = gp_alloc(N * 8), *y = gp_alloc(N * 8), *m = gp_alloc(N * 8);
  int *e = gp_alloc(N * sizeof(int));
  for (int b = 0; b < N; b++) {
    x[b] = gen_d(&rng);
    y[b] = gen_d(&rng);
  }
  fd_frexp_m_batched(N, x, m);
  fd_frexp_e_batched(N, x, e);
  for (int b = 0; b < N; b++) {
    int we;
    double wm = frexp(x[b], &we);
    if (isnan(x[b]))
      continue;
    if (wm != m[b] || (isfinite(x[b]) && we != e[b]))
      print_error("frexp(%a): %a %d, want %a %d\n", x[b], m[b], e[b], wm, we);
    assert_true(wm == m[b] && (!isfinite(x[b]) || we == e[b]));
  }
  fd_copysign_batched(N, x, y, m);
  for (int b = 0; b < N; b++)
    assert_true(memcmp(&m[b], &(double){copysign(x[b], y[b])}, 8) == 0);
  gp_reset();
}

/* Gradients, exactly: 2^k, +-2x (times 3), the rebuilt constant. */
static void diff_grads(void **state_) {
  (void)state_;
  enum { N = 37 };
  rng_t rng = {name_seed("unions_grads")};
  double *x = gp_alloc(N * sizeof(double)), *dx = gp_alloc(N * 8);
  int *k = gp_alloc(N * sizeof(int));
  for (int b = 0; b < N; b++) {
    x[b] = (double)(rng_below(&rng, 2001) - 1000) / 64;
    k[b] = rng_below(&rng, 61) - 30;
  }
  memset(dx, 0, N * 8);
  un_ldexp_grad(N, x, k, NULL, NULL, dx);
  for (int b = 0; b < N; b++) {
    if (dx[b] != ldexp(1.0, k[b]))
      print_error("un_ldexp b=%d: d_x %g, want 2^%d\n", b, dx[b], k[b]);
    assert_true(dx[b] == ldexp(1.0, k[b]));
  }
  memset(dx, 0, N * 8);
  fd_scale_grad(N, x, k, NULL, NULL, dx);
  for (int b = 0; b < N; b++)
    assert_true(dx[b] == ldexp(1.0, k[b]));
  memset(dx, 0, N * 8);
  un_back_grad(N, x, NULL, NULL, dx);
  for (int b = 0; b < N; b++) {
    double want = signbit(x[b]) ? -2 * x[b] : 6 * x[b];
    if (dx[b] != want)
      print_error("un_back b=%d: d_x %g, want %g\n", b, dx[b], want);
    assert_true(dx[b] == want);
  }
  memset(dx, 0, N * 8);
  double c = 0.3, c3 = nextafter(nextafter(nextafter(c, 1), 1), 1);
  un_unif_grad(N, x, c, NULL, NULL, dx);
  for (int b = 0; b < N; b++)
    assert_true(dx[b] == c3);
  gp_reset();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(un_expo),     T_(un_mant),     T_(un_ldexp),    T_(un_rsqrt),
      T_(un_log2f),    T_(un_back),     T_(un_ints),     T_(fd_copysign),
      T_(fd_frexp_m),  T_(fd_frexp_e),  T_(fd_log2),     T_(fd_scale),
      T_(fd_trunc_lo), T_(un_words),    T_(un_short),    T_(mc_words),
      T_(mc_pair),     T_(mc_fwords),   T_(un_halves),   T_(un_helpers),
      T_(un_nested),   T_(un_unif),     T_(libm),        T_(grads),       T_(params),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_unions", tests, NULL, NULL);
}
