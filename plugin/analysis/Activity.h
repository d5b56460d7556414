//===- Activity.h - which values carry derivatives -------------*- C++ -*-===//
//
// A temp or variable is active when it depends on a differentiable parameter
// (varied) and influences the return value (useful). Only active values get
// adjoints, so work that cannot reach a gradient is never emitted.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_ANALYSIS_ACTIVITY_H
#define BATCHDIFF_ANALYSIS_ACTIVITY_H

#include "ir/IR.h"

#include <string>
#include <vector>

namespace batchdiff {

struct Activity {
  std::vector<bool> Temp, Var;
  std::string print(const ir::Function &F) const;
};

/// True if parameter \p P of \p F receives a gradient.
bool isDifferentiable(const ir::Param &P);

Activity analyzeActivity(const ir::Function &F);

} // namespace batchdiff

#endif
