//===- NullLocals.cpp - where pointers set to NULL may be null ------------===//
//
// A forward data-flow over clang's CFG of one function: for each pointer
// variable initialized or assigned a null pointer, whether it is null, not
// null (assigned anything else, or never set to null) or either, at each
// of its reads. Joins at merges of paths. A branch on a test of such a
// variable (`if (c)`, `!c ||`, `c != NULL &&`, `c ? *c : 0`, `while (c)`)
// refines a state that may be null on each edge: not null where the test
// says so, null on the other edge. The lowering tests a per-lane flag there
// (Lowerer::nullFlag) and runs the guarded code under that test's mask.
//
//===----------------------------------------------------------------------===//
#include "lower/NullLocals.h"
#include "lower/OmpSimd.h"

#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"

#include <functional>
#include <vector>

namespace batchdiff {
namespace lowering {

using namespace clang;

const ConditionalOperator *nullArm(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParens();
  while (const auto *CE = dyn_cast<ImplicitCastExpr>(E)) {
    if (CE->getCastKind() != CK_NoOp && CE->getCastKind() != CK_BitCast)
      break;
    E = CE->getSubExpr()->IgnoreParens();
  }
  const auto *CO = dyn_cast<ConditionalOperator>(E);
  if (!CO || !CO->getType()->isPointerType() ||
      CO->getType()->isFunctionPointerType() ||
      isNullPointer(CO->getTrueExpr(), Ctx) ==
          isNullPointer(CO->getFalseExpr(), Ctx))
    return nullptr;
  return CO;
}

bool isNullPointer(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParens();
  if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return true;
  const auto *CE = dyn_cast<CastExpr>(E);
  if (!CE || !CE->getType()->isPointerType())
    return false;
  if (CE->getCastKind() == CK_NullToPointer)
    return true; // `(double *)0`
  return (CE->getCastKind() == CK_BitCast || CE->getCastKind() == CK_NoOp) &&
         CE->getSubExpr()->getType()->isPointerType() &&
         isNullPointer(CE->getSubExpr(), Ctx); // `(double *)NULL`
}

namespace {

using States = std::vector<NullState>;

bool same(const NullState &A, const NullState &B) {
  return A.K == B.K && A.NullAt == B.NullAt;
}

/// The variables the analysis follows, and what it does at each element.
class Flow {
public:
  Flow(ASTContext &Ctx) : Ctx(Ctx) {}
  llvm::DenseMap<const VarDecl *, unsigned> Index;
  const Expr *FirstNull = nullptr;

  /// Pointer variables of \p S initialized or assigned a null pointer.
  void scan(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getInit() && nullValue(VD->getInit()))
          track(VD, VD->getInit());
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign && nullValue(BO->getRHS()))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          track(VD, BO->getRHS());
    for (const Stmt *C : astChildren(S))
      scan(C);
  }

  /// NULL, or a `?:` with a NULL arm (`x > 0 ? T : NULL`).
  bool nullValue(const Expr *E) const {
    return isNullPointer(E, Ctx) || nullArm(E, Ctx);
  }

  NullState join(const NullState &A, const NullState &B) const {
    if (A.K == NullState::Unreached)
      return B;
    if (B.K == NullState::Unreached)
      return A;
    NullState R;
    R.K = A.K == B.K ? A.K : NullState::Maybe;
    R.NullAt = earlier(A.NullAt, B.NullAt);
    return R;
  }

