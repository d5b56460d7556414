//===- Outputs.h - emit=DIR and header=FILE side files ----------*- C++ -*-===//
#ifndef BATCHDIFF_OUTPUTS_H
#define BATCHDIFF_OUTPUTS_H

#include "Options.h"

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class DiagnosticsEngine;
class SourceManager;
} // namespace clang

namespace batchdiff {

/// Writes DIR/<main file>.batchdiff.c (all generated code, in order) when
/// emit=DIR is set and FILE (all prototypes, with an include guard) when
/// header=FILE is set. I/O failures are reported as errors.
void writeOutputs(clang::DiagnosticsEngine &Diags,
                  const clang::SourceManager &SM, const Options &Opts,
                  llvm::ArrayRef<Generated> All);

} // namespace batchdiff

#endif
