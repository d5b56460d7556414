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

namespace clang {
class FunctionDecl;
class Sema;
} // namespace clang

namespace batchdiff {

/// Lowers the definition \p FD into \p Out. Calls to other annotated
/// functions and to static (inline) helpers are inlined. Returns false after
/// reporting at least one error.
bool lowerFunction(const clang::FunctionDecl *FD, clang::Sema &S, bool WantGrad,
                   ir::Function &Out);

} // namespace batchdiff

#endif
