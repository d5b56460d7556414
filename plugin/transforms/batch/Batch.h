//===- Batch.h - the batching decisions ------------------------*- C++ -*-===//
//
// Decides, for one IR function (a primal or an adjoint alike), what becomes a
// SIMD vector and what stays a scalar shared by the whole batch, which lane
// shape the function uses, and which variable writes need a mask blend. It
// knows nothing about derivatives.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_BATCH_BATCH_H
#define BATCHDIFF_TRANSFORMS_BATCH_BATCH_H

#include "ir/IR.h"

#include <map>
#include <string>
#include <vector>

namespace batchdiff {

struct BatchPlan {
  /// Shape d (lanes of 64 bits) when any double or 64-bit integer appears,
  /// else shape n (lanes of 32 bits, twice as many).
  bool Wide = false;
  std::vector<bool> VaryingTemp, VaryingVar;
  /// If/Loop statements whose condition differs per lane.
  std::map<const ir::Stmt *, bool> VaryingCond;
  /// SetVar statements that must blend under the current mask.
  std::map<const ir::Stmt *, bool> NeedsBlend;
  /// Temps used outside the block that defines them (declared up front).
  std::vector<bool> Hoisted;

  std::string print(const ir::Function &F) const;
};

BatchPlan planBatch(const ir::Function &F);

} // namespace batchdiff

#endif
