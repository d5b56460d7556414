//===- FixedGlobals.cpp - static structs no code changes ------------------===//
//
// changeOf walks every declaration of the file parsed so far with a
// RecursiveASTVisitor (parents before children, so a conversion to a
// pointer to const is seen before the address it converts) and stops at
// the first expression that may change the struct (FixedGlobals.h).
//
//===----------------------------------------------------------------------===//
#include "lower/FixedGlobals.h"

#include "diagnostics/Diagnostics.h"
#include "diagnostics/GeneratedChecks.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

using namespace clang;

namespace batchdiff {
namespace lowering {

namespace {

/// The variable \p E names through members ('.'), elements of arrays (not
/// through pointers), parentheses and casts that keep the lvalue.
const VarDecl *baseVar(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = AS->getBase()->IgnoreParens();
      const auto *IC = dyn_cast<ImplicitCastExpr>(Base);
      if (!IC || IC->getCastKind() != CK_ArrayToPointerDecay)
        return nullptr;
      E = IC->getSubExpr();
    } else if (const auto *IC = dyn_cast<ImplicitCastExpr>(E);
               IC && IC->getCastKind() == CK_NoOp) {
      E = IC->getSubExpr();
    } else if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      return VD ? VD->getCanonicalDecl() : nullptr;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool pointerToConst(QualType T) {
  return T->isPointerType() && T->getPointeeType().isConstQualified();
}

class ChangeFinder : public RecursiveASTVisitor<ChangeFinder> {
public:
  ChangeFinder(const VarDecl *VD, ASTContext &Ctx)
      : VD(VD->getCanonicalDecl()), Ctx(Ctx),
        Rec(Ctx.getBaseElementType(VD->getType())
                .getCanonicalType()
                .getUnqualifiedType()) {}

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    if (!isa<TranslationUnitDecl>(D) &&
        (SM.isInSystemHeader(D->getLocation()) || isGeneratedDecl(D)))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitCastExpr(CastExpr *C) {
    QualType To = C->getType();
    // What a pointer to const receives cannot change the struct.
    if (pointerToConst(To) &&
        (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_BitCast))
      ConstUse.insert(C->getSubExpr()->IgnoreParens());
    if (C->getCastKind() == CK_ArrayToPointerDecay &&
        baseVar(C->getSubExpr()) == VD && !ConstUse.count(C) &&
        !pointerToConst(To))
      return found(C);
    // Const cast away: a callee given a pointer to const could write
    // through it.
    if (isa<ExplicitCastExpr>(C) && To->isPointerType() &&
        pointerToConst(C->getSubExpr()->getType()) && !pointerToConst(To)) {
      QualType P = To->getPointeeType().getCanonicalType().getUnqualifiedType();
      if (P == Rec || P->isVoidType() || P->isPointerType())
        return found(C);
    }
    return true;
  }

  // An element's address or value: the element is what the other rules
  // see (`&T[k]`, `T[k].c = p`), not the array's decay to a pointer.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    ConstUse.insert(AS->getBase()->IgnoreParens());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *U) {
    if (baseVar(U->getSubExpr()) != VD)
      return true;
    if (U->isIncrementDecrementOp())
      return found(U);
    if (U->getOpcode() == UO_AddrOf && !ConstUse.count(U) &&
        !pointerToConst(U->getType()))
      return found(U);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && baseVar(B->getLHS()) == VD)
      return found(B);
    return true;
  }

  const Expr *Found = nullptr;

private:
  bool found(const Expr *E) {
    Found = E;
    return false;
  }

  const VarDecl *VD;
  ASTContext &Ctx;
  QualType Rec;
  llvm::SmallPtrSet<const Expr *, 16> ConstUse;
};

/// The structs keepsInitializer accepted, with the first read that relied
/// on it, for diagnoseLaterChanges (one translation unit per plugin run).
struct Assumed {
  const ASTContext *Owner = nullptr;
  struct Use {
    const VarDecl *VD;
    SourceLocation At;
    std::string Member;
  };
  std::vector<Use> Uses;
};

Assumed &assumed(const ASTContext &Ctx) {
  static Assumed A;
  if (A.Owner != &Ctx) {
    A = Assumed();
    A.Owner = &Ctx;
  }
  return A;
}

} // namespace

const Expr *changeOf(const VarDecl *VD, ASTContext &Ctx) {
  ChangeFinder F(VD, Ctx);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Found;
}

bool keepsInitializer(const VarDecl *VD, ASTContext &Ctx, SourceLocation Use,
                      const std::string &Member) {
  VD = VD->getCanonicalDecl();
  const VarDecl *Def = VD->getDefinition();
  if (!Def || !Def->hasInit() || !VD->isFileVarDecl() ||
      VD->hasExternalFormalLinkage() || VD->getType().isVolatileQualified())
    return false;
  if (changeOf(VD, Ctx))
    return false;
  if (Use.isInvalid())
    return true;
  Assumed &A = assumed(Ctx);
  for (const Assumed::Use &U : A.Uses)
    if (U.VD == VD)
      return true;
  A.Uses.push_back({VD, Use, Member});
  return true;
}

std::pair<std::string, std::string>
changedMemberError(const std::string &Member, const VarDecl *VD) {
  std::string Name = VD->getNameAsString();
  return {Member + ", which other code may change,",
          "declare '" + Name +
              "' const, with its pointers set in its initializer"};
}

void diagnoseLaterChanges(DiagnosticsEngine &Diags, ASTContext &Ctx) {
  Assumed &A = assumed(Ctx);
  for (const Assumed::Use &U : A.Uses) {
    const Expr *C = changeOf(U.VD, Ctx);
    if (!C)
      continue;
    auto [What, Instead] = changedMemberError(U.Member, U.VD);
    report(Diags, DiagnosticsEngine::Error, U.At,
           "%0 is not supported in a batch/diff function; %1")
        << What << Instead;
    report(Diags, DiagnosticsEngine::Note, C->getExprLoc(),
           "'%0' may be changed here")
        << U.VD->getNameAsString();
  }
  A.Uses.clear();
}

} // namespace lowering
} // namespace batchdiff
