//===- ArrayParams.cpp - pointer and array parameters ---------------------===//
#include "lower/ArrayParams.h"

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <algorithm>

using namespace clang;

namespace batchdiff {
namespace {

const ParmVarDecl *paramOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Whether \p E, a declared extent, is integer arithmetic over integer
/// parameters and constants (`n + 1`, `n * (n + 1) / 2`, `r * c`); collects
/// the parameters in \p Ps.
bool extentExpr(const Expr *E, ASTContext &Ctx,
                std::vector<const ParmVarDecl *> &Ps) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult K;
  if (!E->isValueDependent() && E->EvaluateAsInt(K, Ctx))
    return true;
  if (const ParmVarDecl *N = paramOf(E)) {
    if (!N->getType()->isIntegerType())
      return false;
    if (std::find(Ps.begin(), Ps.end(), N) == Ps.end())
      Ps.push_back(N);
    return true;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  switch (BO->getOpcode()) {
  case BO_Add:
  case BO_Sub:
  case BO_Mul:
  case BO_Div:
  case BO_Rem:
  case BO_Shl:
  case BO_Shr:
    return extentExpr(BO->getLHS(), Ctx, Ps) &&
           extentExpr(BO->getRHS(), Ctx, Ps);
  default:
    return false;
  }
}

/// A loop `for (i = lo; i < hi; i++)`: its variable, and either an integer
/// parameter bounding it (`i < n`) or the constant range [Lo, Hi] it takes.
struct LoopVar {
  const VarDecl *V = nullptr;
  const ParmVarDecl *Bound = nullptr;
  bool Counts = false; // also counted: i from k >= 0 up by >= 1, not assigned
  bool Ranged = false;
  int64_t Lo = 0, Hi = 0;
  // Bound: the smallest value when it is a constant >= 0 and the body
  // never assigns i (`for (i = 1; i < n; i++) x[i - 1]`); else -1.
  int64_t From = -1;
  // Bound: i stays Slack below n - 1 (`i < n - 1`, `j = m - 1` counting
  // down: `x[i + 1]` is inside n).
  int64_t Slack = 0;
  int64_t Trips = 0; // Ranged: how many iterations
};

/// How many times a loop runs at most: an integer parameter N (`for (i =
/// 0; i < n; i++)`, `while (n--)`) or a constant K (`for (j = 0; j < 4;
/// j++)`); neither: unknown.
struct Trip {
  const ParmVarDecl *N = nullptr;
  int64_t K = 0;
};

/// An index `c + sum k_v * v` over loop variables v.
struct Affine {
  int64_t C = 0;
  std::vector<std::pair<const VarDecl *, int64_t>> Terms;
};

/// The evidence for one rule that gives an extent to a pointer parameter
/// used as a pointer (passed on, walked): the parameter that bounds the
/// walk (End: nullptr if none), the loops around the walk's use (outermost
/// first), its first use (where a failed rule's error points), how many
/// uses the rule saw, and whether one broke it.
struct WalkRule {
  const ParmVarDecl *N = nullptr;
  std::vector<Trip> Trips;
  const Expr *At = nullptr;
  int Uses = 0;
  bool Bad = false;

  void use(std::vector<Trip> Around, const Expr *E) {
    Trips = std::move(Around);
    if (!Uses++)
      At = E;
  }
};

/// A read q[i] or *q of a walked pointer q: the loops it is in, and its
/// index: in [Min, Max], or (Below) a loop variable j counted by `j <
/// Below`.
struct WalkAccess {
  std::vector<const Stmt *> In;
  int64_t Min = 0, Max = 0;
  const ParmVarDecl *Below = nullptr;
};

/// The step rule: `q += k` (k a constant or an integer parameter), `q++` or
/// `++q` (q is p or a copy of p) as the last statement or the increment of
/// a loop (Loop) inside loops that each run a bounded number of times, q
/// read as q[0] .. q[k - 1] inside that loop only (in loops nested in it
/// too: `row[j]` under `j < 4` with `row += 4`, or under `j < c` with `row
/// += c`): k elements per iteration.
struct StepRule : WalkRule {
  int64_t K = 0;
  const ParmVarDecl *KParam = nullptr;
  const Stmt *Loop = nullptr;
  std::vector<WalkAccess> Reads;
  const Expr *Copy = nullptr; // the p a walked copy was made of
  std::string Text;           // the step as written, for the remark
};

/// What the uses of one pointer parameter say about its extent.
struct Uses {
  const ParmVarDecl *P;
  const FunctionDecl *FD;
  ASTContext &Ctx;
  int64_t MaxConst = -1;
  bool FromRange = false;             // MaxConst came from a loop's range
  const ParmVarDecl *Bound = nullptr; // i < Bound in an enclosing for
  int64_t Scale = 1; // indices k * i + c (0 <= c < k): k * Bound elements
  // An index n + c (c >= -1, n an integer parameter): n + c + 1 elements,
  // when a loop counted by n indexes the array too (Bound == PlusParam).
  const ParmVarDecl *PlusParam = nullptr;
  int64_t Plus = 0;
  const Expr *PlusAt = nullptr;
  const Expr *Unknown = nullptr; // an index nothing bounds
  const Expr *Whole = nullptr;   // a use as a pointer (p + 1, f(p))
  std::vector<LoopVar> Loops;    // loops enclosing the current statement
  // The rules that give an extent to a pointer used as a pointer:
  // an end pointer `p + n` (End; Bad: several different ones), `*p++` once
  // per iteration of a counted loop (Inc), a step `p += k` (Step).
  WalkRule End, Inc;
  StepRule Step;
  // p itself is stepped somewhere (`p += k`, `p++`): its accesses p[c], *p
  // are then the step rule's, not indices from its start.
  bool Stepped = false;
  std::vector<const Stmt *> LoopStmts;
  bool Gotos = false;       // a goto could run the loop again
  std::vector<Trip> Around; // per enclosing loop, any kind
  // Locals initialised to p (`const double *q = p;`), walked like it.
  llvm::DenseMap<const VarDecl *, const Expr *> Aliases;

