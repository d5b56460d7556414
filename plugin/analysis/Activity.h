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

/// The statement defining each temp that is a float constant (ConstF), or
/// null.
std::vector<const ir::Stmt *> floatConstants(const ir::Function &F);

/// \p S rounds to an integer by adding a constant whose unit in the last
/// place is 1 (the shift trick, `(x + 0x1.8p52) - 0x1.8p52`): it passes no
/// derivative, as rint. \p Consts: floatConstants(F).
bool roundsToInteger(const ir::Stmt &S, const ir::Function &F,
                     const std::vector<const ir::Stmt *> &Consts);

/// \p OfGradient: \p F is a reverse-mode function (NAME_grad's IR) to be
/// differentiated again (NAME_hvp): what is useful is what reaches its
/// gradient outputs, its shadow arrays and its output arrays (not the
/// return value), and tape slots carry activity from store to load.
Activity analyzeActivity(const ir::Function &F, bool OfGradient = false);

} // namespace batchdiff

#endif
