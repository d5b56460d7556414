//===- MinMaxTies.h - which zero fmin/fmax return on a tie ------*- C++ -*-===//
//
// fmin(-0.0, +0.0) may return either zero (C leaves it open). Clang's scalar
// code returns, on x86, the second operand when LLVM can prove it is not a
// NaN (a constant, an integer converted in the same block) and the first
// otherwise. The runtime's bd_fmin/bd_fmax return the first on a tie,
// always; this pass marks (IVal = 1) the calls whose scalar original most
// likely returns the second, and the emitter passes their operands swapped.
// A guess at what LLVM's optimiser leaves in one basic block: docs/abi.md
// lists where it can be wrong.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_MINMAXTIES_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_MINMAXTIES_H

#include "ir/IR.h"

namespace batchdiff {

void markMinMaxTies(ir::Function &F);

} // namespace batchdiff

#endif
