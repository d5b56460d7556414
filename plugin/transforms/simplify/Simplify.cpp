//===- Simplify.cpp - the scalar IR simplifications, in order -------------===//
#include "transforms/simplify/Simplify.h"

#include "transforms/simplify/CommonSubexpr.h"
#include "transforms/simplify/ForwardVars.h"
#include "transforms/simplify/HoistInvariants.h"
#include "transforms/simplify/MinMaxTies.h"

namespace batchdiff {

void simplify(ir::Function &F) {
  forwardVars(F);
  hoistInvariants(F);
  commonSubexpr(F);
  ir::pruneDeadStores(F);
  markMinMaxTies(F);
}

} // namespace batchdiff
