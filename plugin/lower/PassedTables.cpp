//===- PassedTables.cpp - tables a file only passes to outside calls ------===//
//
// A table that is not const is passed to calls made once per example only
// where nothing in the file but such calls uses it (PassedTables.h): then
// no batched code reads or writes it between the calls, and a callee that
// wrote it would only be seen by the calls after its own.
//
//===----------------------------------------------------------------------===//
#include "lower/PassedTables.h"
#include "lower/OmpSimd.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace batchdiff {
namespace lowering {

namespace {

bool isRef(const Expr *E, const VarDecl *G) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl()->getCanonicalDecl() == G;
}

/// Whether \p S uses \p G other than as a whole argument of a call of a
/// function without a body in the file.
bool usedOtherwise(const Stmt *S, const VarDecl *G) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl()->getCanonicalDecl() == G;
  // (sizeof P / sizeof P[0]: not evaluated.)
  if (isa<UnaryExprOrTypeTraitExpr>(S))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    bool Outside = FD && !FD->getBuiltinID() && !FD->hasBody();
    if (usedOtherwise(CE->getCallee(), G))
      return true;
    for (const Expr *A : CE->arguments())
      if (!(Outside && isRef(A, G)) && usedOtherwise(A, G))
        return true;
    return false;
  }
  for (const Stmt *C : astChildren(S))
    if (usedOtherwise(C, G))
      return true;
  return false;
}

} // namespace

bool onlyPassedOut(const VarDecl *G, ASTContext &Ctx) {
  G = G->getCanonicalDecl();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody() && usedOtherwise(FD->getBody(), G))
        return false;
    } else if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (usedOtherwise(VD->getInit(), G))
        return false;
    }
  }
  return true;
}

} // namespace lowering
} // namespace batchdiff