  Uses(const ParmVarDecl *P, const FunctionDecl *FD, ASTContext &Ctx)
      : P(P), FD(FD), Ctx(Ctx), Stepped(steps(FD->getBody(), P)) {}

  /// Whether \p S steps \p P itself: `P += k`, `P++`, `++P` (not inside
  /// `*P++`, the walk rule Inc).
  static bool steps(const Stmt *S, const ParmVarDecl *P) {
    if (!S)
      return false;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == P)
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementOp() && varOf(UO->getSubExpr()) == P)
        return true;
      const auto *Inc =
          dyn_cast<UnaryOperator>(UO->getSubExpr()->IgnoreParens());
      if (UO->getOpcode() == UO_Deref && Inc &&
          Inc->getOpcode() == UO_PostInc && varOf(Inc->getSubExpr()) == P)
        return false;
    }
    for (const Stmt *C : S->children())
      if (steps(C, P))
        return true;
    return false;
  }

  /// `p` itself, or a local copy of it.
  bool isP(const Expr *E) {
    const VarDecl *V = varOf(E);
    return V && (V == P || Aliases.count(V));
  }

  std::optional<int64_t> constInt(const Expr *E) {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }

  std::optional<Affine> affine(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto K = constInt(E))
      return Affine{*K, {}};
    if (const VarDecl *V = varOf(E))
      return Affine{0, {{V, 1}}};
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return std::nullopt;
    BinaryOperatorKind K = BO->getOpcode();
    if (K == BO_Add || K == BO_Sub) {
      auto L = affine(BO->getLHS()), R = affine(BO->getRHS());
      if (!L || !R)
        return std::nullopt;
      int64_t S = K == BO_Sub ? -1 : 1;
      L->C += S * R->C;
      for (auto &T : R->Terms)
        L->Terms.push_back({T.first, S * T.second});
      return L;
    }
    if (K == BO_Mul) {
      auto KL = constInt(BO->getLHS()), KR = constInt(BO->getRHS());
      auto A = affine(KL ? BO->getRHS() : BO->getLHS());
      if ((!KL && !KR) || !A)
        return std::nullopt;
      int64_t M = KL ? *KL : *KR;
      A->C *= M;
      for (auto &T : A->Terms)
        T.second *= M;
      return A;
    }
    return std::nullopt;
  }

  /// The smallest and largest values of an index affine in loop variables
  /// with constant ranges (`a[i - 1]`, `a[2 * i + j]`), if it is one.
  std::optional<std::pair<int64_t, int64_t>> range(const Expr *Idx) {
    auto A = affine(Idx);
    if (!A)
      return std::nullopt;
    int64_t Min = A->C, Max = A->C;
    for (auto &[V, K] : A->Terms) {
      auto It = std::find_if(Loops.rbegin(), Loops.rend(),
                             [V = V](const LoopVar &L) { return L.V == V; });
      if (It == Loops.rend() || !It->Ranged)
        return std::nullopt;
      Min += std::min(K * It->Lo, K * It->Hi);
      Max += std::max(K * It->Lo, K * It->Hi);
    }
    return std::make_pair(Min, Max);
  }
  std::optional<int64_t> rangeMax(const Expr *Idx) {
    auto R = range(Idx);
    return R ? std::optional<int64_t>(R->second) : std::nullopt;
  }

  void index(const Expr *Idx) {
    if (auto K = constInt(Idx)) {
      MaxConst = std::max<int64_t>(MaxConst, *K);
      return;
    }
    if (const VarDecl *V = varOf(Idx))
      for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
        if (It->V == V && It->Bound) {
          Bound = It->Bound;
          return;
        }
    // `x[2 * i]`, `x[3 * i + 2]` with i < n: interleaved records of k
    // elements, k * n in all; `x[i - 1]` with i from 1 up to n, a
    // recurrence's previous element, n.
    if (auto A = affine(Idx); A && A->Terms.size() == 1) {
      auto [V, K] = A->Terms[0];
      for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
        if (It->V == V && It->Bound && K >= 1 && A->C < K * (1 + It->Slack) &&
            (A->C >= 0 || (It->From >= 0 && K * It->From + A->C >= 0)) &&
            (!Bound || Bound == It->Bound)) {
          Bound = It->Bound;
          Scale = std::max(Scale, K);
          return;
        }
    }
    // `c[n]`, `x[n - 1]`: an integer parameter (never assigned) plus a
    // constant, as Horner from the top reads c[0] .. c[n].
    if (auto A = affine(Idx);
        A && A->Terms.size() == 1 && A->Terms[0].second == 1 && A->C >= -1) {
      const auto *N = dyn_cast<ParmVarDecl>(A->Terms[0].first);
      if (N && N->getDeclContext() == FD && N->getType()->isIntegerType() &&
          !lowering::modifies(FD->getBody(), N) &&
          (!PlusParam || PlusParam == N)) {
        PlusParam = N;
        Plus = std::max(Plus, A->C + 1);
        if (!PlusAt)
          PlusAt = Idx;
        return;
      }
    }
    if (auto M = rangeMax(Idx); M && *M >= 0) {
      MaxConst = std::max<int64_t>(MaxConst, *M);
      FromRange = true;
      return;
    }
    if (!Unknown)
      Unknown = Idx;
  }

  /// The variable a for-init sets to a constant: `int i = 0` or `i = 0`.
  std::optional<std::pair<const VarDecl *, int64_t>> init(const Stmt *S) {
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(S)) {
      const auto *V =
          DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
      if (V && V->getInit())
        if (auto K = constInt(V->getInit()))
          return std::make_pair((const VarDecl *)V, *K);
      return std::nullopt;
    }
    const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
    if (BO && BO->getOpcode() == BO_Assign)
      if (const VarDecl *V = varOf(BO->getLHS()))
        if (auto K = constInt(BO->getRHS()))
          return std::make_pair(V, *K);
    return std::nullopt;
  }

  /// Whether \p S is the increment \p Inc of a for loop or one of its
  /// comma-separated parts (`i++, q += 2`).
  static bool incPart(const Expr *Inc, const Stmt *S) {
    Inc = Inc ? Inc->IgnoreParens() : nullptr;
    if (Inc == S)
      return true;
    const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
    return BO && BO->getOpcode() == BO_Comma &&
           (incPart(BO->getLHS(), S) || incPart(BO->getRHS(), S));
  }

  /// The step of `i++`, `++i`, `i--`, `i += k`, `i -= k` (k constant), also
  /// as one part of a comma expression (`i++, q += 2`).
  std::optional<int64_t> step(const Expr *E, const VarDecl *V) {
    E = E ? E->IgnoreParenImpCasts() : nullptr;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Comma) {
      auto L = step(BO->getLHS(), V), R = step(BO->getRHS(), V);
      if (L && R)
        return std::nullopt; // stepped twice: not a simple loop
      return L ? L : R;
    }
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E))
      if (UO->isIncrementDecrementOp() && varOf(UO->getSubExpr()) == V)
        return UO->isIncrementOp() ? 1 : -1;
    if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(E))
      if (varOf(CA->getLHS()) == V &&
          (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign))
        if (auto K = constInt(CA->getRHS()))
          return CA->getOpcode() == BO_AddAssign ? *K : -*K;
    return std::nullopt;
  }

  /// `n - c` with n an integer parameter of FD and c >= 0 a constant.
  std::optional<std::pair<const ParmVarDecl *, int64_t>>
  paramMinus(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    int64_t C = 0;
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Sub) {
      auto K = constInt(BO->getRHS());
      if (!K || *K < 0)
        return std::nullopt;
      C = *K;
      E = BO->getLHS()->IgnoreParenImpCasts();
    }
    const ParmVarDecl *N = paramOf(E);
    if (!N || N->getDeclContext() != FD || !N->getType()->isIntegerType())
      return std::nullopt;
    return std::make_pair(N, C);
  }

  /// The value a for-init gives \p V: `int i = e` or `i = e`.
  static const Expr *initOf(const ForStmt *FS, const VarDecl *V) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit());
    const auto *IV = DS && DS->isSingleDecl()
                         ? dyn_cast<VarDecl>(DS->getSingleDecl())
                         : nullptr;
    if (IV == V)
      return IV->getInit();
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit());
        BO && BO->getOpcode() == BO_Assign && varOf(BO->getLHS()) == V)
      return BO->getRHS();
    return nullptr;
  }

  /// Loops that keep i inside [From, n - 1 - Slack], n an integer
  /// parameter neither they nor i's loop assign: `for (i = 0; i < n - 1;
  /// i++)` (`x[i + 1]`), `for (i = 1; i <= n - 1; i++)`, and counting down,
  /// `for (j = n - 1; j >= 0; j--)` (Clenshaw, Horner from the top).
  LoopVar boundBelow(const ForStmt *FS) {
    LoopVar L;
    const auto *C = dyn_cast_or_null<BinaryOperator>(
        FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
    auto isPostDec = [](const Expr *E) {
      const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
      return UO && UO->getOpcode() == UO_PostDec;
    };
    const VarDecl *V = nullptr;
    if (C)
      V = varOf(isPostDec(C->getLHS())
                    ? cast<UnaryOperator>(C->getLHS()->IgnoreParenImpCasts())
                          ->getSubExpr()
                    : C->getLHS());
    if (!V || lowering::modifies(FS->getBody(), V))
      return L;
    auto St = step(FS->getInc(), V);
    BinaryOperatorKind K = C->getOpcode();
    std::optional<std::pair<const ParmVarDecl *, int64_t>> Top;
    int64_t From = -1;
    if (St && *St >= 1 && (K == BO_LT || K == BO_LE)) {
      // i < n - c: Slack c; i <= n - c (c >= 1): Slack c - 1.
      Top = paramMinus(C->getRHS());
      if (Top && K == BO_LE && Top->second-- < 1)
        Top.reset();
      if (auto I = init(FS->getInit()); I && I->first == V && I->second >= 0)
        From = I->second;
    } else if (!St && !FS->getInc() && K == BO_GT && isPostDec(C->getLHS())) {
      // `for (i = n; i-- > k;)` (k >= 0): the body sees n - 1 .. k.
      auto Lo = constInt(C->getRHS());
      const Expr *Init = initOf(FS, V);
      if (Init && Lo && *Lo >= 0) {
        Top = paramMinus(Init);
        From = *Lo;
      }
    } else if (St && *St <= -1 && (K == BO_GE || K == BO_GT)) {
      // From n - c (c >= 1: Slack c - 1) down to a constant.
      const Expr *Init = initOf(FS, V);
      auto Lo = constInt(C->getRHS());
      Top = Init ? paramMinus(Init) : std::nullopt;
      if (Top && Top->second-- < 1)
        Top.reset();
      if (Lo)
        From = K == BO_GT ? *Lo + 1 : *Lo;
      if (From < 0)
        Top.reset();
    }
    if (!Top || lowering::modifies(FS->getBody(), Top->first))
      return L;
    L.V = V;
    L.Bound = Top->first;
    L.From = From;
    L.Slack = Top->second; // i <= n - 1 - Slack
    return L;
  }

  /// `while (i < n) { ...; i++; }`: i below n wherever the body reads it
  /// when its only change is the body's last statement (`i++`, `++i`,
  /// `i += 1`) and n is not assigned in the loop.
  LoopVar whileVar(const WhileStmt *WS) {
    LoopVar L;
    const auto *C =
        dyn_cast<BinaryOperator>(WS->getCond()->IgnoreParenImpCasts());
    const auto *Body = dyn_cast<CompoundStmt>(WS->getBody());
    const VarDecl *V =
        C && C->getOpcode() == BO_LT ? varOf(C->getLHS()) : nullptr;
    auto Top = C ? paramMinus(C->getRHS()) : std::nullopt;
    if (!V || !Top || !Body || Body->body_empty() ||
        lowering::modifies(Body, Top->first))
      return L;
    const auto *Last = dyn_cast<Expr>(Body->body_back());
    auto St = Last ? step(Last, V) : std::nullopt;
    if (!St || *St != 1)
      return L;
    for (const Stmt *B : Body->body())
      if (B != Body->body_back() && lowering::modifies(B, V))
        return L;
    L.V = V;
    L.Bound = Top->first;
    L.Slack = Top->second;
    return L;
  }

  /// `for (...; i < n; ...)` with n an integer parameter of FD, or a loop
  /// over a constant range: `for (i = A; i < B; i++)` (also `<=`, and
  /// counting down with `>`/`>=`) whose body does not assign i.
  LoopVar loopVar(const ForStmt *FS) {
    LoopVar L;
    const auto *C = dyn_cast_or_null<BinaryOperator>(
        FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!C)
      return L;
    BinaryOperatorKind K = C->getOpcode();
    if (K == BO_LT) {
      const ParmVarDecl *N = paramOf(C->getRHS());
      if (N && N->getDeclContext() == FD && N->getType()->isIntegerType()) {
        L.V = varOf(C->getLHS());
        L.Bound = N;
        auto I = init(FS->getInit());
        auto St = L.V ? step(FS->getInc(), L.V) : std::nullopt;
        if (I && I->first == L.V && I->second >= 0 && St && *St >= 1 &&
            !lowering::modifies(FS->getBody(), L.V))
          L.From = I->second;
        return L;
      }
    }
    if (LoopVar B = boundBelow(FS); B.Bound)
      return B;
    auto I = init(FS->getInit());
    auto End = constInt(C->getRHS());
    if (!I || !End || varOf(C->getLHS()) != I->first ||
        lowering::modifies(FS->getBody(), I->first))
      return L;
    auto St = step(FS->getInc(), I->first);
    if (!St || *St == 0)
      return L;
    int64_t Lo, Hi;
    if (*St > 0 && (K == BO_LT || K == BO_LE)) {
      Lo = I->second;
      Hi = K == BO_LT ? *End - 1 : *End;
    } else if (*St < 0 && (K == BO_GT || K == BO_GE)) {
      Hi = I->second;
      Lo = K == BO_GT ? *End + 1 : *End;
    } else {
      return L;
    }
    L.V = I->first;
    if (Lo > Hi)
      return L; // never runs: no range, its indices stay unexplained
    L.Ranged = true;
    L.Lo = Lo;
    L.Hi = Hi;
    L.Trips = (Hi - Lo) / std::abs(*St) + 1;
    return L;
  }

  /// The integer parameter n of a loop that runs at most n times: `for (i =
  /// k; i < n; i++)` (k >= 0, i not assigned in the body), `while (n--)`,
  /// `while (n-- > 0)` (n not assigned in the body); else nullptr.
  const ParmVarDecl *counted(const Stmt *S) {
    auto Param = [&](const Expr *E) -> const ParmVarDecl * {
      const ParmVarDecl *N = paramOf(E);
      return N && N->getDeclContext() == FD && N->getType()->isIntegerType()
                 ? N
                 : nullptr;
    };
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      const auto *C = dyn_cast_or_null<BinaryOperator>(
          FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
      auto I = init(FS->getInit());
      if (!C || C->getOpcode() != BO_LT || !I || I->second < 0 ||
          varOf(C->getLHS()) != I->first ||
          lowering::modifies(FS->getBody(), I->first))
        return nullptr;
      auto St = step(FS->getInc(), I->first);
      const ParmVarDecl *N = St && *St >= 1 ? Param(C->getRHS()) : nullptr;
      return N && !lowering::modifies(FS->getBody(), N) ? N : nullptr;
    }
    const auto *WS = dyn_cast<WhileStmt>(S);
    if (!WS)
      return nullptr;
    const Expr *C = WS->getCond()->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      auto K = constInt(BO->getRHS());
      if (BO->getOpcode() != BO_GT || !K || *K != 0)
        return nullptr;
      C = BO->getLHS()->IgnoreParenImpCasts();
    }
    const auto *UO = dyn_cast<UnaryOperator>(C);
    if (!UO || UO->getOpcode() != UO_PostDec)
      return nullptr;
    const ParmVarDecl *N = Param(UO->getSubExpr());
    return N && !lowering::modifies(WS->getBody(), N) ? N : nullptr;
  }

  /// `p + n` / `n + p` with n an integer parameter: the end of a pointer
  /// walk (`for (q = p; q < p + n; q++)`), so n elements.
  void endPointer(const BinaryOperator *BO) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (paramOf(R) == P)
      std::swap(L, R);
    const ParmVarDecl *N = paramOf(R);
    if (paramOf(L) != P || !N || N->getDeclContext() != FD ||
        !N->getType()->isIntegerType())
      return;
    End.Bad |= End.N && End.N != N;
    End.N = N;
  }

  /// Whether \p S steps a pointer: `q += k`, `q++`, `++q`.
  static bool ptrStep(const Stmt *S) {
    const Expr *Q = nullptr;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign)
      Q = CA->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementOp())
      Q = UO->getSubExpr();
    return Q && Q->getType()->isPointerType();
  }

  /// Whether \p S is the step `q += k` / `q++` / `++q` of a walk by p or
  /// a copy q of it, or an access q[c] / *q (of p itself: when p is
  /// stepped); records them.
  bool stepWalk(const Stmt *S) {
    const Stmt *Loop = LoopStmts.empty() ? nullptr : LoopStmts.back();
    auto Walked = [&](const Expr *E) {
      const VarDecl *V = varOf(E);
      if (!V || !isP(E) || (V == P && !Stepped))
        return false;
      if (!Step.Copy)
        Step.Copy = Aliases.lookup(V);
      return true;
    };
    // A read q[Idx] (nullptr: *q): where it is, and its index's range.
    auto Access = [&](const Expr *Idx) {
      WalkAccess A;
      A.In = LoopStmts;
      auto R =
          Idx ? range(Idx) : std::optional<std::pair<int64_t, int64_t>>({0, 0});
      if (R) {
        A.Min = R->first;
        A.Max = R->second;
      } else if (const VarDecl *V = varOf(Idx)) {
        for (auto It = Loops.rbegin(); It != Loops.rend() && !A.Below; ++It)
          if (It->V == V && It->Bound && It->Counts)
            A.Below = It->Bound;
        Step.Bad |= !A.Below;
      } else {
        Step.Bad = true;
      }
      Step.Reads.push_back(std::move(A));
      if (Idx)
        walk(Idx);
      return true;
    };
    // The step: k elements, as the loop's last statement or increment.
    std::optional<int64_t> K;
    const ParmVarDecl *KParam = nullptr;
    const Expr *Q = nullptr;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign) {
      Q = CA->getLHS();
      K = constInt(CA->getRHS());
      // `row += c`, c an integer parameter nothing assigns: c per step.
      if (const ParmVarDecl *C = paramOf(CA->getRHS());
          !K && C && C->getDeclContext() == FD &&
          C->getType()->isIntegerType() &&
          !lowering::modifies(FD->getBody(), C)) {
        KParam = C;
        K = 1;
      }
      if (!K)
        K = 0;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
               UO && UO->isIncrementOp()) {
      Q = UO->getSubExpr();
      K = 1;
    }
    if (Q && Walked(Q)) {
      const auto *FS = dyn_cast_or_null<ForStmt>(Loop);
      const auto *Body = dyn_cast_or_null<CompoundStmt>(
          FS     ? FS->getBody()
          : Loop ? (isa<WhileStmt>(Loop) ? cast<WhileStmt>(Loop)->getBody()
                                         : cast<DoStmt>(Loop)->getBody())
                 : nullptr);
      bool Last = FS && incPart(FS->getInc(), S);
      // The body's last statements: pointer steps only (`x++; y++;`).
      if (Body)
        for (auto It = Body->body_rbegin();
             It != Body->body_rend() && !Last && ptrStep(*It); ++It)
          Last = *It == S;
      Step.Bad |= *K < 1 || !Last || (Step.Loop && Step.Loop != Loop);
      Step.K = *K;
      Step.KParam = KParam;
      Step.Loop = Loop;
      std::string Name = varOf(Q)->getNameAsString();
      const auto *UO = dyn_cast<UnaryOperator>(S);
      Step.Text = UO       ? (UO->isPrefix() ? "++" + Name : Name + "++")
                  : KParam ? Name + " += " + KParam->getNameAsString()
                           : Name + " += " + std::to_string(*K);
      Step.use(Around, Q);
      return true;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S);
        AS && Walked(AS->getBase()))
      return Access(AS->getIdx());
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_Deref && Walked(UO->getSubExpr()))
      return Access(nullptr);
    return false;
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S)) {
      const auto *FS = dyn_cast<ForStmt>(S);
      Trip T;
      T.N = counted(S);
      if (FS) {
        Loops.push_back(loopVar(FS));
        Loops.back().Counts = T.N && T.N == Loops.back().Bound;
        if (!T.N && Loops.back().Ranged)
          T.K = Loops.back().Trips;
      }
      const auto *WS = dyn_cast<WhileStmt>(S);
      if (WS)
        Loops.push_back(whileVar(WS));
      Around.push_back(T);
      LoopStmts.push_back(S);
      for (const Stmt *C : S->children())
        walk(C);
      LoopStmts.pop_back();
      Around.pop_back();
      if (FS || WS)
        Loops.pop_back();
      return;
    }
    // `*p++`: one element per iteration of the loop around it.
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_Deref)
      if (const auto *PostInc =
              dyn_cast<UnaryOperator>(UO->getSubExpr()->IgnoreParens());
          PostInc && PostInc->getOpcode() == UO_PostInc &&
          isP(PostInc->getSubExpr())) {
        // In one loop only: a loop around it would repeat the walk.
        Inc.use(Around, PostInc->getSubExpr());
        return;
      }
    if (stepWalk(S))
      return;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
      if (paramOf(AS->getBase()) == P) {
        index(AS->getIdx());
        walk(AS->getIdx());
        return;
      }
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->getOpcode() == UO_Deref && paramOf(UO->getSubExpr()) == P) {
        MaxConst = std::max<int64_t>(MaxConst, 0);
        return;
      }
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->getOpcode() == BO_Add)
        endPointer(BO);
    Gotos |= isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      if (const auto *V = DS->isSingleDecl()
                              ? dyn_cast<VarDecl>(DS->getSingleDecl())
                              : nullptr;
          V && V->getType()->isPointerType() && V->getInit() &&
          paramOf(V->getInit()) == P) {
        Aliases[V] = V->getInit()->IgnoreParenImpCasts();
        return;
      }
    // Any other use of a copy is a use of p as a pointer.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
          V && Aliases.count(V) && !Whole)
        Whole = Aliases[V];
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (ME->isArrow() && paramOf(ME->getBase()) == P) {
        MaxConst = std::max<int64_t>(MaxConst, 0); // p->m: record 0
        return;
      }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == P && !Whole)
        Whole = DRE;
    for (const Stmt *C : S->children())
      walk(C);
  }
};

