/* Differential tests, control flow: if/else nests, multiple early returns,
 * short-circuit && / || with side effects, ?: with cheap arms, with calls and
 * with side effects, calls to other annotated functions and to static inline
 * helpers (with their own early returns). Lanes of one SIMD chunk take
 * different paths because inputs are random per example. Bit-exact except
 * where noted. */
#include "exec_util.h"
#include "../common/test_filter.h"

/* ---- if/else and early returns ----------------------------------------- */

BATCHDIFF float nest_f(float x, float y) {
  float r = 0.0f;
  if (x > 0.0f) {
    if (y > x)
      r = y - x;
    else if (y > 0.0f)
      r = x * y;
    else {
      r = x;
      if (y < -10.0f)
        r = -r;
    }
  } else if (x < -1.0f) {
    r = y * 2.0f;
  } else {
    if (x != x) /* NaN */
      r = 42.0f;
    else
      r = x + y + 1.0f;
  }
  return r;
}

BATCHDIFF double early_d(double x, double y) {
  if (x != x)
    return -1.0;
  if (x > 10.0)
    return x * 2.0;
  double t = x * y;
  if (t < 0.0) {
    if (y > 3.0)
      return t - y;
    t = -t;
  }
  if (t > 100.0)
    return 100.0;
  t += 1.0;
  if (y == 0.0)
    return t; /* after modification */
  return t / y;
}

BATCHDIFF float early_nested(float x, int k) {
  float acc = x;
  if (k > 0) {
    acc *= 2.0f;
    if (k > 2) {
      if (x < 0.0f)
        return acc; /* deep early return */
      acc += 1.0f;
    }
    acc -= 0.5f;
  } else {
    if (k == 0)
      return -x;
    acc = acc * acc;
  }
  if (acc > 5.0f)
    return 5.0f;
  return acc + (float)k;
}

/* Return only at the end, from a variable assigned in every branch. */
BD_BATCH int early_int(int a, int b) {
  if (a < 0)
    return b;
  if (b < 0) {
    if (a > 3)
      return a - b;
    else
      return a + b;
  }
  return a * 2 + b;
}

BITS2(nest_f, float, float, gen_f, float, gen_f)
BITS2(early_d, double, double, gen_d, double, gen_d)
BITS2(early_nested, float, float, gen_f, int, gen_i32s)
BITS2(early_int, int, int, gen_i32s, int, gen_i32s)

/* ---- short-circuit with side effects --------------------------------------*/

BATCHDIFF float sc_and(float x, int k) {
  int c = 0;
  if (x > 0.0f && (c = k * 2) > 3)
    x += 1.0f;
  return x + (float)c;
}
BATCHDIFF float sc_or(float x, int k) {
  int c = 7;
  if (x > 0.0f || (c = k - 1) < 0)
    x *= 2.0f;
  return x + (float)c;
}
BATCHDIFF float sc_value(float x, int k) {
  /* `a && (x = ...)` as a value; x only changes where k > 0. */
  int r = (k > 0) && (x = x * 2.0f) > 1.0f;
  int s = (k < -2) || (x = x - 1.0f) < 0.0f;
  return x + (float)r * 10.0f + (float)s * 100.0f;
}
BATCHDIFF double sc_chain(double x, double y, int k) {
  int n = 0;
  int ok = (x > 0.0 && (n += 1) && y > 0.0 && (n += 2)) ||
           (k != 0 && (n += 4) && (y = y * 3.0) > 5.0);
  return y + n * 0.25 + ok;
}
BATCHDIFF float sc_incdec(float x, int k) {
  int j = k;
  if (k > 0 && j++ > 1)
    x += 1.0f;
  if (k < 0 || --j < 0)
    x -= 0.5f;
  return x * (float)j;
}

BITS2(sc_and, float, float, gen_f, int, gen_i32s)
BITS2(sc_or, float, float, gen_f, int, gen_i32s)
BITS2(sc_value, float, float, gen_f, int, gen_i32s)
BITS3(sc_chain, double, double, gen_d, double, gen_d, int, gen_i32s)
BITS2(sc_incdec, float, float, gen_f, int, gen_i32s)

/* ---- ?: ----------------------------------------------------------------- */

BATCHDIFF float tern_cheap(float x, float y) {
  return x > y ? (x < 0.0f ? -x : x) : (y != y ? 0.0f : y + 1.0f);
}
BATCHDIFF double tern_calls(double x) {
  /* Arms with math calls: only the taken arm's value matters. */
  return x > 0.0 ? log(x) : (x < -1.0 ? sqrt(-x) : exp(x));
}
BATCHDIFF float tern_side(float x, int k) {
  int c = 0;
  float y = k > 0 ? (c = 1, x * 2.0f) : (c = 2, x - 1.0f);
  return y + (float)c;
}
BATCHDIFF float tern_assign(float x, int k) {
  float a = 1.0f, b = 2.0f;
  k > 0 ? (a = x) : (b = x);
  return a * 10.0f + b;
}
BD_BATCH int tern_int(int a, int b) { return a > b ? a / (b | 1) : b % 3; }

