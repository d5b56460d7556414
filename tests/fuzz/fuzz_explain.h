/* The explanations of tests/fuzz/fuzz_harness.h's check 1 (and 4) for a
 * batched result that is not the scalar one, each through the tie twin
 * (markers.py, "zt"): a tie of zeros in fmin/fmax (zero_tie), a NaN's
 * sign carried into a value (nan_sign), math results one ULP off (ulp).
 * Included by fuzz_harness.h after fz_fn and fz_st. */
#ifndef BATCHDIFF_FUZZ_EXPLAIN_H
#define BATCHDIFF_FUZZ_EXPLAIN_H

/* fmin/fmax of the tie twins. Which zero fmin(-0.0, +0.0) returns is open
 * (docs/abi.md, "Accuracy"): the batched code follows LLVM's x86 rule,
 * but LLVM's optimiser can change the scalar function's choice where the
 * plugin cannot see it (the SLP vectorizer packing two fmaxf into one
 * maxps whose NaN-safe lowering takes the other operand: seed 201, SSE2).
 * A result that differs from the scalar one only in the sign of a zero is
 * accepted where the example's scalar path had such a tie. */
static long fz_ties;
#define FZ_TIE(name, T, fn)                                                    \
  static inline T name(T a, T b) {                                             \
    if (a == 0 && b == 0 && signbit(a) != signbit(b))                          \
      fz_ties++;                                                               \
    return fn(a, b);                                                           \
  }
FZ_TIE(fz_tie_fmin, double, fmin)
FZ_TIE(fz_tie_fmax, double, fmax)
FZ_TIE(fz_tie_fminf, float, fminf)
FZ_TIE(fz_tie_fmaxf, float, fmaxf)

/* got and want are zeros of opposite signs and the scalar path at x had a
 * tie of zeros in fmin/fmax. */
static int fz_zero_tie(const fz_fn *f, const double *x, double got,
                       double want) {
  if (!(got == 0 && want == 0 && signbit(got) != signbit(want)))
    return 0;
  fz_ties = 0;
  (void)f->tie(x);
  if (!fz_ties)
    return 0;
  fz_st.zero_tie++;
  return 1;
}

/* The tie twins' sign reads (markers.py): copysign's second operand,
 * signbit's, and a value whose bits are read (copied into an integer,
 * written into a union: fz_nsign) note a NaN there. A NaN's sign is
 * unspecified (docs/abi.md: the runtime's vector cosf(+NaN) is the
 * default NaN, sign set, glibc's keeps +NaN), and these operations carry
 * it into a non-NaN value: copysignf(2, w - cosf(NaN)) is 2 scalar, -2
 * batched (seed 46 of --features all). A difference from the scalar
 * result is accepted (counted as nan_sign) only where the example's
 * scalar path took a sign from a NaN. */
static long fz_nans;
static inline double fz_nsign_d(double x) {
  fz_nans += isnan(x) != 0;
  return x;
}
static inline float fz_nsign_f(float x) {
  fz_nans += isnan(x) != 0;
  return x;
}
#define fz_nsign(x) _Generic((x), float : fz_nsign_f, default : fz_nsign_d)(x)
static inline double fz_nsign_copysign(double a, double b) {
  return copysign(a, fz_nsign_d(b));
}
static inline float fz_nsign_copysignf(float a, float b) {
  return copysignf(a, fz_nsign_f(b));
}
#define fz_nsign_signbit(x) signbit(fz_nsign(x))

/* The scalar path at x took a sign from a NaN (the tie twin tells). */
static int fz_nan_sign(const fz_fn *f, const double *x) {
  fz_nans = 0;
  (void)f->tie(x);
  if (!fz_nans)
    return 0;
  fz_st.nan_sign++;
  return 1;
}

/* The tie twins' exp/log/sin/cos/tanh (markers.py): libm's value, or with
 * fz_ulp_mode != 0 one ULP up (mode 1), down (2) or, call by call, either
 * (a pattern per mode). The runtime's vector math is within 1 ULP of the
 * exact value and libm's within about half of one, so the two may differ by
 * one ULP per call: where such a difference decides a branch or a
 * truncation to int, the paths part by far more than check 1's tolerance
 * while input perturbations see nothing (seed 310: (int) of cosf(x) near
 * 1, cos flat there). Such a difference is no bug if the scalar function
 * itself, its math results nudged by one ULP, gives the batched result. */
static int fz_ulp_mode;
static unsigned fz_ulp_call;
static int fz_ulp_up(void) {
  unsigned k = fz_ulp_call++;
  if (fz_ulp_mode <= 2)
    return fz_ulp_mode == 1;
  uint64_t h = (uint64_t)(k + 1) * 0x9E3779B97F4A7C15ull ^
               (uint64_t)fz_ulp_mode * 0xBF58476D1CE4E5B9ull;
  h ^= h >> 31;
  return (int)((h * 0x94D049BB133111EBull) >> 63);
}
#define FZ_ULP(name, T, fn, next, inf)                                         \
  static inline T name(T x) {                                                  \
    T v = fn(x);                                                               \
    if (!fz_ulp_mode || !isfinite(v))                                          \
      return v;                                                                \
    return next(v, fz_ulp_up() ? (inf) : -(inf));                              \
  }
FZ_ULP(fz_ulp_exp, double, exp, nextafter, INFINITY)
FZ_ULP(fz_ulp_log, double, log, nextafter, INFINITY)
FZ_ULP(fz_ulp_sin, double, sin, nextafter, INFINITY)
FZ_ULP(fz_ulp_cos, double, cos, nextafter, INFINITY)
FZ_ULP(fz_ulp_tanh, double, tanh, nextafter, INFINITY)
FZ_ULP(fz_ulp_expf, float, expf, nextafterf, INFINITY)
FZ_ULP(fz_ulp_logf, float, logf, nextafterf, INFINITY)
FZ_ULP(fz_ulp_sinf, float, sinf, nextafterf, INFINITY)
FZ_ULP(fz_ulp_cosf, float, cosf, nextafterf, INFINITY)
FZ_ULP(fz_ulp_tanhf, float, tanhf, nextafterf, INFINITY)
/* --features math2: the runtime's lgamma/tgamma are within 1 ULP too */
FZ_ULP(fz_ulp_lgamma, double, lgamma, nextafter, INFINITY)
FZ_ULP(fz_ulp_tgamma, double, tgamma, nextafter, INFINITY)
FZ_ULP(fz_ulp_lgammaf, float, lgammaf, nextafterf, INFINITY)
FZ_ULP(fz_ulp_tgammaf, float, tgammaf, nextafterf, INFINITY)

/* The scalar function at x with its math results one ULP off (all up, all
 * down, 14 mixed patterns) gives got within tolerance tol. */
static int fz_ulp_explains(const fz_fn *f, const double *x, double got,
                           double tol) {
  int ok = 0;
  for (int mode = 1; mode <= 16 && !ok; mode++) {
    fz_ulp_mode = mode;
    fz_ulp_call = 0;
    double y = f->tie(x);
    ok = (isnan(y) && isnan(got)) || y == got ||
         fabs(y - got) <= tol * fmax(1.0, fabs(y));
  }
  fz_ulp_mode = 0;
  return ok;
}

#endif