/// BD_PACKED / BD_POINTERS: the layout of a varying array's examples.
bool layout(const ParmVarDecl *P, DiagnosticsEngine &D, ir::Param &Out) {
  bool Offs = isPackedOffsets(P), Ptrs = isPackedPointers(P);
  if (Offs && Ptrs) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "array parameter '%0' is marked both BD_PACKED and BD_POINTERS; "
           "pick one layout")
        << Out.Name;
    return false;
  }
  if ((Offs || Ptrs) && Out.Uniform) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "BD_UNIFORM array '%0' cannot be %1: one array for the whole "
           "batch has no per-example layout; drop one of the two")
        << Out.Name << (Offs ? "BD_PACKED" : "BD_POINTERS");
    return false;
  }
  Out.Lay = Offs   ? ir::Layout::Offsets
            : Ptrs ? ir::Layout::Pointers
                   : ir::Layout::Strided;
  return true;
}

/// The extent of a walk of \p K elements (times parameter \p KParam, if
/// any) per iteration of the loops \p Trips (outermost first): their
/// product, static when every factor is a constant. False when a loop has
/// no bound (or an inner loop's bound is a parameter the body assigns).
bool walkExtent(const FunctionDecl *FD, const std::vector<Trip> &Trips,
                int64_t K, const ParmVarDecl *KParam, const std::string &Text,
                ir::Param &Out) {
  if (Trips.empty())
    return false;
  std::vector<const ParmVarDecl *> Ps;
  std::string Loops;
  for (size_t I = 0; I < Trips.size(); ++I) {
    const Trip &T = Trips[I];
    if ((!T.N && T.K <= 0) ||
        (T.N && I > 0 && lowering::modifies(FD->getBody(), T.N)))
      return false;
    Loops += (I ? " x " : "") +
             (T.N ? "'" + T.N->getNameAsString() + "'" : std::to_string(T.K));
    if (T.N)
      Ps.push_back(T.N);
    else if ((K *= T.K) > (1 << 30))
      return false;
  }
  if (KParam)
    Ps.push_back(KParam);
  std::string Why = " (pointer walk '" + Text + "' in " +
                    (Trips.size() == 1 ? "a loop" : "loops") + " of at most " +
                    Loops + " iterations)";
  if (Ps.empty()) {
    Out.StaticLen = (int)K;
    Out.DimHow = "static " + std::to_string(K) + Why;
    return true;
  }
  // The ragged remark names a varying one, if any.
  Out.DimParam = (int)Ps[0]->getFunctionScopeIndex();
  for (const ParmVarDecl *N : Ps)
    if (!isUniform(N)) {
      Out.DimParam = (int)N->getFunctionScopeIndex();
      break;
    }
  std::string Names;
  for (const ParmVarDecl *N : Ps)
    Names += (Names.empty() ? "'" : " x '") + N->getNameAsString() + "'";
  Out.DimHow = "dynamic, " +
               (K > 1 ? std::to_string(K) + " x "
                      : std::string(Ps.size() == 1 ? "from " : "")) +
               (Ps.size() == 1 ? "parameter " : "parameters ") + Names + Why;
  return true;
}

