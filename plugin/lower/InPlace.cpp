//===- InPlace.cpp - what a function promises its in-place callers --------===//
//
// inPlacePromises (InPlace.h): one walk of the body per pair (I, J), in the
// order C evaluates it (an assignment's value before its store, a call's
// arguments before the call), keeping the elements of J that may have been
// written (W, or all of them). A read of I must find none of its elements
// in W; a write through I, or I's address kept, ends the walk without a
// promise. Both arms of an `if` are walked from the state before it and
// joined. A loop that reads I and writes J is taken only as `for (v = ..;
// ..; v++)` (or v--, v += 1, v -= 1) reading I[v] before writing J[v] in
// its body, v not written there, nothing of J written before it: each pass
// reads only an element no pass has written yet. A call of a function
// with external linkage (of another file, or of this one: its promise is
// this file's, where it holds) reads the parts of I passed to it (a
// parameter that is not a pointer to const counts on its promise M:M) and
// then writes the parts of J passed where it may write (or, where that
// walk fails, counts on its promise M:M too); a part of I and one of J
// passed to one call are the same elements (then its promise M:N) or
// apart. Not taken: a call of the function itself, of an inline or static
// function, or through a pointer, with a part of I or J.
//
//===----------------------------------------------------------------------===//
#include "lower/InPlace.h"
#include "lower/OmpSimd.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"

#include <map>
#include <set>

namespace batchdiff {

using namespace clang;

namespace {

/// The dimensions of a parameter's declared type (-1: a pointer's).
std::vector<int64_t> dims(ASTContext &Ctx, QualType T) {
  std::vector<int64_t> D;
  if (const auto *PT = T->getAs<PointerType>()) {
    D.push_back(-1);
    T = PT->getPointeeType();
  }
  while (const auto *AT = Ctx.getAsArrayType(T)) {
    const auto *CAT = dyn_cast<ConstantArrayType>(AT);
    D.push_back(CAT ? (int64_t)CAT->getSize().getZExtValue() : -1);
    T = AT->getElementType();
  }
  return D;
}

/// Elements of T (a scalar: 1; unknown: -1).
int64_t elements(ASTContext &Ctx, QualType T) {
  int64_t N = 1;
  while (const auto *AT = Ctx.getAsArrayType(T)) {
    const auto *CAT = dyn_cast<ConstantArrayType>(AT);
    if (!CAT)
      return -1;
    N *= (int64_t)CAT->getSize().getZExtValue();
    T = AT->getElementType();
  }
  return N;
}

/// Elements [From, To) of a parameter (To < 0: to its end), or unknown
/// ones, or the element at index Var (a loop's variable).
struct Region {
  const ParmVarDecl *P = nullptr;
  bool Unknown = false;
  int64_t From = 0, To = -1;
  const VarDecl *Var = nullptr;
};

struct Event {
  bool Write;
  Region R;
  int Depth;
};

struct Walk {
  Walk(ASTContext &Ctx, const FunctionDecl *Self, const ParmVarDecl *PI,
       const ParmVarDecl *PJ)
      : Ctx(Ctx), Self(Self), PI(PI), PJ(PJ) {}
  ASTContext &Ctx;
  const FunctionDecl *Self;
  const ParmVarDecl *PI, *PJ;
  std::set<int64_t> W;
  bool All = false, Fail = false;
  std::set<std::string> Deps;
  std::vector<Event> *Log = nullptr; // a loop's events (record mode)
  /// A part of J passed where the callee may write it: not written, on
  /// the callee's promise M:M (the second walk, where the first fails).
  bool TrustJ = false;
  int Depth = 0;

  bool mentions(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (DR->getDecl() == PI || DR->getDecl() == PJ)
        return true;
    for (const Stmt *C : astChildren(S))
      if (mentions(C))
        return true;
    return false;
  }

