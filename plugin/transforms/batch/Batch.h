//===- Batch.h - scalar IR to batched IR -----------------------*- C++ -*-===//
//
// The SPMD transform: one function (a primal or an adjoint alike) becomes
// the batched IR described in ir/IR.h, which runs W examples at once.
// Per-lane branches become masked code (the current mask ANDed with the
// condition, each side skipped when no lane takes it, an all-lanes fast
// path where every lane goes the same way), per-lane loops run until no
// lane is left, reverse loops run each iteration for the lanes whose own
// loop ran that far, and writes and memory accesses carry their mask. All
// mask state lives here; the emitter prints the result. It knows nothing
// about derivatives.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_BATCH_BATCH_H
#define BATCHDIFF_TRANSFORMS_BATCH_BATCH_H

#include "analysis/Uniformity.h"
#include "ir/IR.h"

#include <set>
#include <string>

namespace batchdiff {

/// Cost units up to which a per-lane if is computed branch-free.
extern const int BranchFreeMaxCost;

/// What batching decided, for remarks.
struct BatchReport {
  /// Per-lane ifs computed on both sides and blended, and those whose sides
  /// run behind lane tests (scalar IR statements).
  std::set<const ir::Stmt *> BranchFree, Masked;
  /// Why Lanes.Interleave has its value.
  std::string ChainsWhy;
};

/// The batched form of \p F, by the varying/uniform facts \p U.
/// \p Chains (1, 2 or 4) overrides the heuristic choice of independent
/// chains (0: choose).
ir::Function batchFunction(const ir::Function &F, const Uniformity &U,
                           BatchReport *R = nullptr, unsigned Chains = 0);

} // namespace batchdiff

#endif