/// The extent of pointer parameter \p P with elements \p E (rows of \p
/// Cols): declared, or inferred from the body's indexing.
bool extent(const FunctionDecl *FD, const ParmVarDecl *P, ASTContext &Ctx,
            DiagnosticsEngine &D, ir::Param &Out, const Expr **Whole,
            QualType E, int64_t Cols, const std::string &RowsOf,
            const std::string &Inner) {
  // Declared extents first: T v[N], T v[static N], T x[n].
  QualType Orig = P->getOriginalType();
  if (const auto *CAT = Ctx.getAsConstantArrayType(Orig)) {
    Out.StaticLen = (int)(CAT->getSize().getZExtValue() * Cols);
    Out.DimHow =
        "static " + std::to_string(Out.StaticLen) + " (declared" +
        (RowsOf.empty()
             ? ""
             : ", " + std::to_string(CAT->getSize().getZExtValue()) + RowsOf) +
        ")";
    return true;
  }
  if (const auto *VAT = Ctx.getAsVariableArrayType(Orig)) {
    const Expr *Size = VAT->getSizeExpr();
    const ParmVarDecl *N = Size ? paramOf(Size) : nullptr;
    // `T x[k * n]` / `T x[n * k]`: n records of k elements.
    std::string Times;
    if (const auto *BO =
            Size ? dyn_cast<BinaryOperator>(Size->IgnoreParenImpCasts())
                 : nullptr;
        !N && BO && BO->getOpcode() == BO_Mul) {
      Expr::EvalResult K;
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      if (!L->isValueDependent() && L->EvaluateAsInt(K, Ctx))
        std::swap(L, R);
      if (!R->isValueDependent() && R->EvaluateAsInt(K, Ctx) &&
          K.Val.getInt().getSExtValue() >= 1) {
        N = paramOf(L);
        Times = std::to_string(K.Val.getInt().getSExtValue()) + " x ";
      }
    }
    if (N && N->getType()->isIntegerType()) {
      Out.DimParam = (int)N->getFunctionScopeIndex();
      Out.DimHow = "dynamic, " + (Times.empty() ? "from " : Times) +
                   "parameter '" + N->getNameAsString() + "' (declared" +
                   RowsOf + ")";
      return true;
    }
    // Any other arithmetic over integer parameters: `x[n + 1]` (a sliding
    // window), `p[n * (n + 1) / 2]` (a packed triangle), `a[r * c]`. The
    // ragged remark (and sorting by length) names a varying one.
    std::vector<const ParmVarDecl *> Ps;
    if (Size && extentExpr(Size, Ctx, Ps) && !Ps.empty()) {
      Out.DimParam = (int)Ps[0]->getFunctionScopeIndex();
      for (const ParmVarDecl *Q : Ps)
        if (!isUniform(Q)) {
          Out.DimParam = (int)Q->getFunctionScopeIndex();
          break;
        }
      std::string Text;
      llvm::raw_string_ostream TS(Text);
      Size->printPretty(TS, nullptr, Ctx.getPrintingPolicy());
      Out.DimHow = "dynamic, declared '" + TS.str() + "' (" +
                   (Ps.size() == 1 ? "parameter '" : "parameters '") +
                   Ps[0]->getNameAsString() + "'";
      for (size_t K = 1; K < Ps.size(); ++K)
        Out.DimHow += ", '" + Ps[K]->getNameAsString() + "'";
      Out.DimHow += RowsOf + ")";
      return true;
    }
  }
  if (!RowsOf.empty()) {
    size_t Rank = 2 + (size_t)std::count(Inner.begin(), Inner.end(), ']');
    bool Planes = Rank > 2;
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "%3-dimensional array parameter '%0' needs a declared number of "
           "%4 in a batch/diff function; declare it as '%1 %0[N][%2]' or "
           "'%1 %0[n][%2]' with an integer parameter n")
        << Out.Name << E.getAsString() << Inner
        << (Rank == 2   ? "two"
            : Rank == 3 ? "three"
                        : "multi")
        << (Planes ? "planes" : "rows");
    return false;
  }
  // A plain pointer: look at how the body indexes it.
  Uses U(P, FD, Ctx);
  U.walk(FD->getBody());
  // `c[n]` alone (a lookup at a parameter's index) explains nothing; with
  // a loop counted by n (Horner from the top) it adds to n.
  if (U.PlusParam && (U.PlusParam != U.Bound || U.Scale > 1) && !U.Unknown)
    U.Unknown = U.PlusAt;
  if (U.Whole && U.End.N && !U.End.Bad) {
    Out.DimParam = (int)U.End.N->getFunctionScopeIndex();
    Out.DimHow = "dynamic, from parameter '" + U.End.N->getNameAsString() +
                 "' (end pointer '" + Out.Name + " + " +
                 U.End.N->getNameAsString() + "')";
    return true;
  }
  // `for (i = 0; i < n; i++) s += *p++;`: one element per iteration.
  // (`*p` or `p[0]` besides: the first element, read by the scalar function
  // whatever n is.)
  // `for (i = 0; i < n; i++) { s += q[0] * q[1]; q += 2; }`: k per iteration,
  // also in nested loops (`row[j]` under `j < 4`, then `row += 4`).
  const StepRule &St = U.Step;
  bool StepOk = St.Uses == 1 && !St.Bad && U.Inc.Uses == 0 && !U.Gotos &&
                !U.Whole && !U.Unknown && !U.Bound && U.MaxConst < 0;
  for (const WalkAccess &A : St.Reads)
    StepOk &= std::find(A.In.begin(), A.In.end(), St.Loop) != A.In.end() &&
              (St.KParam ? A.Below == St.KParam
                         : !A.Below && A.Min >= 0 && A.Max < St.K);
  if (StepOk && walkExtent(FD, St.Trips, St.K, St.KParam, St.Text, Out))
    return true;
  if (St.Copy && !U.Whole)
    U.Whole = St.Copy; // the copy is used as a pointer after all
  const WalkRule &In = U.Inc;
  if (St.Uses == 0 && St.Reads.empty() && In.Uses == 1 && !U.Gotos &&
      !U.Whole && !U.Unknown && U.MaxConst <= 0 && !U.FromRange &&
      (!U.Bound || (In.Trips.size() == 1 && U.Bound == In.Trips[0].N)) &&
      walkExtent(FD, In.Trips, 1, nullptr,
                 "*" + varOf(In.At)->getNameAsString() + "++", Out))
    return true;
  for (const WalkRule *R : {(const WalkRule *)&U.Inc, (const WalkRule *)&St})
    if (R->Uses > 0 && !U.Whole)
      U.Whole = R->At;
  if (U.Whole) {
    *Whole = U.Whole;
    return true;
  }
  if (!U.Unknown && U.Bound) {
    Out.DimParam = (int)U.Bound->getFunctionScopeIndex();
    std::string N = U.Bound->getNameAsString();
    if (U.Plus > 0) // (then Scale is 1: `c[n]` and loops counted to n)
      Out.DimHow = "dynamic, parameter '" + N + "' + " +
                   std::to_string(U.Plus) + " (loop bound and index '" + N +
                   (U.Plus > 1 ? " + " + std::to_string(U.Plus - 1) : "") +
                   "')";
    else
      Out.DimHow = "dynamic, " +
                   (U.Scale > 1 ? std::to_string(U.Scale) + " x parameter '"
                                : std::string("from parameter '")) +
                   N +
                   (U.Scale > 1 ? "' (loop bound, indices " +
                                      std::to_string(U.Scale) + " * i + c)"
                                : "' (loop bound)");
    return true;
  }
  if (!U.Unknown && U.MaxConst >= 0) {
    Out.StaticLen = (int)U.MaxConst + 1;
    Out.DimHow = "static " + std::to_string(Out.StaticLen) +
                 (U.FromRange ? " (index range of constant-bound loops)"
                              : " (constant indices)");
    return true;
  }
  report(D, DiagnosticsEngine::Error,
         U.Unknown ? U.Unknown->getBeginLoc() : P->getLocation(),
         "cannot infer the extent of '%0' in a batch/diff function; declare "
         "it as '%1 %0[n]' with an integer parameter n before it (or "
         "arithmetic of such parameters, '%0[n + 1]'), or '%1 %0[static N]'")
      << Out.Name << E.getAsString();
  return false;
}

} // namespace

