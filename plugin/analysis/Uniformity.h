//===- Uniformity.h - which values differ per example ----------*- C++ -*-===//
//
// For one scalar IR function (a primal or an adjoint alike): which temps and
// variables are varying (may differ between the examples of a batch) and
// which uniform (the same for all), which branches and loops therefore
// differ per lane, which variable writes must keep the values of lanes that
// do not take them, and the lane shape. Read-only; the batch transform acts
// on it. It knows nothing about derivatives.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_ANALYSIS_UNIFORMITY_H
#define BATCHDIFF_ANALYSIS_UNIFORMITY_H

#include "ir/IR.h"

#include <map>
#include <string>
#include <vector>

namespace batchdiff {

struct Uniformity {
  /// Shape d (lanes of 64 bits) when any double or 64-bit integer appears,
  /// else shape n (lanes of 32 bits, twice as many).
  bool Wide = false;
  std::vector<bool> VaryingTemp, VaryingVar;
  /// If/Loop statements whose condition differs per lane.
  std::map<const ir::Stmt *, bool> VaryingCond;
  /// Writes (SetVar, StoreElem, ZeroArr) to a varying variable declared
  /// outside a per-lane branch or loop they are in: they must keep the
  /// values of the lanes that are off.
  std::map<const ir::Stmt *, bool> NeedsBlend;

  std::string print(const ir::Function &F) const;
};

Uniformity analyzeUniformity(const ir::Function &F);

} // namespace batchdiff

#endif