  /// The state of the value of \p E, a pointer, given \p S.
  NullState value(const Expr *E, const States &S) const {
    E = E->IgnoreParens();
    if (isNullPointer(E, Ctx))
      return {NullState::Null, E};
    if (const auto *CE = dyn_cast<CastExpr>(E);
        CE && (CE->getCastKind() == CK_LValueToRValue ||
               CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_BitCast))
      return value(CE->getSubExpr(), S);
    if (int I = tracked(E); I >= 0)
      return S[I];
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return join(value(CO->getTrueExpr(), S), value(CO->getFalseExpr(), S));
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Comma || BO->getOpcode() == BO_Assign))
      return value(BO->getRHS(), S);
    return {NullState::Assigned, nullptr};
  }

  /// The state along the edge from \p From to \p To: where From ends
  /// in a branch on a test of a followed variable that may be null, not null
  /// on the edge the test says so, null on the other.
  void refine(const CFGBlock &From, const CFGBlock *To, States &S) const {
    const Stmt *T = From.getTerminatorStmt();
    if (From.succ_size() != 2 || !T ||
        !(isa<IfStmt>(T) || isa<ForStmt>(T) || isa<WhileStmt>(T) ||
          isa<DoStmt>(T) || isa<ConditionalOperator>(T) ||
          (isa<BinaryOperator>(T) && cast<BinaryOperator>(T)->isLogicalOp())))
      return;
    const CFGBlock *Then = From.succ_begin()[0].getReachableBlock(),
                   *Else = From.succ_begin()[1].getReachableBlock();
    bool NotNullIfTrue;
    int I = From.getLastCondition()
                ? testOf(From.getLastCondition(), NotNullIfTrue)
                : -1;
    if (I < 0 || Then == Else || S[I].K != NullState::Maybe)
      return;
    // (Null on the edge where it is not: that test folds, and what it
    // guards is not lowered; Assigned on the other edge stays: it may be a
    // pointer the lowering does not follow.)
    if (To != Then && To != Else)
      return;
    if ((To == Then) == NotNullIfTrue)
      S[I] = {NullState::Assigned, nullptr};
    else
      S[I].K = NullState::Null;
  }

  /// \p E a test of a followed variable's null state (`c`, `!c`, `c !=
  /// NULL`, `0 == c`, in parentheses): its index, and whether true means
  /// not null; else -1.
  int testOf(const Expr *E, bool &NotNullIfTrue) const {
    E = stripped(E);
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_LNot) {
      int I = testOf(UO->getSubExpr(), NotNullIfTrue);
      NotNullIfTrue = !NotNullIfTrue;
      return I;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      bool LN = isNullPointer(L, Ctx), RN = isNullPointer(R, Ctx);
      const Expr *P = LN ? R : L;
      if (LN == RN || !P->getType()->isPointerType())
        return -1;
      NotNullIfTrue = BO->getOpcode() == BO_NE;
      return tracked(stripped(P));
    }
    NotNullIfTrue = true;
    return E->getType()->isPointerType() ? tracked(E) : -1;
  }

  /// One CFG element: declarations and assignments set a state; reads are
  /// recorded in \p Out when given.
  void transfer(const Stmt *St, States &S,
                llvm::DenseMap<const DeclRefExpr *, NullState> *Out) const {
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (auto It = Index.find(dyn_cast<VarDecl>(D)); It != Index.end())
          S[It->second] =
              It->first->getInit()
                  ? value(It->first->getInit(), S)
                  : NullState{NullState::Assigned, nullptr}; // (undefined)
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(St);
        BO && BO->getOpcode() == BO_Assign)
      if (int I = tracked(BO->getLHS()->IgnoreParens()); I >= 0)
        S[I] = value(BO->getRHS(), S);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(St); DRE && Out)
      if (int I = tracked(DRE); I >= 0) {
        NullState &R = (*Out)[DRE];
        R = join(R, S[I]);
      }
  }

