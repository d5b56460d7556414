//===- OutsideGlobals.h - globals outside functions may write --*- C++ -*-===//
// Private to plugin/lower. A global another file can name (`extern int
// sgngam;`), which cephes' lgam sets to the sign of the gamma function it
// returns the log of: beta reads it right after each call, `y = lgam(y);
// sign *= sgngam;`. A call made once per example (docs/calls.md) may write
// such a global, so the batched function reads it again after each such
// call, per example, as the scalar function would.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <vector>

namespace batchdiff {
namespace lowering {

/// The non-const scalar globals with external linkage (not _Bool) that
/// \p Top, or a function of this file it calls, reads and never assigns,
/// in the order first named; none unless one of them calls a function
/// without a body in the file that is not the C library's.
std::vector<const clang::VarDecl *>
outsideWritable(const clang::FunctionDecl *Top, clang::ASTContext &Ctx);

/// The same globals that \p Top, or a function of this file it calls,
/// assigns somewhere (read before that or not).
std::vector<const clang::VarDecl *>
assignedOutside(const clang::FunctionDecl *Top, clang::ASTContext &Ctx);

} // namespace lowering
} // namespace batchdiff
