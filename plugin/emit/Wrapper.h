//===- Wrapper.h - the exported NAME_batched / NAME_grad -------*- C++ -*-===//
//
// Prints the function with the contract's ABI that walks the batch in
// chunks of W examples, loads each chunk's arguments (the last chunk
// partially), calls the kernel and stores or accumulates its outputs.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_WRAPPER_H
#define BATCHDIFF_EMIT_WRAPPER_H

#include "emit/CText.h"
#include "emit/Frame.h"
#include "ir/IR.h"

#include <string>

namespace batchdiff {

struct WrapperText {
  std::string Code;      // declaration and definition
  std::string Prototype; // user-facing parameter names, for a header
};

/// The wrapper of the batched function \p F of flavor \p Fl calling
/// kernel \p Kernel; \p Static: internal linkage. \p Deferred: the
/// kernel defers its math calls' rare-lane tests (emitKernel): each step
/// calls it, then Kernel + "c" when it reports a lane that needs them.
WrapperText emitWrapper(const ir::Function &F, Flavor Fl, bool Static,
                        const std::string &Kernel, bool Deferred = false,
                        std::vector<KeepArray> Keeps = {});

/// The wrapper's declaration (no ';'); \p Reserved: the parameter names of
/// the generated code rather than the user-facing ones. Needs only \p F's
/// Params and return type, so the unbatched IR does.
std::string wrapperPrototype(const ir::Function &F, Flavor Fl, bool Static,
                             bool Reserved);

} // namespace batchdiff

#endif
