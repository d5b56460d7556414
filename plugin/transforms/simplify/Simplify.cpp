//===- Simplify.cpp - the scalar IR simplifications, in order -------------===//
#include "transforms/simplify/Simplify.h"

#include "transforms/simplify/CommonSubexpr.h"
#include "transforms/simplify/ForwardVars.h"
#include "transforms/simplify/FuseMath.h"
#include "transforms/simplify/HoistInvariants.h"
#include "transforms/simplify/MinMaxTies.h"

namespace batchdiff {

// Forward mode's products repeat what the primal computes (sin's rule and
// its derivative both need cos): merge them as in the primal. Min/max ties
// were marked on the primal already.
void simplifyDerivative(ir::Function &F) {
  forwardVars(F);
  hoistInvariants(F);
  commonSubexpr(F);
  ir::pruneDeadStores(F);
}

// log1p(exp(a)) is fused after the merges (an exp read twice stays), on
// the primal only: every flavour computes the value from it, so NAME_grad's
// ret is NAME_batched's bits.
void simplify(ir::Function &F) {
  simplifyDerivative(F);
  fuseMath(F);
  markMinMaxTies(F);
}

} // namespace batchdiff
