//===- Diagnostics.cpp - batchdiff's diagnostics through clang ------------===//

#include "diagnostics/Diagnostics.h"

namespace batchdiff {

clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags,
                                clang::DiagnosticsEngine::Level Level,
                                clang::SourceLocation Loc,
                                llvm::StringRef Format) {
  // DiagnosticIDs deduplicates identical (level, text) pairs, so asking for
  // the ID on every report is cheap and keeps call sites one line.
  unsigned ID = Diags.getDiagnosticIDs()->getCustomDiagID(
      static_cast<clang::DiagnosticIDs::Level>(Level), Format);
  return Diags.Report(Loc, ID);
}

} // namespace batchdiff
