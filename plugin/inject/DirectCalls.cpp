//===- DirectCalls.cpp - inline helpers called through &f ----------------===//
//
// See DirectCalls.h. The generated code calls always_inline helpers
// thousands of times per file (bd_splat_f64d alone about 100 times per
// annotated function); with 256- or 512-bit vectors in their signatures,
// clang's per-call ABI check cost more than its whole code generation of
// those calls (docs/compile-time.md, "The ABI check per call").
//
//===----------------------------------------------------------------------===//

#include "inject/DirectCalls.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace batchdiff {
namespace {

class ByAddress : public RecursiveASTVisitor<ByAddress> {
public:
  explicit ByAddress(ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitCallExpr(CallExpr *E) {
    auto *Decay = dyn_cast<ImplicitCastExpr>(E->getCallee());
    if (!Decay || Decay->getCastKind() != CK_FunctionToPointerDecay)
      return true;
    auto *Ref = dyn_cast<DeclRefExpr>(Decay->getSubExpr());
    auto *FD = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    if (!FD || FD->getBuiltinID() || !FD->hasAttr<AlwaysInlineAttr>() ||
        FD->hasAttr<TargetAttr>() || !wideVectors(E, FD))
      return true;
    // `&f` has the type the decay gave `f`: a pointer to its function type.
    E->setCallee(UnaryOperator::Create(
        Ctx, Ref, UO_AddrOf, Decay->getType(), VK_PRValue, OK_Ordinary,
        Ref->getBeginLoc(), /*CanOverflow=*/false, FPOptionsOverride()));
    return true;
  }

private:
  bool wide(QualType T) const {
    return T->isVectorType() && Ctx.getTypeSize(T) > 128;
  }

  /// What clang's check looks at: the arguments and the result.
  bool wideVectors(const CallExpr *E, const FunctionDecl *FD) const {
    if (wide(FD->getReturnType()))
      return true;
    for (const Expr *A : E->arguments())
      if (wide(A->getType()))
        return true;
    return false;
  }

  ASTContext &Ctx;
};

} // namespace

void callInlineHelpersByAddress(Decl *D) {
  ASTContext &Ctx = D->getASTContext();
  if (!Ctx.getLangOpts().Sanitize.empty())
    return;
  ByAddress(Ctx).TraverseDecl(D);
}

} // namespace batchdiff
