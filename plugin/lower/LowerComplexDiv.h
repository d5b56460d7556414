//===- LowerComplexDiv.h - division by a complex value ----------*- C++ -*-===//
#ifndef BATCHDIFF_LOWER_LOWERCOMPLEXDIV_H
#define BATCHDIFF_LOWER_LOWERCOMPLEXDIV_H

#include "ir/IR.h"

#include <utility>

namespace batchdiff {
namespace lowering {

/// (a + bi) / (c + di) in part type \p T (F32 or F64), as libgcc's
/// __divsc3 / __divdc3 compute it (LowerComplexDiv.cpp): the temps of the
/// quotient's real and imaginary parts.
std::pair<int, int> complexQuotient(ir::Builder &B, ir::Type T, int A, int Bi,
                                    int C, int D);

} // namespace lowering
} // namespace batchdiff

#endif
