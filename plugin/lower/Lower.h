//===- Lower.h - clang AST to batchdiff IR ---------------------*- C++ -*-===//
//
// The only pass that reads clang's AST. Everything outside the supported
// subset is reported here, at its source location, through clang's
// DiagnosticsEngine; nothing after lowering can fail on user input.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_LOWER_H
#define BATCHDIFF_LOWER_LOWER_H

#include "ir/IR.h"

#include "clang/Basic/SourceLocation.h"

namespace clang {
class FunctionDecl;
class Sema;
} // namespace clang

namespace batchdiff {

/// What lowering learns about a definition besides its IR.
struct LowerInfo {
  clang::SourceLocation Loc;  // the definition, where remarks go
  bool Static = false;        // generated functions get internal linkage
  bool IncludeRuntime = true; // the runtime headers are not declared yet
};

/// Lowers the definition \p FD into \p Out. Calls to other annotated
/// functions and to static (inline) helpers are inlined. With \p WantGrad,
/// calls without a derivative rule whose value is differentiated are errors.
/// With \p Remarks, reports how each parameter is batched. Returns false
/// after reporting at least one error.
bool lowerFunction(const clang::FunctionDecl *FD, clang::Sema &S, bool WantGrad,
                   bool Remarks, ir::Function &Out, LowerInfo &Info);

} // namespace batchdiff

#endif
