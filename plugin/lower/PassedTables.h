//===- PassedTables.h - tables only passed to outside calls -*- C++ -*-===//
// Private to plugin/lower. Cephes' coefficient tables, `static double P[] =
// {...};`, are not const, and the file never reads them: it only passes
// them whole to polevl and p1evl, which another file defines. Such a table
// can be passed as it is to calls made once per example (docs/calls.md):
// no batched code reads it, so whatever the callees do with it they do in
// the calls, in the order the batch makes them.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace batchdiff {
namespace lowering {

/// Whether every use of file-scope array \p G in the translation unit (all
/// of it: call this once the file has ended) is as a whole argument of a
/// direct call of a function without a body in it that is not a builtin
/// (`polevl(x, P, 8)`, `mtherr(fname, DOMAIN)`); sizeof does not count.
bool onlyPassedOut(const clang::VarDecl *G, clang::ASTContext &Ctx);

} // namespace lowering
} // namespace batchdiff
