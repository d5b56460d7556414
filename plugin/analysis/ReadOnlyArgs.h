//===- ReadOnlyArgs.h - array parameters nothing writes ---------*- C++ -*-===//
//
// A `const` array parameter that the function never stores into holds the
// same elements wherever the function reads them, so two reads of one
// element give one value (CommonSubexpr merges them), and a read in a loop
// at an index fixed before the loop can move in front of it
// (HoistInvariants) where the element is one the caller must provide.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_ANALYSIS_READONLYARGS_H
#define BATCHDIFF_ANALYSIS_READONLYARGS_H

#include "ir/IR.h"

#include <vector>

namespace batchdiff {

/// Per parameter of \p F: true for an array parameter that is not
/// writable and that no StoreArg of \p F writes.
std::vector<bool> readOnlyArgs(const ir::Function &F);

} // namespace batchdiff

#endif
