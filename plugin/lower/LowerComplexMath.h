//===- LowerComplexMath.h - cexp, clog, csqrt -------------------*- C++ -*-===//
#ifndef BATCHDIFF_LOWER_LOWERCOMPLEXMATH_H
#define BATCHDIFF_LOWER_LOWERCOMPLEXMATH_H

#include "ir/IR.h"

#include <utility>

namespace batchdiff {
namespace lowering {

/// A complex result's two variables (named \p Name_re, \p Name_im), set to
/// a formula's parts in every lane, then set again in a rare branch
/// (If.Rare) for the lanes that need a special case: the product's and the
/// quotient's recovery where both parts are NaN, cexp's, clog's and
/// csqrt's special cases.
class RareParts {
public:
  RareParts(ir::Builder &B, ir::Type T, const char *Name, int Re, int Im);
  /// Enters the rare branch, taken where \p Cond holds.
  void open(int Cond);
  /// Enters the rare branch, taken where both parts are NaN.
  void openBothNan();
  /// Sets the parts to \p Re, \p Im in the rare branch, leaves it, and
  /// returns the parts after it.
  std::pair<int, int> close(int Re, int Im);

private:
  ir::Builder &B;
  int ReV, ImV, Re0, Im0;
  ir::Block *Saved = nullptr;
};

/// <complex.h>'s exponential, logarithm and square root of x + iy in part
/// type \p T (F32 or F64), as glibc computes them (LowerComplexMath.cpp):
/// the temps of the result's real and imaginary parts.
std::pair<int, int> complexExp(ir::Builder &B, ir::Type T, int X, int Y);
std::pair<int, int> complexLog(ir::Builder &B, ir::Type T, int X, int Y);
std::pair<int, int> complexSqrt(ir::Builder &B, ir::Type T, int X, int Y);

} // namespace lowering
} // namespace batchdiff

#endif
