/* Bit-exactness corners of contraction (issue 8, item 4; docs/abi.md,
 * "Accuracy"). A product of calls that clang's code generator does not fold
 * (fabsf of a literal) is an instruction, so clang contracts it into
 * llvm.fmuladd, and so must the batched code: bit-identical. The open
 * exception: a contracted product whose operands LLVM proves constant in
 * the scalar function only (here after unrolling a one-iteration loop)
 * is folded fused there and computed at run time in the batched code, which
 * without FMA instructions (the _sse2 build) rounds twice: at most 1 ULP
 * apart. Writing the product into a variable makes them agree everywhere. */
#include "exec_util.h"

#include "../common/test_filter.h"

BATCHDIFF float m_fold_f(float y) {
  return (0.125f / (1.0f + fabsf(0.125f))) * (0.125f / (1.0f + fabsf(0.125f))) +
         0.125f + y;
}
BATCHDIFF double m_fold_d(double y) {
  return (0.1 / (1.0 + fabs(0.3))) * (0.7 / (1.0 + fabs(0.3))) + 0.125 + y;
}
BITS1(m_fold_f, float, float, gen_f)
BITS1(m_fold_d, double, double, gen_d)

/* The exception, and its workaround. */
BATCHDIFF double m_unrolled(double x, int p0) {
  for (int i = 0; i < 1; i++) {
    double v = (x = ((-0.75) - (double)i) / (1.0 + fabs((-0.75) - (double)i)));
    int n = p0 % 8;
    while (n-- > 0) {
      if (x - v <= x)
        return fmin(x + x, 2.0);
    }
    return fmin(fmax(x - v * x, -4.0), 4.0);
  }
  return x;
}
BATCHDIFF double m_unrolled_tmp(double x, int p0) {
  for (int i = 0; i < 1; i++) {
    double v = (x = ((-0.75) - (double)i) / (1.0 + fabs((-0.75) - (double)i)));
    int n = p0 % 8;
    while (n-- > 0) {
      if (x - v <= x)
        return fmin(x + x, 2.0);
    }
    double p = v * x;
    return fmin(fmax(x - p, -4.0), 4.0);
  }
  return x;
}
DIFF2(m_unrolled, double, CMP_ULP, 1, V, double, gen_d, V, int, gen_i32)
BITS2(m_unrolled_tmp, double, double, gen_d, int, gen_i32)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(m_fold_f),
      T_(m_fold_d),
      T_(m_unrolled),
      T_(m_unrolled_tmp),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_corners", tests, NULL, NULL);
}
