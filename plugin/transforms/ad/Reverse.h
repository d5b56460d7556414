//===- Reverse.h - reverse-mode differentiation of the IR ------*- C++ -*-===//
//
// Works on the scalar IR and knows nothing about batching: the result is an
// ordinary IR function (forward sweep, then reverse sweep) that the batcher
// vectorizes exactly like a primal.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_AD_REVERSE_H
#define BATCHDIFF_TRANSFORMS_AD_REVERSE_H

#include "analysis/Activity.h"
#include "ir/IR.h"

namespace batchdiff {

/// Returns `NAME_grad` as IR: the primal's parameters plus a seed parameter
/// (the cotangent of the return value); outputs are the return value and one
/// adjoint per differentiable parameter.
ir::Function differentiate(const ir::Function &Primal, const Activity &A);

} // namespace batchdiff

#endif
