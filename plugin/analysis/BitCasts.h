//===- BitCasts.h - derivatives that would be lost in integer bits -*- C++
//-*-===//
//
// A bit cast (memcpy between a double and a uint64_t) has no derivative:
// a float's bits turned into an integer, changed by integer arithmetic and
// turned back into a float (fdlibm's SET_HIGH_WORD, a hand-written frexp)
// carry the float's derivative in a way no rule can follow. Activity looks
// only at floats, so such a float would silently get a zero derivative.
// Bits read from a float that carries no derivative, or integers that
// never become a float's bits again (a sign or exponent test), are fine.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_ANALYSIS_BITCASTS_H
#define BATCHDIFF_ANALYSIS_BITCASTS_H

#include "ir/IR.h"

#include <vector>

namespace batchdiff {

/// The integer-to-float Bitcast statements of \p F whose integer operand
/// depends, through integer operations and variables, on a float-to-integer
/// Bitcast of a float that depends on a differentiable parameter.
std::vector<const ir::Stmt *> derivativeLosingBitcasts(const ir::Function &F);

} // namespace batchdiff

#endif
