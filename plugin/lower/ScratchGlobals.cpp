//===- ScratchGlobals.cpp - static globals used as scratch in expressions -===//
//
// Numerical Recipes' nrutil.h computes its macros' arguments once through
// static globals: `static double dsqrarg; #define DSQR(a) ((dsqrarg=(a))
// == 0.0 ? 0.0 : dsqrarg*dsqrarg)`, DMAX, FMAX, IMIN, SQR alike. Such a
// global is written and read within one expression; no value crosses from
// one expression to the next, so from one call or example to the next. When
// every use in the file is of this kind, the batched function keeps it per
// example and leaves the global itself alone (nothing could read what it
// holds), whether a path writes it or not. A later definition in the file
// that uses it otherwise is an error (the plugin checks each one).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

using namespace clang;

namespace batchdiff {

namespace {

void visitStmt(const Stmt *S, const VarDecl *G, const Expr *&Bad);

bool isRef(const Expr *E, const VarDecl *G) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl()->getCanonicalDecl() == G;
}

bool mentions(const Stmt *S, const VarDecl *G) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl()->getCanonicalDecl() == G;
  if (const auto *BE = dyn_cast<BlockExpr>(S)) // (its body: no child)
    return mentions(BE->getBody(), G);
  for (const Stmt *C : astChildren(S))
    if (mentions(C, G))
      return true;
  return false;
}

/// Visits \p E, whose evaluation has assigned \p G before it where \p
/// Covered; records in \p Bad the first use of G that is not covered.
/// Returns whether evaluating E always assigns G.
bool visitExpr(const Expr *E, const VarDecl *G, bool Covered,
               const Expr *&Bad) {
  if (!E || Bad)
    return false;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (DRE->getDecl()->getCanonicalDecl() == G && !Covered)
      Bad = DRE;
    return false;
  }
  // A block literal (-fblocks) runs at some later time, not where it
  // stands; its body is not among its children: each of its full
  // expressions must be scratch on its own.
  if (const auto *BE = dyn_cast<BlockExpr>(E)) {
    visitStmt(BE->getBody(), G, Bad);
    return false;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (BO->getOpcode() == BO_Assign && isRef(L, G)) {
      visitExpr(R, G, Covered, Bad);
      return true;
    }
    if (BO->isCompoundAssignmentOp() && isRef(L, G)) {
      if (!Covered)
        Bad = L; // reads the value before this expression
      visitExpr(R, G, Covered, Bad);
      return true;
    }
    if (BO->getOpcode() == BO_Comma) {
      bool A = visitExpr(L, G, Covered, Bad);
      return visitExpr(R, G, Covered || A, Bad) || A;
    }
    if (BO->isLogicalOp()) {
      bool A = visitExpr(L, G, Covered, Bad);
      visitExpr(R, G, Covered || A, Bad);
      return A;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    bool A = visitExpr(CO->getCond(), G, Covered, Bad);
    bool T = visitExpr(CO->getTrueExpr(), G, Covered || A, Bad);
    bool F = visitExpr(CO->getFalseExpr(), G, Covered || A, Bad);
    return A || (T && F);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (isRef(UO->getSubExpr(), G) &&
        (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())) {
      if (UO->getOpcode() == UO_AddrOf || !Covered)
        Bad = UO;
      return UO->getOpcode() != UO_AddrOf;
    }
  // Operands of anything else are unsequenced among themselves: each is
  // covered only by what came before the whole expression.
  bool Any = false;
  for (const Stmt *C : astChildren(E))
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      Any |= visitExpr(CE, G, Covered, Bad);
    else if (C && mentions(C, G)) // a statement inside an expression
      Bad = Bad ? Bad : E;        // using it (GNU's ({ ... })): not scratch
  return Any;
}

void visitStmt(const Stmt *S, const VarDecl *G, const Expr *&Bad) {
  if (!S || Bad)
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    visitExpr(E, G, false, Bad); // a full expression: nothing before it
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        visitExpr(VD->getInit(), G, false, Bad);
    return;
  }
  for (const Stmt *C : astChildren(S))
    visitStmt(C, G, Bad);
}

} // namespace

bool scratchCandidate(const VarDecl *G) {
  G = G->getCanonicalDecl();
  QualType T = G->getType();
  return G->isFileVarDecl() && G->getStorageClass() == SC_Static &&
         T->isArithmeticType() && !T->isAnyComplexType() &&
         !T.isVolatileQualified() && !T.isConstQualified();
}

const Expr *nonScratchUse(const VarDecl *G, const Decl *D) {
  G = G->getCanonicalDecl();
  const Expr *Bad = nullptr;
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (FD->doesThisDeclarationHaveABody())
      visitStmt(FD->getBody(), G, Bad);
  } else if (const auto *VD = dyn_cast<VarDecl>(D)) {
    visitExpr(VD->getInit(), G, false, Bad);
  }
  return Bad;
}

namespace lowering {

int Lowerer::scratchVar(const VarDecl *VD) {
  VD = VD->getCanonicalDecl();
  if (auto It = ScratchVars.find(VD); It != ScratchVars.end())
    return It->second;
  int &Slot = ScratchVars[VD];
  Slot = -1;
  if (!scratchCandidate(VD))
    return -1;
  // Every use in the file so far; the plugin checks the definitions after.
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (nonScratchUse(VD, D))
      return -1;
  auto T = irType(VD->getType());
  if (!T)
    return -1;
  int V = F.newVar(VD->getNameAsString(), *T);
  ir::Block *Saved = B.block();
  B.setBlock(&Prologue);
  B.set(V, zeroOf(*T)); // never read: every read follows an assignment
  B.setBlock(Saved);
  ScratchUsed.push_back(VD);
  return Slot = V;
}

} // namespace lowering
} // namespace batchdiff
