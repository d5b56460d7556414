//===- Simplify.h - the scalar IR simplifications, in order ----*- C++ -*-===//
//
// Forward variables, hoist loop invariants, merge common subexpressions,
// drop dead stores and fuse log1p(exp(a)) (FuseMath.h): what the pipeline
// runs on lowered IR. Lowering runs the
// same on a copy to learn which calls are differentiated.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_SIMPLIFY_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_SIMPLIFY_H

#include "ir/IR.h"

namespace batchdiff {

void simplify(ir::Function &F);

// The same without min/max tie marking, for NAME_jvp's and NAME_hvp's IR.
void simplifyDerivative(ir::Function &F);

} // namespace batchdiff

#endif
