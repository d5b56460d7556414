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

/// \p OfGradient: \p F is a reverse-mode function (NAME_grad's IR) to be
/// differentiated again (NAME_hvp): what is useful is what reaches its
/// gradient outputs, its shadow arrays and its output arrays (not the
/// return value), and tape slots carry activity from store to load.
Activity analyzeActivity(const ir::Function &F, bool OfGradient = false);

} // namespace batchdiff

#endif
