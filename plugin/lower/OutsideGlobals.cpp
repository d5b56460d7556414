//===- OutsideGlobals.cpp - globals outside functions may write -----------===//
//
// The globals a call made once per example may change under the batched
// function (OutsideGlobals.h): found over the annotated function and the
// bodies of the functions it calls, which are inlined into it.
//
//===----------------------------------------------------------------------===//
#include "lower/OutsideGlobals.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace batchdiff {
namespace lowering {

namespace {

struct Scan {
  ASTContext &Ctx;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  std::vector<const VarDecl *> Read;
  std::vector<const Stmt *> Bodies;
  bool Outside = false;
  /// Inlined bodies only: not those of calls passing a string literal
  /// (made once per example on the scalar function).
  bool Inlined = false;

  void body(const FunctionDecl *FD) {
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->hasBody() || !Seen.insert(Def).second)
      return;
    Bodies.push_back(Def->getBody());
    walk(Def->getBody());
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee()) {
        const FunctionDecl *Def = FD->getDefinition();
        bool String = false;
        for (const Expr *A : CE->arguments())
          String |= isa<StringLiteral>(A->IgnoreParenImpCasts());
        // (A string argument's call: its arguments are walked below.)
        if (Inlined && String)
          Def = nullptr;
        else if (!(Def && Def->hasBody()) && !FD->getBuiltinID() &&
                 !Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
          Outside = true;
        if (Def && Def->hasBody())
          body(Def);
      }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        VD = VD->getCanonicalDecl();
        QualType T = VD->getType();
        if (VD->hasGlobalStorage() && VD->hasExternalFormalLinkage() &&
            !T.isConstQualified() && !T.isVolatileQualified() &&
            T->isArithmeticType() && !T->isBooleanType() &&
            !T->isAnyComplexType() && irType(T) &&
            std::find(Read.begin(), Read.end(), VD) == Read.end())
          Read.push_back(VD);
      }
    for (const Stmt *C : astChildren(S))
      walk(C);
  }
};

} // namespace

std::vector<const VarDecl *> outsideWritable(const FunctionDecl *Top,
                                             ASTContext &Ctx) {
  Scan S{Ctx, {}, {}, {}};
  S.body(Top);
  std::vector<const VarDecl *> Out;
  if (!S.Outside)
    return Out;
  // (A global the function writes is one value per example already.)
  for (const VarDecl *VD : S.Read)
    if (std::none_of(S.Bodies.begin(), S.Bodies.end(),
                     [&](const Stmt *B) { return modifies(B, VD); }))
      Out.push_back(VD);
  return Out;
}

std::vector<const VarDecl *> assignedOutside(const FunctionDecl *Top,
                                             ASTContext &Ctx) {
  Scan S{Ctx, {}, {}, {}, true};
  S.body(Top);
  std::vector<const VarDecl *> Out;
  for (const VarDecl *VD : S.Read)
    if (std::any_of(S.Bodies.begin(), S.Bodies.end(),
                    [&](const Stmt *B) { return modifies(B, VD); }))
      Out.push_back(VD);
  return Out;
}

bool Lowerer::writtenLater(const VarDecl *VD) {
  // (Only after a call of another file's batch function, whose value of
  // the global can be read back: elsewhere read as before.)
  if (std::none_of(F.Externs.begin(), F.Externs.end(),
                   [](const ir::ExternCall &X) {
                     return X.Batched && !X.Batched->SameFile;
                   }))
    return false;
  if (!Assigned)
    Assigned = assignedOutside(Top, Ctx);
  VD = VD->getCanonicalDecl();
  return std::find(Assigned->begin(), Assigned->end(), VD) != Assigned->end();
}

} // namespace lowering
} // namespace batchdiff
