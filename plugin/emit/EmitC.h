//===- EmitC.h - batched IR to C over the bd_ vector API -------*- C++ -*-===//
//
// Prints readable C: one always-inline kernel per function that works on one
// SIMD chunk under an execution mask, and the exported wrappers with the ABI
// of the contract (NAME_batched, NAME_grad, NAME_jvp) that loop over chunks and
// handle the tail. The vector width comes from the compile flags through the
// runtime's BD_WN/BD_WD, so the text is the same for every ISA.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_EMITC_H
#define BATCHDIFF_EMIT_EMITC_H

#include "ir/IR.h"

#include <string>

namespace batchdiff {

struct EmitInput {
  const ir::Function *Primal = nullptr; // batched IR of the primal, or null
  const ir::Function *Grad = nullptr;   // batched IR of the adjoint, or null
  const ir::Function *Jvp = nullptr;    // batched IR of forward mode, or null
  const ir::Function *Hvp = nullptr;    // batched IR of NAME_hvp, or null
  bool Static = false;        // original function has internal linkage
  bool IncludeRuntime = true; // emit #include of the runtime headers
  bool MathOutline = false;   // costly math through bd_ool_* (math=outline)
  bool DeferMath = true;      // rare-lane tests once per step (emitKernel)
  bool RaggedBlocks = true;   // ragged rows read in blocks (KernelRagged.cpp)
  std::string FileDecls;      // declarations the definitions need first
  /// lower/Lower.h's abiDeclaration of NAME_batched and NAME_grad.
  std::string AbiBatched, AbiGrad;
  /// lower/Lower.h's LowerInfo::AbiGradDeclared: defined too, if not empty.
  std::string AbiGradDeclared;
  /// lower/Lower.h's LowerInfo::SetsNoGlobal, UsesNoGlobal: symbols said
  /// so for the callers of other files (emit/BatchedCall.h).
  bool SetsNoGlobal = false, UsesNoGlobal = false;
  /// lower/Lower.h's LowerInfo::SetsGlobals.
  std::vector<std::string> SetsGlobals;
  /// lower/Lower.h's LowerInfo::InPlace (with NAME_grad only).
  std::vector<std::pair<std::string, std::vector<std::string>>> InPlace;
};

struct EmitOutput {
  std::string Code;       // definitions to inject
  std::string Prototypes; // declarations for a header
};

EmitOutput emitC(const EmitInput &In);

/// Only the declarations of the functions emitC would define, from the
/// unbatched IR of the primal (its Params and return type): In.Primal asks
/// for NAME_batched, In.Grad for NAME_grad, In.Jvp for NAME_jvp, In.Hvp for
/// NAME_hvp (all may be the same function).
EmitOutput emitDeclarations(const EmitInput &In);

} // namespace batchdiff

#endif
