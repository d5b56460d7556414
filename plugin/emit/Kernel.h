//===- Kernel.h - the per-chunk kernel of one function ---------*- C++ -*-===//
//
// Prints one always-inline C function that runs a batched IR function on
// one SIMD chunk of examples under an execution mask: varying values as
// bd_ vectors, uniform ones as C scalars, each op by its operand types.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_KERNEL_H
#define BATCHDIFF_EMIT_KERNEL_H

#include "emit/CText.h"
#include "ir/IR.h"

#include <string>

namespace batchdiff {

/// The kernel \p Name of the batched function \p F of flavor \p Fl (an
/// adjoint for Grad, a tangent function for Jvp). A printer: every SPMD
/// decision is in \p F already.
std::string emitKernel(const ir::Function &F, const std::string &Name,
                       Flavor Fl);

} // namespace batchdiff

#endif
