//===- NullLocals.h - where pointers set to NULL may be null ----*- C++ -*-===//
// Private to plugin/lower. A pointer local declared or assigned a null
// pointer (`const double *c = NULL;`, `c = 0;`), as numeric C writes before
// choosing a table on every path: the null state of each of its reads, from
// the paths that reach it (clang's CFG). The lowering generates nothing for
// the NULL itself, folds tests the state decides and refuses any read where
// the pointer is, or may be, null.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

namespace batchdiff {
namespace lowering {

/// The state of a pointer variable at a read: null on every path that
/// reaches it, assigned something else on every path (or never set to
/// null: a parameter's value, an uninitialized local), or null on some.
struct NullState {
  enum Kind : unsigned char { Unreached, Null, Assigned, Maybe } K = Unreached;
  /// Null, Maybe: the null pointer that reaches the read (the first one in
  /// the file, if several do).
  const clang::Expr *NullAt = nullptr;
};

/// Whether \p E is a null pointer: a null pointer constant (`0`, `NULL`,
/// `(void *)0`) or one converted to another pointer type (`(double *)0`).
bool isNullPointer(const clang::Expr *E, clang::ASTContext &Ctx);

/// \p E (in parentheses, or converted to another pointer type) a `?:` of
/// pointers one of whose arms is a null pointer (`x > 0 ? T : NULL`): that
/// `?:`; else null.
const clang::ConditionalOperator *nullArm(const clang::Expr *E,
                                          clang::ASTContext &Ctx);

/// Adds to \p Out the state at each read (DeclRefExpr) of every pointer
/// variable of \p FD that is initialized or assigned a null pointer (none
/// if there is no such variable). Reads in code no path reaches, and
/// unevaluated ones (sizeof), get no state. If clang cannot build the CFG,
/// every read of such a variable gets Maybe (refused, never wrong code).
void nullLocals(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
                llvm::DenseMap<const clang::DeclRefExpr *, NullState> &Out);

} // namespace lowering
} // namespace batchdiff
