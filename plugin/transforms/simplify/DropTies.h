//===- DropTies.h - the derivatives' ties, once they are made --*- C++ -*-===//
//
// Op::Tie(v, a0, p0, ...) gives a batched call's result v (another file's
// NAME_batched or NAME_grad, lower/LowerBatchedCall.cpp) its derivative:
// the partials p_k times a_k's. Once the derivatives are made (or where
// none are: NAME_batched), each use of a tie reads v itself, and the
// partials nothing else reads are dropped, so that a call whose partials
// are not needed is made through NAME_batched (emit/BatchedCall.h).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_DROPTIES_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_DROPTIES_H

#include "ir/IR.h"

namespace batchdiff {

void dropTies(ir::Function &F);

} // namespace batchdiff

#endif
