//===- Rules.h - derivative rules from the tables --------------*- C++ -*-===//
//
// Builds one rule of transforms/ad/Derivatives.def or ir/Math.def as IR.
// Both AD modes use it: a rule is the partial derivative of an operation's
// result in one argument, times G, and linear in G, so reverse mode binds G
// to the result's adjoint and adds the rule to the argument's adjoint, and
// forward mode binds G to the argument's tangent and sums the rules of all
// arguments into the result's tangent.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_AD_RULES_H
#define BATCHDIFF_TRANSFORMS_AD_RULES_H

#include "ir/IR.h"

#include <functional>

namespace batchdiff {

/// The rule of argument \p K of instruction \p S, built with \p B, with G
/// bound to temp \p G. \p Val maps a temp of \p S (argument or result) to
/// the temp holding its value where the rule is built; \p Into is the type
/// the rule's value is added to (what CONVERT converts to). Returns -1 when
/// the argument has no rule (a zero partial derivative). \p Reuse, when
/// given, returns a temp that already holds MATH(Fn, Args) where the rule is
/// built (the primal's own call), or -1: the rule then builds the call.
using MathReuse = std::function<int(ir::MathFn, const std::vector<int> &)>;
int derivativeRule(ir::Builder &B, const ir::Stmt &S, unsigned K, int G,
                   ir::Type Into, const std::function<int(int)> &Val,
                   const MathReuse &Reuse = nullptr);

/// Forward mode: the tangent of \p S from both arguments' tangents \p G0 and
/// \p G1 at once, by S's BD_OP_TANGENT2 rule (Derivatives.def), or -1 when
/// it has none (then the tangent is the sum of the two derivativeRule's).
int tangentPairRule(ir::Builder &B, const ir::Stmt &S, int G0, int G1,
                    const std::function<int(int)> &Val);

/// Whether \p Fn has a partial that can be infinite or NaN where its value
/// is finite (BD_MATH_STEEP, Derivatives.def): forward mode adds such a
/// partial's product only where the argument's tangent is nonzero.
bool mathSteep(ir::MathFn Fn);

} // namespace batchdiff

#endif