private:
  ASTContext &Ctx;

  void track(const VarDecl *VD, const Expr *Null) {
    QualType T = VD->getType();
    if (!VD->hasLocalStorage() || !T->isPointerType() ||
        T->isFunctionPointerType())
      return;
    Index.try_emplace(VD, (unsigned)Index.size());
    FirstNull = earlier(FirstNull, Null);
  }

  /// \p E without parentheses and the conversions that keep a pointer or
  /// a truth value as it is.
  static const Expr *stripped(const Expr *E) {
    while (true) {
      E = E->IgnoreParens();
      const auto *CE = dyn_cast<ImplicitCastExpr>(E);
      if (!CE)
        return E;
      switch (CE->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_BitCast:
      case CK_PointerToBoolean:
      case CK_IntegralToBoolean:
        E = CE->getSubExpr();
        continue;
      default:
        return E;
      }
    }
  }

  int tracked(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    auto It = VD ? Index.find(VD) : Index.end();
    return It == Index.end() ? -1 : (int)It->second;
  }

  /// The one of \p A and \p B written first (either if one is null).
  const Expr *earlier(const Expr *A, const Expr *B) const {
    if (!A || !B)
      return A ? A : B;
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation LA = SM.getExpansionLoc(A->getBeginLoc()),
                   LB = SM.getExpansionLoc(B->getBeginLoc());
    return SM.isBeforeInTranslationUnit(LB, LA) ? B : A;
  }
};

/// Every read of a followed variable in \p S, with state \p NS.
void allReads(const Stmt *S, const Flow &Fl, NullState NS,
              llvm::DenseMap<const DeclRefExpr *, NullState> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (Fl.Index.count(dyn_cast<VarDecl>(DRE->getDecl())))
      Out[DRE] = NS;
  for (const Stmt *C : astChildren(S))
    allReads(C, Fl, NS, Out);
}

} // namespace

void nullLocals(const FunctionDecl *FD, ASTContext &Ctx,
                llvm::DenseMap<const DeclRefExpr *, NullState> &Out) {
  Stmt *Body = FD->getBody();
  Flow Fl(Ctx);
  Fl.scan(Body);
  if (Fl.Index.empty())
    return;
  // (clang's CFG has the loop of a '#pragma omp simd' in its blocks.)
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  std::unique_ptr<CFG> G = CFG::buildCFG(FD, Body, &Ctx, BO);
  if (!G) {
    allReads(Body, Fl, {NullState::Maybe, Fl.FirstNull}, Out);
    return;
  }
  size_t N = Fl.Index.size();
  std::vector<States> Exit(G->getNumBlockIDs(), States(N));
  auto Run = [&](const CFGBlock *Blk,
                 llvm::DenseMap<const DeclRefExpr *, NullState> *Rec) {
    States S(N);
    if (Blk == &G->getEntry())
      S.assign(N, {NullState::Assigned, nullptr}); // (parameters, as passed)
    for (const CFGBlock::AdjacentBlock &P : Blk->preds())
      if (const CFGBlock *PB = P.getReachableBlock()) {
        States In = Exit[PB->getBlockID()];
        Fl.refine(*PB, Blk, In);
        for (size_t I = 0; I < N; ++I)
          S[I] = Fl.join(S[I], In[I]);
      }
    for (const CFGElement &E : *Blk)
      if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
        Fl.transfer(CS->getStmt(), S, Rec);
    return S;
  };
  // Over a lattice of height 3 (NullAt only moves earlier): each pass that
  // changes something raises some block's state, so a fixed point within
  // 3 * N * blocks passes. (The refinement at tests is not monotone: should
  // the passes not settle, every read may be null, and is refused, never
  // wrong.)
  size_t Passes = 0, Most = 4 * (N + 1) * (G->getNumBlockIDs() + 1);
  for (bool Changed = true; Changed; ++Passes) {
    if (Passes > Most) {
      allReads(Body, Fl, {NullState::Maybe, Fl.FirstNull}, Out);
      return;
    }
    Changed = false;
    for (const CFGBlock *Blk : *G) {
      States S = Run(Blk, nullptr);
      States &X = Exit[Blk->getBlockID()];
      for (size_t I = 0; I < N; ++I)
        if (!same(S[I], X[I])) {
          X = std::move(S);
          Changed = true;
          break;
        }
    }
  }
  for (const CFGBlock *Blk : *G)
    Run(Blk, &Out);
}

} // namespace lowering
} // namespace batchdiff
