//===- Diagnostics.h - batchdiff's diagnostics through clang ----*- C++ -*-===//
//
// Every message batchdiff prints goes through clang's DiagnosticsEngine, so
// -Werror, -w, -fno-diagnostics-color and friends behave as users expect.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_DIAGNOSTICS_H
#define BATCHDIFF_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace batchdiff {

/// Starts a diagnostic with a batchdiff-specific (custom) ID. \p Format uses
/// clang's format syntax (%0, %1, ...); the text is interned per engine.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags,
                                clang::DiagnosticsEngine::Level Level,
                                clang::SourceLocation Loc,
                                llvm::StringRef Format);

} // namespace batchdiff

#endif
