//===- Simplify.cpp - the scalar IR simplifications, in order -------------===//
#include "transforms/simplify/Simplify.h"

#include "transforms/simplify/CommonSubexpr.h"
#include "transforms/simplify/ForwardVars.h"
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

void simplify(ir::Function &F) {
  simplifyDerivative(F);
  markMinMaxTies(F);
}

} // namespace batchdiff
