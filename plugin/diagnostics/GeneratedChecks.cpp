//===- GeneratedChecks.cpp - what the generated code must never do -------===//
//
// The generated code is a system buffer (inject/README.md), so clang hides
// its warnings, the ones that are errors by default too: a chunk function
// that passed a large local array where its kernel takes the arena
// (84c39ce) compiled without a word and crashed at run time. Conversions
// that correct generated code never makes implicitly are errors here,
// located in the generated code: between pointers to unrelated types (or
// dropping a qualifier), between pointers and integers, and calls of
// functions that are not declared.
//
//===----------------------------------------------------------------------===//

#include "diagnostics/GeneratedChecks.h"
#include "diagnostics/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace batchdiff {
namespace {

class Checker : public RecursiveASTVisitor<Checker> {
public:
  Checker(ASTContext &Ctx, DiagnosticsEngine &Diags) : Ctx(Ctx), Diags(Diags) {}

  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    QualType From = E->getSubExpr()->getType(), To = E->getType();
    switch (E->getCastKind()) {
    case CK_IntegralToPointer:
    case CK_PointerToIntegral:
      return bad(E->getExprLoc(), From, To);
    case CK_BitCast:
    case CK_NoOp:
      if (badPointers(From, To))
        return bad(E->getExprLoc(), From, To);
      return true;
    default:
      return true;
    }
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    // An implicit declaration (C89's, or C99's with the error hidden): the
    // generated code calls a function nothing declared. Builtins are
    // declared implicitly too.
    if (auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
      if (FD->isImplicit() && !FD->getBuiltinID() && !Reported) {
        Reported = true;
        report(Diags, DiagnosticsEngine::Error, E->getLocation(),
               "batchdiff internal error: the generated code calls %0, "
               "which is not declared (a bug of batchdiff; please report "
               "it with this file)")
            << FD;
      }
    return true;
  }

  bool Reported = false;

private:
  /// Pointers whose pointees are unrelated types (void aside), or whose
  /// target drops a qualifier of the source's pointee.
  bool badPointers(QualType From, QualType To) const {
    if (!From->isPointerType() || !To->isPointerType())
      return false;
    QualType F = From->getPointeeType(), T = To->getPointeeType();
    if (!T.isAtLeastAsQualifiedAs(F))
      return true;
    if (F->isVoidType() || T->isVoidType())
      return false;
    return !Ctx.typesAreCompatible(F.getUnqualifiedType(),
                                   T.getUnqualifiedType());
  }

  bool bad(SourceLocation Loc, QualType From, QualType To) {
    if (Reported)
      return true; // one per declaration: the first shows the bug
    Reported = true;
    report(Diags, DiagnosticsEngine::Error, Loc,
           "batchdiff internal error: the generated code converts %0 to %1 "
           "implicitly (a bug of batchdiff; please report it with this "
           "file)")
        << From << To;
    return true;
  }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
};

} // namespace

bool isGeneratedDecl(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(D->getLocation()));
  return P.isValid() &&
         llvm::StringRef(P.getFilename()).starts_with("<batchdiff:");
}

bool checkGeneratedDecl(Decl *D) {
  if (D->isInvalidDecl() || !isGeneratedDecl(D))
    return false;
  Checker C(D->getASTContext(), D->getASTContext().getDiagnostics());
  C.TraverseDecl(D);
  return C.Reported;
}

} // namespace batchdiff