  /// The parameter (I or J) that \p E is an element or part of, where in
  /// it, and the index expressions to evaluate; null if none.
  const ParmVarDecl *root(const Expr *E, Region &R,
                          std::vector<const Expr *> &Idx) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
      if (!P || (P != PI && P != PJ))
        return nullptr;
      R = Region();
      R.P = P;
      std::vector<int64_t> D = dims(Ctx, P->getOriginalType());
      int64_t N = 1;
      for (int64_t X : D)
        N = X < 0 || N < 0 ? -1 : N * X;
      R.To = N;
      return P;
    }
    const Expr *Base = nullptr, *Index = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      Base = AS->getBase();
      Index = AS->getIdx();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref) {
      Base = UO->getSubExpr();
    } else {
      return nullptr;
    }
    Region B;
    const ParmVarDecl *P = root(Base, B, Idx);
    if (!P)
      return nullptr;
    R = B;
    R.Var = nullptr;
    int64_t Stride = elements(Ctx, E->getType());
    QualType BT = Base->IgnoreParenImpCasts()->getType();
    if (B.Unknown || B.Var || Stride < 0 ||
        (!BT->isPointerType() && !Ctx.getAsArrayType(BT))) {
      R.Unknown = true;
      if (Index)
        Idx.push_back(Index);
      return P;
    }
    Expr::EvalResult ER;
    if (!Index || Index->EvaluateAsInt(ER, Ctx)) {
      int64_t C = Index ? ER.Val.getInt().getExtValue() : 0;
      R.From = B.From + C * Stride;
      R.To = R.From + Stride;
      if (C < 0)
        R.Unknown = true;
      return P;
    }
    Idx.push_back(Index);
    if (const auto *IV = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
        IV && Stride == 1 && B.From == 0 && isa<VarDecl>(IV->getDecl()) &&
        cast<VarDecl>(IV->getDecl())->hasLocalStorage() &&
        !isa<ParmVarDecl>(IV->getDecl())) {
      R.Var = cast<VarDecl>(IV->getDecl());
      return P;
    }
    R.Unknown = true;
    return P;
  }

  bool hits(const Region &R) const {
    if (All)
      return true;
    if (R.Unknown || R.Var)
      return !W.empty();
    auto It = W.lower_bound(R.From);
    return It != W.end() && (R.To < 0 || *It < R.To);
  }

  void read(const Region &R) {
    if (R.P != PI || PI == PJ)
      return;
    if (Log) {
      Log->push_back({false, R, Depth});
      return;
    }
    if (hits(R))
      Fail = true;
  }

  void write(const Region &R) {
    if (R.P == PI) {
      Fail = true;
      return;
    }
    if (R.P != PJ)
      return;
    if (Log) {
      Log->push_back({true, R, Depth});
      return;
    }
    if (R.Unknown || R.Var || R.To < 0 || R.To - R.From > 4096)
      All = true;
    else
      for (int64_t E = R.From; E < R.To; ++E)
        W.insert(E);
  }

  /// A read or write of \p E, where it is an element of I or J.
  void access(const Expr *E, bool Write) {
    Region R;
    std::vector<const Expr *> Idx;
    const ParmVarDecl *P = root(E, R, Idx);
    for (const Expr *X : Idx)
      expr(X);
    if (!P) {
      expr(E);
      return;
    }
    // (The pointer itself, or a row: not an element.)
    if (!E->getType()->isScalarType() || E->getType()->isPointerType()) {
      Fail = true;
      return;
    }
    Write ? write(R) : read(R);
  }

  void call(const CallExpr *CE) {
    expr(CE->getCallee());
    const FunctionDecl *FD = CE->getDirectCallee();
    struct Part {
      unsigned M;
      Region R;
      bool Const;
    };
    std::vector<Part> Parts;
    for (unsigned K = 0; K < CE->getNumArgs(); ++K) {
      const Expr *A = CE->getArg(K);
      if (!mentions(A) || !A->getType()->isPointerType()) {
        expr(A);
        continue;
      }
      const Expr *E = A->IgnoreParenImpCasts();
      bool Addr = false;
      if (const auto *UO = dyn_cast<UnaryOperator>(E);
          UO && UO->getOpcode() == UO_AddrOf) {
        E = UO->getSubExpr();
        Addr = true;
      }
      Region R;
      std::vector<const Expr *> Idx;
      const ParmVarDecl *P = root(E, R, Idx);
      for (const Expr *X : Idx)
        expr(X);
      if (Addr && isa<DeclRefExpr>(E->IgnoreParenImpCasts()))
        P = nullptr; // (the pointer's own address)
      if (!P || !FD || FD->getBuiltinID() || !FD->hasPrototype() ||
          FD->isVariadic() || FD->isInlineSpecified() ||
          FD->getCanonicalDecl() == Self->getCanonicalDecl() ||
          !FD->isExternallyVisible() || K >= FD->getNumParams() ||
          (!Addr && !E->getType()->isPointerType() &&
           !Ctx.getAsArrayType(E->getType()))) {
        Fail = true;
        return;
      }
      QualType PT = FD->getParamDecl(K)->getType();
      if (!PT->isPointerType()) {
        Fail = true;
        return;
      }
      // What the callee's parameter reaches from where the argument points.
      int64_t N = elements(Ctx, PT->getPointeeType());
      std::vector<int64_t> D =
          dims(Ctx, FD->getParamDecl(K)->getOriginalType());
      if (!D.empty() && D[0] > 0 && N > 0)
        N *= D[0];
      else
        N = -1;
      R.Var = nullptr;
      if (!R.Unknown)
        R.To = N < 0 ? -1 : R.From + N;
      bool Const =
          Ctx.getBaseElementType(PT->getPointeeType()).isConstQualified();
      Parts.push_back({K, R, Const});
    }
    if (Fail || Parts.empty())
      return;
    std::string Name = FD->getNameAsString();
    auto Key = [&](unsigned M, unsigned N) {
      return Name + ":" + std::to_string(M) + ":" + std::to_string(N);
    };
    for (const Part &A : Parts) {
      if (A.R.P != PI)
        continue;
      read(A.R);
      if (!A.Const)
        Deps.insert(Key(A.M, A.M));
      for (const Part &B : Parts) {
        if (B.R.P != PJ || B.Const || PI == PJ)
          continue;
        bool Apart = !A.R.Unknown && !B.R.Unknown &&
                     ((A.R.To >= 0 && A.R.To <= B.R.From) ||
                      (B.R.To >= 0 && B.R.To <= A.R.From));
        if (Apart)
          continue;
        if (A.R.Unknown || B.R.Unknown || A.R.From != B.R.From ||
            A.R.To != B.R.To) {
          Fail = true;
          return;
        }
        Deps.insert(Key(A.M, B.M));
      }
    }
    for (const Part &B : Parts)
      if (B.R.P == PJ && PI != PJ && !B.Const) {
        if (TrustJ)
          Deps.insert(Key(B.M, B.M));
        else
          write(B.R);
      }
  }

  void expr(const Expr *E) {
    if (!E || Fail)
      return;
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (DR->getDecl() == PI || DR->getDecl() == PJ)
        Fail = true; // (the pointer itself, kept or compared)
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAssignmentOp()) {
      expr(BO->getRHS());
      if (BO->isCompoundAssignmentOp())
        access(BO->getLHS(), false);
      access(BO->getLHS(), true);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp()) {
        access(UO->getSubExpr(), false);
        access(UO->getSubExpr(), true);
        return;
      }
      if (UO->getOpcode() == UO_AddrOf && mentions(UO)) {
        Fail = true;
        return;
      }
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      call(CE);
      return;
    }
    if (isa<ArraySubscriptExpr>(E) ||
        (isa<UnaryOperator>(E) &&
         cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
      Region R;
      std::vector<const Expr *> Idx;
      if (root(E, R, Idx)) {
        access(E, false);
        return;
      }
    }
    for (const Stmt *C : astChildren(E))
      if (const auto *X = dyn_cast_or_null<Expr>(C))
        expr(X);
      else if (C && mentions(C))
        Fail = true;
  }

  /// Whether \p S writes or takes the address of \p V.
  static bool changes(const Stmt *S, const VarDecl *V) {
    if (!S)
      return false;
    auto Is = [&](const Expr *E) {
      const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DR && DR->getDecl() == V;
    };
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && Is(BO->getLHS()))
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        Is(UO->getSubExpr()))
      return true;
    for (const Stmt *C : astChildren(S))
      if (changes(C, V))
        return true;
    return false;
  }

  /// The variable of `for (v = ..; ..; v++)` (or ++v, v--, --v, v += 1,
  /// v -= 1) that the loop's body and condition do not change.
  const VarDecl *counter(const Stmt *S) {
    const auto *FS = dyn_cast<ForStmt>(S);
    if (!FS || !FS->getInc())
      return nullptr;
    const Expr *Inc = FS->getInc()->IgnoreParenImpCasts();
    const Expr *Op = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc);
        UO && UO->isIncrementDecrementOp())
      Op = UO->getSubExpr();
    else if (const auto *BO = dyn_cast<CompoundAssignOperator>(Inc);
             BO && (BO->getOpcode() == BO_AddAssign ||
                    BO->getOpcode() == BO_SubAssign)) {
      Expr::EvalResult ER;
      if (BO->getRHS()->EvaluateAsInt(ER, Ctx) && ER.Val.getInt() == 1)
        Op = BO->getLHS();
    }
    const auto *DR =
        Op ? dyn_cast<DeclRefExpr>(Op->IgnoreParenImpCasts()) : nullptr;
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || !V->getType()->isIntegerType() ||
        changes(FS->getBody(), V) || changes(FS->getCond(), V))
      return nullptr;
    return V;
  }

  void loop(const Stmt *S) {
    if (!mentions(S))
      return;
    if (PI == PJ || Log) {
      if (Log)
        ++Depth;
      for (const Stmt *C : astChildren(S))
        stmt(C);
      if (Log)
        --Depth;
      return;
    }
    std::vector<Event> Events;
    Log = &Events;
    for (const Stmt *C : astChildren(S))
      stmt(C);
    Log = nullptr;
    if (Fail)
      return;
    bool Writes = false, Reads = false;
    for (const Event &E : Events)
      (E.Write ? Writes : Reads) = true;
    if (!Writes) {
      for (const Event &E : Events)
        read(E.R);
      return;
    }
    if (!Reads) {
      for (const Event &E : Events)
        write(E.R);
      return;
    }
    // Each pass reads I[v] before it writes J[v], and only those.
    const VarDecl *V = counter(S);
    const auto *FS = dyn_cast<ForStmt>(S);
    if (!V || All || !W.empty() || mentions(FS->getCond()) ||
        mentions(FS->getInc())) {
      Fail = true;
      return;
    }
    bool Written = false;
    for (const Event &E : Events) {
      if (E.R.Var != V || E.Depth != 0 || (Written && !E.Write)) {
        Fail = true;
        return;
      }
      Written |= E.Write;
    }
    All = true;
  }

  void stmt(const Stmt *S) {
    if (!S || Fail)
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      expr(E);
      return;
    }
    if (isa<CompoundStmt>(S)) {
      for (const Stmt *C : astChildren(S))
        stmt(C);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (VD->getType()->isVariablyModifiedType())
            Fail = true;
          expr(VD->getInit());
        }
      return;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      expr(RS->getRetValue());
      return;
    }
    if (const auto *IS = dyn_cast<IfStmt>(S)) {
      if (IS->getInit() || IS->getConditionVariable()) {
        Fail = Fail || mentions(S);
        return;
      }
      expr(IS->getCond());
      if (Log) {
        stmt(IS->getThen());
        stmt(IS->getElse());
        return;
      }
      std::set<int64_t> W0 = W;
      bool A0 = All;
      stmt(IS->getThen());
      std::set<int64_t> WT = std::move(W);
      bool AT = All;
      W = std::move(W0);
      All = A0;
      stmt(IS->getElse());
      W.insert(WT.begin(), WT.end());
      All = All || AT;
      return;
    }
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S)) {
      loop(S);
      return;
    }
    if (isa<NullStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S))
      return;
    // '#pragma omp simd': its loop, as without the pragma (OmpSimd.h).
    if (isa<OMPExecutableDirective>(S) || isa<CapturedStmt>(S)) {
      for (const Stmt *C : astChildren(S))
        stmt(C);
      return;
    }
    // Anything else (switch, goto, labels, asm) must not touch I or J.
    if (mentions(S))
      Fail = true;
  }
};

