//===- Kernel.h - the per-chunk kernel of one function ---------*- C++ -*-===//
//
// Prints one always-inline C function that runs a batched IR function on
// one SIMD chunk of examples under an execution mask.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_KERNEL_H
#define BATCHDIFF_EMIT_KERNEL_H

#include "ir/IR.h"
#include "transforms/batch/Batch.h"

#include <string>

namespace batchdiff {

/// The kernel \p Name of \p F (an adjoint when \p Grad).
std::string emitKernel(const ir::Function &F, const BatchPlan &P,
                       const std::string &Name, bool Grad);

} // namespace batchdiff

#endif