BITS2(tern_cheap, float, float, gen_f, float, gen_f)
DIFF1(tern_calls, double, CMP_ULP, 2, V, double, gen_d)
BITS2(tern_side, float, float, gen_f, int, gen_i32s)
BITS2(tern_assign, float, float, gen_f, int, gen_i32s)
BITS2(tern_int, int, int, gen_i32s, int, gen_i32s)

/* ---- calls ----------------------------------------------------------------*/

static inline float clampf_h(float v, float lo, float hi) {
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}
static inline double piece_h(double x, int k) {
  if (k == 0)
    return x;
  double r = x * k;
  if (r > 4.0)
    return 4.0 + (r - 4.0) * 0.5;
  return r;
}
static inline int sign_h(double x) {
  if (x > 0.0)
    return 1;
  if (x < 0.0)
    return -1;
  return 0;
}
BATCHDIFF float callee_f(float x, float y) {
  if (x > y)
    return x - y;
  return x * y;
}
BATCHDIFF double callee_d(double x) { return x * x - 1.0; }
BD_BATCH int callee_i(int a) { return a > 2 ? a - 2 : -a; }

BATCHDIFF float call_helpers(float x, float y) {
  float c = clampf_h(x, -1.0f, 2.0f);
  return clampf_h(c * y, -3.0f, 3.0f) + c;
}
BATCHDIFF double call_mixed(double x, int k) {
  double r = piece_h(x, k) + sign_h(x);
  return r + callee_d(r) + callee_i(k);
}
BATCHDIFF float call_nested(float x, float y) {
  /* The callee's early return must not end the caller. */
  float a = callee_f(x, y);
  float b = callee_f(y, a);
  if (a > b)
    return callee_f(a, clampf_h(b, 0.0f, 1.0f));
  return a + b;
}
BATCHDIFF double call_in_cond(double x, double y) {
  if (callee_d(x) > y && sign_h(y) != 0)
    return callee_d(y);
  return x > 0.0 ? callee_d(x + 1.0) : piece_h(y, 2);
}

BITS2(call_helpers, float, float, gen_f, float, gen_f)
BITS2(call_mixed, double, double, gen_d, int, gen_i32s)
BITS2(call_nested, float, float, gen_f, float, gen_f)
BITS2(call_in_cond, double, double, gen_d, double, gen_d)

/* ---- uniform parameters of every type ---------------------------------- */

static int gen_i32m_c(rng_t *r) { return rng_below(r, 2000001) - 1000000; }

BATCHDIFF float uni_f(float x, BD_UNIFORM float w, BD_UNIFORM double dw) {
  return x > w ? x * w : (float)(x - dw);
}
BATCHDIFF double uni_d(BD_UNIFORM double w, double x, BD_UNIFORM int k) {
  if (k > 0)
    return x * w + k;
  return x - w;
}
BD_BATCH int uni_int(int a, BD_UNIFORM int b, BD_UNIFORM unsigned u,
                     BD_UNIFORM long l) {
  return (b != 0 && b != -1 ? a % b : a) + (int)(u >> 3) + (int)(l % 1000) + (a < b);
}
BD_BATCH int uni_small(BD_UNIFORM short s, BD_UNIFORM signed char c,
                       BD_UNIFORM _Bool bo, int a) {
  return s * c + bo + (a > s) + (unsigned char)(a + c);
}
BD_BATCH unsigned long uni_ul(BD_UNIFORM unsigned long u,
                              BD_UNIFORM unsigned char uc, unsigned long v) {
  return u / (v | 1) + uc * v;
}
BATCHDIFF double uni_only(BD_UNIFORM double w, BD_UNIFORM float f) {
  return w * f + 1.0; /* every lane the same */
}

DIFF3(uni_f, float, CMP_BITS, 0, V, float, gen_f, U, float, gen_f, U, double,
      gen_d)
DIFF3(uni_d, double, CMP_BITS, 0, U, double, gen_d, V, double, gen_d, U, int,
      gen_i32s)
DIFF4(uni_int, int, CMP_BITS, 0, V, int, gen_i32, U, int, gen_i32s, U,
      unsigned, gen_u32, U, long, gen_i64)
DIFF4(uni_small, int, CMP_BITS, 0, U, short, gen_i16, U, signed char, gen_i8,
      U, _Bool, gen_b, V, int, gen_i32m_c)
DIFF3(uni_ul, unsigned long, CMP_BITS, 0, U, unsigned long, gen_u64, U,
      unsigned char, gen_u8, V, unsigned long, gen_u64)
DIFF2(uni_only, double, CMP_BITS, 0, U, double, gen_d, U, float, gen_f)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(nest_f),       T_(early_d),     T_(early_nested), T_(early_int),
      T_(sc_and),       T_(sc_or),       T_(sc_value),     T_(sc_chain),
      T_(sc_incdec),    T_(tern_cheap),  T_(tern_calls),   T_(tern_side),
      T_(tern_assign),  T_(tern_int),    T_(call_helpers), T_(call_mixed),
      T_(call_nested),  T_(call_in_cond), T_(uni_f),       T_(uni_d),
      T_(uni_int),      T_(uni_small),   T_(uni_ul),       T_(uni_only),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_control", tests, NULL, NULL);
}
