//===- CommonSubexpr.h - reuse identical pure computations -----*- C++ -*-===//
//
// A pure operation identical to one computed earlier on the same path
// (before it in its block, or in an enclosing block) reuses that result.
// With \p Only, only the operations it accepts.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_COMMONSUBEXPR_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_COMMONSUBEXPR_H

#include "ir/IR.h"

namespace batchdiff {

void commonSubexpr(ir::Function &F, bool (*Only)(ir::Op) = nullptr);

} // namespace batchdiff

#endif
