//===- Forward.h - forward-mode differentiation of the IR ------*- C++ -*-===//
//
// Works on the scalar IR and knows nothing about batching: the result is an
// ordinary IR function (the primal with each active value's tangent
// computed next to it, no tape) that the batcher vectorizes like a primal.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_AD_FORWARD_H
#define BATCHDIFF_TRANSFORMS_AD_FORWARD_H

#include "analysis/Activity.h"
#include "ir/IR.h"

namespace batchdiff {

/// Returns `NAME_jvp` as IR: the primal's parameters plus one tangent
/// parameter per differentiable scalar parameter and one need flag per
/// differentiable array parameter (its tangent array is read and written
/// with the Shadow ops); outputs are the return value and its tangent.
///
/// \p OverGradient: \p Primal is NAME_grad's IR (before batching) and the
/// result NAME_hvp, forward over reverse: tangent arrays are the
/// parameters' second arrays (Stmt::Shadow 1), the gradient's shadow
/// accesses get their tangents in the third (the H·v shadow, 2), tape
/// slots of active values get a slot for their tangent, and the outputs
/// are the gradient's plus each gradient's tangent (OutKind::HvAdjoint)
/// instead of the return value's tangent. \p A must come from
/// analyzeActivity(Primal, true).
ir::Function differentiateForward(const ir::Function &Primal, const Activity &A,
                                  bool OverGradient = false);

} // namespace batchdiff

#endif