/// Parameters a promise may name: pointers to (arrays of) numbers.
bool arrayParam(ASTContext &Ctx, const ParmVarDecl *P) {
  QualType T = P->getType();
  if (!T->isPointerType())
    return false;
  QualType El = Ctx.getBaseElementType(T->getPointeeType());
  return El->isArithmeticType() && !El->isBooleanType() &&
         !El.isVolatileQualified();
}

} // namespace

std::vector<InPlacePromise> inPlacePromises(const FunctionDecl *FD,
                                            ASTContext &Ctx) {
  std::vector<InPlacePromise> Out;
  if (!FD || !FD->hasBody())
    return Out;
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    for (unsigned J = 0; J < FD->getNumParams(); ++J) {
      const ParmVarDecl *PI = FD->getParamDecl(I), *PJ = FD->getParamDecl(J);
      // (A caller asks only where J may be written: J = W, I = J in the
      // promises that a part of I passed there rests on.)
      if (!arrayParam(Ctx, PI) || !arrayParam(Ctx, PJ) ||
          Ctx.getBaseElementType(PJ->getType()->getPointeeType())
              .isConstQualified())
        continue;
      if (I != J &&
          (!Ctx.hasSameUnqualifiedType(
               Ctx.getBaseElementType(PI->getType()->getPointeeType()),
               Ctx.getBaseElementType(PJ->getType()->getPointeeType())) ||
           dims(Ctx, PI->getOriginalType()) !=
               dims(Ctx, PJ->getOriginalType())))
        continue;
      for (bool Trust : {false, true}) {
        Walk Wk(Ctx, FD, PI, PJ);
        Wk.TrustJ = Trust;
        Wk.stmt(FD->getBody());
        if (!Wk.Fail) {
          Out.push_back({I, J, {Wk.Deps.begin(), Wk.Deps.end()}});
          break;
        }
        if (I == J)
          break;
      }
    }
  return Out;
}

} // namespace batchdiff
