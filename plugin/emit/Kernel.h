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
#include "emit/Frame.h"
#include "ir/IR.h"

#include <string>

namespace batchdiff {

/// The kernel \p Name of the batched function \p F of flavor \p Fl (an
/// adjoint for Grad, a tangent function for Jvp). A printer: every SPMD
/// decision is in \p F already.
/// \p MathOutline: costly math calls the runtime's out-of-line copies
/// (bd_ool_*, one per file) instead of inline bodies (math=outline).
/// \p DeferMath: a kernel without side effects may call exp, log, log1p
/// and erfc without their rare-lane tests (bd_dfr_*), run again as a whole
/// by NAMEc (printed after it) when a lane needs them; *\p Deferred says
/// whether it does (the wrapper then calls it so: emitWrapper).
/// \p RaggedBlocks: reads of ragged rows at a loop's counter come from
/// blocks of W trips' elements (KernelRagged.cpp), not a gather per trip.
std::string emitKernel(const ir::Function &F, const std::string &Name,
                       Flavor Fl, bool MathOutline = false,
                       bool DeferMath = false, bool *Deferred = nullptr,
                       std::vector<KeepArray> *Keeps = nullptr,
                       bool RaggedBlocks = true);

} // namespace batchdiff

#endif
