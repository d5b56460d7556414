//===- RecursiveHelpers.h - helpers generated without a mark ---*- C++ -*-===//
//
// A static helper that recurses, called (directly or through other helpers)
// by a function marked diff: its recursive call carries a derivative only
// through the helper's own NAME_grad, so the plugin generates that as if
// the helper were marked batch, diff (docs/calls.md, "Recursion"). The
// helper's own code is left as it is; what is generated is static.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_RECURSIVEHELPERS_H
#define BATCHDIFF_LOWER_RECURSIVEHELPERS_H

#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace batchdiff {

/// A helper to generate and the first call (in \p Top's inlining order)
/// that recurses into it.
struct RecursiveHelper {
  const clang::FunctionDecl *FD = nullptr; // its definition
  const clang::CallExpr *Call = nullptr;
};

/// The static, unmarked helpers \p Top (marked diff) reaches by inlining
/// that are called recursively, in source order, where a recursive call
/// could carry a derivative: a floating result and a floating parameter,
/// numbers only as parameters, defined before \p Top. Helpers defined after
/// \p Top, or visible to other files, are left to the usual error.
std::vector<RecursiveHelper> recursiveHelpers(const clang::FunctionDecl *Top,
                                              clang::ASTContext &Ctx);

} // namespace batchdiff

#endif
