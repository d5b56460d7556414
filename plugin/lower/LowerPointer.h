//===- LowerPointer.h - what LowerPointer*.cpp share ------------*- C++ -*-===//
// Private to plugin/lower: LowerPointer.cpp lowers what a pointer
// expression points at, LowerPointerUse.cpp what is done with pointers
// (stores into pointer variables, differences and comparisons, accesses
// through them, declarations, memcpy/memset, extents found from accesses).
#pragma once
#include "clang/AST/Expr.h"

namespace batchdiff {
namespace lowering {
namespace pointers {

/// The variable \p E names, if it names one.
inline const clang::VarDecl *declOf(const clang::Expr *E) {
  const auto *DRE =
      llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
}

/// The fix of the errors about a pointer into two arrays.
inline constexpr const char *InsteadOne =
    "index one array, with an integer offset computed from the condition";

} // namespace pointers
} // namespace lowering
} // namespace batchdiff
