//===- HoistInvariants.h - loop-invariant code motion ----------*- C++ -*-===//
//
// Pure operations in a loop body whose operands are all defined before the
// loop move in front of it: they run once, and the gradient's tape never
// stores them per iteration.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_HOISTINVARIANTS_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_HOISTINVARIANTS_H

#include "ir/IR.h"

namespace batchdiff {

void hoistInvariants(ir::Function &F);

} // namespace batchdiff

#endif
