//===- OmpSimd.h - walks that see through '#pragma omp simd' ---*- C++ -*-===//
//
// A loop under '#pragma omp simd' is an OMPSimdDirective whose statement is
// an outlined region (CapturedStmt, CapturedDecl) holding the loop. clang's
// Stmt::children() of a CapturedStmt are the variables it captures, not the
// loop, and the declarations inside the region (the loop's `int i`) belong
// to the CapturedDecl, not the function. The plugin's walks over function
// bodies use these helpers, so a variable used only inside such a loop is
// seen (OmpSimd.cpp; the directive is lowered by LowerOmp.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_OMPSIMD_H
#define BATCHDIFF_LOWER_OMPSIMD_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace batchdiff {

/// The children of \p S as the plugin's walks see them: clang's, except that
/// an outlined region (CapturedStmt) has its statement as its only child.
clang::Stmt::const_child_range astChildren(const clang::Stmt *S);

/// The context \p D is declared in, outlined regions (CapturedDecl) skipped:
/// the function for a local declared inside a '#pragma omp simd' loop.
const clang::DeclContext *declFunctionContext(const clang::Decl *D);

/// The function a local \p D is declared in, through outlined regions (as
/// Decl::getParentFunctionOrMethod, which stops at the region); null if none.
const clang::FunctionDecl *declFunction(const clang::Decl *D);

} // namespace batchdiff

#endif