bool lowerArrayParam(const FunctionDecl *FD, unsigned I, ASTContext &Ctx,
                     DiagnosticsEngine &D, ir::Param &Out, const Expr **Whole) {
  const ParmVarDecl *P = FD->getParamDecl(I);
  QualType E = P->getType()->getPointeeType();
  // A two-dimensional array `T m[R][C]`, `T x[n][C]`: rows of C elements,
  // row-major, one flat array of the batch's layout (docs/abi.md); three
  // dimensions, `T c[N][R][C]`: planes of R x C elements, the same way.
  int64_t Cols = 1;
  std::string Inner; // "C" or "R][C", as declared
  if (auto Flat = flatArray(Ctx, E)) {
    for (QualType Q = E; const auto *A = Ctx.getAsConstantArrayType(Q);
         Q = A->getElementType())
      Inner += (Inner.empty() ? "" : "][") +
               std::to_string(A->getSize().getZExtValue());
    Cols = (int64_t)Flat->second;
    E = Flat->first;
  }
  Out.Name = P->getNameAsString();
  Out.IsArray = true;
  Out.Uniform = isUniform(P);
  Out.Writable = !E.isConstQualified();
  auto T = irType(E);
  if (!T || E.isVolatileQualified()) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "pointer parameter '%0' to '%1' is not supported in a batch/diff "
           "function; point to float, double, integer or _Bool elements")
        << Out.Name << E.getAsString();
    return false;
  }
  Out.Ty = *T;
  Out.CType = E.getUnqualifiedType().getAsString();
  Out.NativeLayout = nativeLayout(Ctx, E, *T);
  if (!Out.NativeLayout) {
    // char, short and _Bool arrays (pixels, labels, masks, quantised
    // outputs) are read and written element by element in 32-bit lanes:
    // widened as C promotes them, like char tables (a _Bool, a byte 0 or 1,
    // compared with 0 where it is read), and stored truncated as C converts
    // to them (the lowering converts the value first; a _Bool stores 0/1).
    // (Only those have an IR type of another width: irType.)
    bool Bool = *T == ir::Type::Bool;
    Out.Ty = ir::Type::I32;
    Out.Narrow = (Bool || E->isUnsignedIntegerType() ? "u" : "i") +
                 std::to_string(Ctx.getTypeSize(E));
    Out.BoolBytes = Bool;
    Out.NativeLayout = true; // the kernel reads the narrow type in place
  }
  Out.NoDiff = isNoDiff(P) || !ir::isFloat(*T);
  if (!layout(P, D, Out))
    return false;
  if (Out.Uniform && Out.Writable) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "BD_UNIFORM output array '%0': every example would write the same "
           "array; make it varying (one array per example) or const")
        << Out.Name;
    return false;
  }
  std::string RowsOf;
  if (Inner.find(']') != std::string::npos) {
    std::string Plane = Inner;
    for (size_t At; (At = Plane.find("][")) != std::string::npos;)
      Plane.replace(At, 2, " x ");
    RowsOf = " planes of " + Plane + " (row-major)";
  } else if (!Inner.empty()) {
    RowsOf = " rows of " + Inner + " (row-major)";
  }
  return extent(FD, P, Ctx, D, Out, Whole, E, Cols, RowsOf, Inner);
}

bool recordArrayExtent(const FunctionDecl *FD, unsigned I, ASTContext &Ctx,
                       DiagnosticsEngine &D, ir::Param &Out,
                       const Expr **Whole) {
  const ParmVarDecl *P = FD->getParamDecl(I);
  return extent(FD, P, Ctx, D, Out, Whole, P->getType()->getPointeeType(), 1,
                "", "");
}

} // namespace batchdiff
