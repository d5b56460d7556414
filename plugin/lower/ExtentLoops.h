//===- ExtentLoops.h - loop shapes that bound an array index ---*- C++ -*-===//
// Private to ArrayParams.cpp (through ExtentUses.h): the loops extent
// inference recognises (counted by an integer parameter, over a constant
// range, `while (n--)`, counted down by a local copy of a parameter, `i =
// n; do ... while (--i)`): what bounds a loop's variable, and how many
// times a loop runs.
#pragma once
#include "lower/LowerImpl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace batchdiff {
namespace extents {

using namespace clang;

inline const ParmVarDecl *paramOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

inline const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
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
  // down: `x[i + 1]` is inside n); -1: i reaches n (`i <= n`).
  int64_t Slack = 0;
  int64_t Trips = 0; // Ranged: how many iterations
  // Bound, a do/while loop: its body runs once even when From is not below
  // n - Slack, so i also takes From (doVar).
  bool Once = false;
  // Bound, `while (n--)`: i stays below n for n >= Need only (below it the
  // scalar loop ends only when n wraps around); -1: for every n.
  int64_t Need = -1;
  // Bound: i stays below n / Div (`for (i = 0; i < n / 2; i++)`, `i < (n >>
  // 1)`: pairs), counting up from From >= 0 and unassigned in the body.
  int64_t Div = 1;
  // Bound: the test bounds Mul * i, Mul * i <= n - 1 - Slack (`2 * i + 1 <
  // n`: pairs), i counting up from From >= 0 and unassigned in the body.
  int64_t Mul = 1;
};

/// How many times a loop runs at most: an integer parameter N (`for (i =
/// 0; i < n; i++)`, `while (n--)`) or a constant K (`for (j = 0; j < 4;
/// j++)`); neither: unknown.
struct Trip {
  const ParmVarDecl *N = nullptr;
  int64_t K = 0;
  bool Once = false; // N, a do/while loop: max(n, 1) times (doCounted)
  // N: n times for n >= Need only, `while (n--)` 0, `do ... while (--n)` 1
  // (below it the scalar loop ends only when n wraps around); -1: any n.
  int64_t Need = -1;
};

/// A loop that a local counter copied from `n - c` counts down (downCount):
/// it runs at most max(n - C, *Floor) times, or, without a floor, n - C
/// times when n - C >= Need (below it the scalar loop runs the counter past
/// 0 until it wraps).
struct CountDown {
  const ParmVarDecl *N = nullptr;
  int64_t C = 0;
  const VarDecl *I = nullptr;
  std::optional<int64_t> Floor;
  int64_t Need = 0;
  std::string Test; // the loop's test, for the remark: "--i", "i-- > 0"
};

/// An index `c + sum k_v * v` over loop variables v.
struct Affine {
  int64_t C = 0;
  std::vector<std::pair<const VarDecl *, int64_t>> Terms;
};

/// The loop shapes of one function: what bounds a loop's variable, and
/// how many times a loop runs.
struct LoopShapes {
  const FunctionDecl *FD;
  ASTContext &Ctx;

  LoopShapes(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {}

  /// paramOf for a loop's bound, also through an explicit cast to an
  /// integer type of at least 32 bits (`i < (size_t)n`, `i = (size_t)n`,
  /// `i < (int)n` of a size_t n): the same bound for every length an int
  /// can hold.
  const ParmVarDecl *boundParamOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      const Expr *Sub = CE->getSubExpr()->IgnoreParenImpCasts();
      QualType T = CE->getType();
      if (!T->isIntegerType() || T->isBooleanType() ||
          !Sub->getType()->isIntegerType() || Ctx.getIntWidth(T) < 32)
        break;
      E = Sub;
    }
    return paramOf(E);
  }

  /// A loop's bound `n / d` or `n >> s` (d = 2^s), n an integer parameter
  /// (boundParamOf; the quotient also through such a cast, `i < (int)(n /
  /// 2)`), d a constant from 2 to 2^30: n, and d in \p Div.
  const ParmVarDecl *boundDivOf(const Expr *E, int64_t &Div) {
    E = E->IgnoreParenImpCasts();
    while (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      QualType T = CE->getType();
      const Expr *Sub = CE->getSubExpr()->IgnoreParenImpCasts();
      if (!T->isIntegerType() || T->isBooleanType() ||
          !Sub->getType()->isIntegerType() || Ctx.getIntWidth(T) < 32)
        break;
      E = Sub;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || (BO->getOpcode() != BO_Div && BO->getOpcode() != BO_Shr))
      return nullptr;
    auto K = constInt(BO->getRHS());
    if (!K || (BO->getOpcode() == BO_Div ? *K < 2 || *K > (int64_t(1) << 30)
                                         : *K < 1 || *K > 30))
      return nullptr;
    Div = BO->getOpcode() == BO_Div ? *K : int64_t(1) << *K;
    return boundParamOf(BO->getLHS());
  }

  /// A loop's bound n, `n / d` or `n >> s` (boundParamOf, boundDivOf; d in
  /// \p Div), also through a local integer declared with one, keeping its
  /// value, and assigned nowhere (`int h = n / 2;`, then `i < h`).
  const ParmVarDecl *boundOf(const Expr *E, int64_t &Div) {
    Div = 1;
    if (const ParmVarDecl *N = boundParamOf(E))
      return N;
    if (const ParmVarDecl *N = boundDivOf(E, Div))
      return N;
    const VarDecl *M = varOf(E);
    if (!M || isa<ParmVarDecl>(M) || !M->hasLocalStorage() || !M->getInit() ||
        !keepsValue(M, M->getInit()) || lowering::modifies(FD->getBody(), M))
      return nullptr;
    Div = 1;
    if (const ParmVarDecl *N = boundParamOf(M->getInit()))
      return N;
    return boundDivOf(M->getInit(), Div);
  }

  /// A loop condition's leftmost conjunct (`i < n` of `i < n && x[i] < t`:
  /// the rest is evaluated only while it holds, so it bounds i as well).
  static const BinaryOperator *boundCond(const Expr *C) {
    for (;;) {
      C = C ? C->IgnoreParenImpCasts() : nullptr;
      const auto *BO = dyn_cast_or_null<BinaryOperator>(C);
      if (!BO || BO->getOpcode() != BO_LAnd)
        return BO;
      C = BO->getLHS();
    }
  }

  std::optional<int64_t> constInt(const Expr *E) {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
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
    const ParmVarDecl *N = boundParamOf(E);
    if (!N || declFunctionContext(N) != FD || !N->getType()->isIntegerType())
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

  /// Whether \p S takes the address of \p V anywhere (`int *q = &i;`, `f(&i)`).
  static bool addressOf(const Stmt *S, const VarDecl *V) {
    if (!S)
      return false;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_AddrOf && varOf(UO->getSubExpr()) == V)
      return true;
    for (const Stmt *C : astChildren(S))
      if (addressOf(C, V))
        return true;
    return false;
  }

  /// Whether a loop's counter \p V keeps, in the loop's body \p Body and
  /// condition \p Cond, the value the test bounded: a local (or a
  /// parameter) that neither assigns or steps (`i += 1;` before `x[i]`
  /// reads x[n]; in a nested loop too), whose address the function never
  /// takes (a pointer to it, `int *q = &i;`, may change it anywhere).
  bool kept(const VarDecl *V, const Stmt *Body, const Stmt *Cond) const {
    return V && V->hasLocalStorage() && !lowering::modifies(Body, V) &&
           !lowering::modifies(Cond, V) && !addressOf(FD->getBody(), V);
  }

  /// Whether \p E may be below 0 as far as its text tells: a negative
  /// constant, or a value with a subtraction or a negation in it (`i - 5`,
  /// `n - k`, `-k`). (Any other value is the caller's: a negative one
  /// reads before the array in the scalar function too.)
  bool mayBeNegative(const Expr *E) {
    if (auto K = constInt(E))
      return *K < 0;
    std::function<bool(const Stmt *)> Sub = [&](const Stmt *T) {
      if (!T)
        return false;
      if (const auto *BO = dyn_cast<BinaryOperator>(T);
          BO && (BO->getOpcode() == BO_Sub || BO->getOpcode() == BO_SubAssign))
        return true;
      if (const auto *UO = dyn_cast<UnaryOperator>(T);
          UO && (UO->getOpcode() == UO_Minus || UO->isDecrementOp()))
        return true;
      for (const Stmt *C : astChildren(T))
        if (Sub(C))
          return true;
      return false;
    };
    return Sub(E);
  }

  /// Whether the signed counter \p V of loop \p S may start below 0 as
  /// far as the text tells: its init, a negative constant, when S is a for
  /// loop that sets V (`for (i = -3; i < n; i++)` reads x[-3]); else any
  /// value the function gives V outside S (mayBeNegative: `int i = -2;`,
  /// `i = i - 5;`, `i -= 2;`, `i--`; `++` and values without a subtraction
  /// stay the caller's).
  bool startsNegative(const VarDecl *V, const Stmt *S) {
    if (!V->getType()->isSignedIntegerType())
      return false;
    if (const auto *FS = dyn_cast<ForStmt>(S))
      if (const Expr *E = initOf(FS, V)) {
        auto K = constInt(E); // (`for (j = i - 1; ...)` under i >= 1: fine)
        return K && *K < 0;
      }
    std::function<bool(const Stmt *)> Neg = [&](const Stmt *T) {
      if (!T || T == S)
        return false;
      if (const auto *BO = dyn_cast<BinaryOperator>(T);
          BO && BO->isAssignmentOp() && varOf(BO->getLHS()) == V &&
          (BO->getOpcode() == BO_SubAssign || mayBeNegative(BO->getRHS())))
        return true;
      if (const auto *UO = dyn_cast<UnaryOperator>(T);
          UO && UO->isDecrementOp() && varOf(UO->getSubExpr()) == V)
        return true;
      if (const auto *DS = dyn_cast<DeclStmt>(T))
        for (const Decl *D : DS->decls())
          if (D == V && V->getInit() && mayBeNegative(V->getInit()))
            return true;
      for (const Stmt *C : astChildren(T))
        if (Neg(C))
          return true;
      return false;
    };
    return Neg(FD->getBody());
  }

  /// Loops that keep i inside [From, n - 1 - Slack], n an integer
  /// parameter neither they nor i's loop assign: `for (i = 0; i < n - 1;
  /// i++)` (`x[i + 1]`), `for (i = 1; i <= n - 1; i++)`, and counting down,
  /// `for (j = n - 1; j >= 0; j--)` (Clenshaw, Horner from the top), `for
  /// (j = n; j >= 1; j--)` (1-based, Slack -1).
  LoopVar boundBelow(const ForStmt *FS) {
    LoopVar L;
    const auto *C = boundCond(FS->getCond());
    auto isPostDec = [](const Expr *E) {
      const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
      return UO && UO->getOpcode() == UO_PostDec;
    };
    const VarDecl *V = nullptr;
    // `i + k < n` (k >= 0 a constant): i < n - k (pairs, `for (i = 0; i + 1
    // < n; i += 2) x[i] * x[i + 1]`).
    int64_t Off = 0;
    const Expr *Lhs = C ? C->getLHS() : nullptr;
    if (const auto *Add =
            Lhs ? dyn_cast<BinaryOperator>(Lhs->IgnoreParenImpCasts())
                : nullptr;
        Add && Add->getOpcode() == BO_Add)
      if (auto Kk = constInt(Add->getRHS()); Kk && *Kk >= 0) {
        Off = *Kk;
        Lhs = Add->getLHS();
      }
    // `k * i + c < n` (k >= 2 a constant): k * i < n - c (pairs, `for (i =
    // 0; 2 * i + 1 < n; i++) x[2 * i] * x[2 * i + 1]`).
    int64_t Mul = 1;
    if (const auto *Times =
            Lhs ? dyn_cast<BinaryOperator>(Lhs->IgnoreParenImpCasts())
                : nullptr;
        Times && Times->getOpcode() == BO_Mul)
      if (auto Kk = constInt(Times->getLHS()); Kk && *Kk >= 2 && *Kk <= 64) {
        Mul = *Kk;
        Lhs = Times->getRHS();
      }
    if (C)
      V = varOf(
          isPostDec(Lhs)
              ? cast<UnaryOperator>(Lhs->IgnoreParenImpCasts())->getSubExpr()
              : Lhs);
    // (`for (i = n; i-- > k;)`: that test alone steps i.)
    bool DecTest = Lhs && isPostDec(Lhs);
    if (!V || (DecTest && C != FS->getCond()->IgnoreParenImpCasts()) ||
        !kept(V, FS->getBody(), DecTest ? nullptr : FS->getCond()))
      return L;
    auto St = step(FS->getInc(), V);
    BinaryOperatorKind K = C->getOpcode();
    std::optional<std::pair<const ParmVarDecl *, int64_t>> Top;
    int64_t From = -1;
    if ((Off || Mul > 1) && !(St && *St >= 1 && (K == BO_LT || K == BO_LE)))
      return L;
    if (St && *St >= 1 && (K == BO_LT || K == BO_LE)) {
      // i < n - c: Slack c; i <= n - c: Slack c - 1 (-1 for `i <= n`, the
      // 1-based loops of Numerical Recipes: i reaches n); i + k < n - c:
      // Slack c + k.
      Top = paramMinus(C->getRHS());
      if (Top)
        Top->second += Off;
      if (Top && K == BO_LE)
        Top->second--;
      if (auto I = init(FS->getInit()); I && I->first == V && I->second >= 0)
        From = I->second;
      if (startsNegative(V, FS)) // `for (i = -1; i <= n - 1; i++)`
        return L;
    } else if (!St && !FS->getInc() && K == BO_GT && isPostDec(C->getLHS())) {
      // `for (i = n; i-- > k;)` (k >= 0): the body sees n - 1 .. k.
      auto Lo = constInt(C->getRHS());
      const Expr *Init = initOf(FS, V);
      if (Init && Lo && *Lo >= 0) {
        Top = paramMinus(Init);
        From = *Lo;
      }
    } else if (St && *St <= -1 && (K == BO_GE || K == BO_GT)) {
      // From n - c (Slack c - 1) down to a constant; from n itself (Slack
      // -1, as `i <= n`: Numerical Recipes' 1-based `for (j = n; j >= 1;
      // j--)`).
      const Expr *Init = initOf(FS, V);
      auto Lo = constInt(C->getRHS());
      Top = Init ? paramMinus(Init) : std::nullopt;
      if (Top)
        Top->second--;
      if (Lo)
        From = K == BO_GT ? *Lo + 1 : *Lo;
      if (From < 0)
        Top.reset();
    }
    if (!Top || !kept(Top->first, FS->getBody(), FS->getCond()))
      return L;
    if (Mul > 1 && (From < 0 || Top->second < 0)) // (`2 * i <= n`: 2i = n)
      return L;
    L.V = V;
    L.Bound = Top->first;
    L.From = From;
    L.Slack = Top->second; // Mul * i <= n - 1 - Slack
    L.Mul = Mul;
    return L;
  }

  /// `while (i < n) { ...; i++; }`: i below n wherever the body reads it
  /// when its only change is the body's last statement (`i++`, `++i`,
  /// `i += 1`) and n is not assigned in the loop.
  LoopVar whileVar(const WhileStmt *WS) {
    if (LoopVar D = countDown(WS); D.Bound)
      return D;
    if (LoopVar D = downWhile(WS); D.Bound)
      return D;
    LoopVar L;
    const auto *C = boundCond(WS->getCond());
    const auto *Body = dyn_cast<CompoundStmt>(WS->getBody());
    const VarDecl *V =
        C && C->getOpcode() == BO_LT ? varOf(C->getLHS()) : nullptr;
    auto Top = C ? paramMinus(C->getRHS()) : std::nullopt;
    if (!V || !Top || !Body || Body->body_empty() ||
        !kept(Top->first, Body, WS->getCond()))
      return L;
    const auto *Last = dyn_cast<Expr>(Body->body_back());
    auto St = Last ? step(Last, V) : std::nullopt;
    if (!St || *St != 1)
      return L;
    for (const Stmt *B : Body->body())
      if (B != Body->body_back() && lowering::modifies(B, V))
        return L;
    // (`int i = -2; while (i < n)` reads x[-2].)
    if (!kept(V, nullptr, WS->getCond()) || startsNegative(V, WS))
      return L;
    L.V = V;
    L.Bound = Top->first;
    L.Slack = Top->second;
    return L;
  }

  // While-loop shapes (ExtentWhile.h, which defines them).
  LoopVar downWhile(const WhileStmt *WS);
  const ParmVarDecl *searchBound(const VarDecl *V, int64_t &Need,
                                 std::vector<const VarDecl *> &Vars);

  /// `while (n--)` / `while (n-- > 0)`, n an integer parameter that
  /// nothing else in the function assigns: the body sees n - 1 .. 0, so
  /// `c[n]` there is inside the parameter's n (Horner, `r = r * x +
  /// c[n]`).
  LoopVar countDown(const WhileStmt *WS) {
    LoopVar L;
    const Expr *C = WS->getCond()->IgnoreParenImpCasts();
    bool GT0 = false;
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      auto K = constInt(BO->getRHS());
      if (BO->getOpcode() != BO_GT || !K || *K != 0)
        return L;
      C = BO->getLHS()->IgnoreParenImpCasts();
      GT0 = true;
    }
    const auto *UO = dyn_cast<UnaryOperator>(C);
    const ParmVarDecl *N = UO && UO->getOpcode() == UO_PostDec
                               ? paramOf(UO->getSubExpr())
                               : nullptr;
    if (!N || declFunctionContext(N) != FD || !N->getType()->isIntegerType() ||
        modifiesReaching(FD->getBody(), N, WS, UO))
      return L;
    L.V = N;
    L.Bound = N;
    L.Need = GT0 ? -1 : 0;
    return L;
  }

  /// Whether \p S itself (not its children) assigns \p V, steps it or
  /// takes its address.
  static bool writes(const Stmt *S, const VarDecl *V) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      return BO->isAssignmentOp() && varOf(BO->getLHS()) == V;
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      return (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
             varOf(UO->getSubExpr()) == V;
    return false;
  }

  /// Whether \p S assigns \p V (or takes its address) anywhere but in
  /// \p Skip (and \p Skip2).
  static bool modifiesBesides(const Stmt *S, const VarDecl *V, const Stmt *Skip,
                              const Stmt *Skip2 = nullptr) {
    if (!S || S == Skip || S == Skip2)
      return false;
    if (writes(S, V))
      return true;
    for (const Stmt *C : astChildren(S))
      if (modifiesBesides(C, V, Skip, Skip2))
        return true;
    return false;
  }

  /// Whether \p Body assigns \p V (or takes its address) outside \p Skip
  /// and \p Skip2 where the write can run before \p At does: before it in
  /// the text, inside it, or in a loop around it (whose next iteration
  /// reaches it again). A write after it in no loop around it cannot change
  /// what it sees (`for (i = 0; i < n; i++) s += x[i]; n = 0;`). With a
  /// goto, any write counts.
  static bool modifiesReaching(const Stmt *Body, const VarDecl *V,
                               const Stmt *At, const Stmt *Skip,
                               const Stmt *Skip2 = nullptr) {
    if (jumps(Body))
      return modifiesBesides(Body, V, Skip, Skip2);
    std::vector<const Stmt *> Around; // the statements that contain At
    struct Walk {
      const VarDecl *V;
      const Stmt *At, *Skip, *Skip2;
      std::vector<const Stmt *> &Around;
      bool Passed = false;
      bool path(const Stmt *S) {
        if (!S)
          return false;
        if (S == At)
          return true;
        for (const Stmt *C : astChildren(S))
          if (path(C)) {
            Around.push_back(S);
            return true;
          }
        return false;
      }
      bool visit(const Stmt *S, bool InLoop) {
        if (S && S == At) { // (At may be Skip: then only what reaches it)
          bool R = modifiesBesides(S, V, Skip, Skip2);
          Passed = true;
          return R;
        }
        if (!S || S == Skip || S == Skip2)
          return false;
        if (writes(S, V) && (!Passed || InLoop))
          return true;
        InLoop |= (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S)) &&
                  std::find(Around.begin(), Around.end(), S) != Around.end();
        for (const Stmt *C : astChildren(S))
          if (visit(C, InLoop))
            return true;
        return false;
      }
    } W{V, At, Skip, Skip2, Around};
    if (!W.path(Body))
      return modifiesBesides(Body, V, Skip, Skip2);
    return W.visit(Body, false);
  }

  /// `for (...; i < n; ...)` with n an integer parameter of FD, or a loop
  /// over a constant range: `for (i = A; i < B; i++)` (also `<=`, and
  /// counting down with `>`/`>=`) whose body does not assign i.
  LoopVar loopVar(const ForStmt *FS) {
    LoopVar L;
    const auto *C = boundCond(FS->getCond());
    if (!C)
      return L;
    BinaryOperatorKind K = C->getOpcode();
    // `i <= q - 1` of a quotient q (`i <= n / 2 - 1`): `i < q`.
    const Expr *Rhs = C->getRHS();
    if (const auto *Sub = dyn_cast<BinaryOperator>(Rhs->IgnoreParenImpCasts());
        K == BO_LE && Sub && Sub->getOpcode() == BO_Sub &&
        constInt(Sub->getRHS()) == 1) {
      int64_t D = 1;
      if (boundOf(Sub->getLHS(), D) && D > 1) {
        K = BO_LT;
        Rhs = Sub->getLHS();
      }
    }
    if (K == BO_LT) {
      int64_t Div = 1;
      const ParmVarDecl *N = boundOf(Rhs, Div);
      if (N && declFunctionContext(N) == FD && N->getType()->isIntegerType() &&
          varOf(C->getLHS())) {
        L.V = varOf(C->getLHS());
        auto I = init(FS->getInit());
        auto St = step(FS->getInc(), L.V);
        // The body sees i below n only if nothing else changes it; from a
        // negative start, or stepped down (signed: no wrap ends it), it
        // reads before the array.
        if (!kept(L.V, FS->getBody(), FS->getCond()) ||
            !kept(N, FS->getBody(), FS->getCond()) || startsNegative(L.V, FS) ||
            (St && *St < 0 && L.V->getType()->isSignedIntegerType()))
          return LoopVar();
        L.Bound = N;
        if (I && I->first == L.V && I->second >= 0 && St && *St >= 1)
          L.From = I->second;
        // `i < n / 2`: only counting up from a constant >= 0, unassigned.
        if (Div > 1 && L.From < 0)
          return LoopVar();
        L.Div = Div;
        return L;
      }
    }
    if (LoopVar B = boundBelow(FS); B.Bound)
      return B;
    auto I = init(FS->getInit());
    auto End = constInt(C->getRHS());
    if (!I || !End || varOf(C->getLHS()) != I->first ||
        !kept(I->first, FS->getBody(), FS->getCond()))
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

  // Index shapes (ExtentIndex.h, which defines them).
  std::optional<Affine> affine(const Expr *E);
  const ParmVarDecl *remBound(const Expr *E, const std::vector<LoopVar> &Loops);
  std::optional<int64_t> initOf(const Stmt *S, const VarDecl *V,
                                const ParmVarDecl *N, bool &Minus);
  std::optional<LoopVar> laggingVar(const ForStmt *FS, const LoopVar &I);

  /// Whether \p S has a goto (which could run a loop again) or a case
  /// label of a switch around it (which could enter it in the middle).
  static bool jumps(const Stmt *S, bool InSwitch = false) {
    if (!S)
      return false;
    if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
        (isa<SwitchCase>(S) && !InSwitch))
      return true;
    for (const Stmt *C : astChildren(S))
      if (jumps(C, InSwitch || isa<SwitchStmt>(S)))
        return true;
    return false;
  }

  /// `do { ...; i++; } while (i < n - c);` (c >= 0, or `i < n`), i a local
  /// declared with a constant K >= 0 and changed only by the body's last
  /// statement (`i++`, `++i`, `i += k`, k >= 1), n an integer parameter the
  /// function never assigns, the loop in no other loop (\p Nested) and the
  /// function without goto: the body sees i from K up to n - 1 - c, as
  /// `for (i = K; i < n - c; i++)` would, but runs once even when K is not
  /// below n - c (Once: i = K then).
  LoopVar doVar(const DoStmt *DS, bool Nested) {
    LoopVar L;
    const auto *C =
        dyn_cast<BinaryOperator>(DS->getCond()->IgnoreParenImpCasts());
    const auto *Body = dyn_cast<CompoundStmt>(DS->getBody());
    const auto *V = C && C->getOpcode() == BO_LT
                        ? dyn_cast_or_null<VarDecl>(varOf(C->getLHS()))
                        : nullptr;
    auto Top = V ? paramMinus(C->getRHS()) : std::nullopt;
    if (Nested || !Top || !Body || Body->body_empty() ||
        !V->hasLocalStorage() || !V->getInit() ||
        lowering::modifies(FD->getBody(), Top->first) || jumps(FD->getBody()))
      return L;
    auto K = constInt(V->getInit());
    const auto *Last = dyn_cast<Expr>(Body->body_back());
    auto St = Last ? step(Last, V) : std::nullopt;
    if (!K || *K < 0 || !St || *St < 1 ||
        modifiesBesides(FD->getBody(), V, Last))
      return L;
    L.V = V;
    L.Bound = Top->first;
    L.Slack = Top->second;
    L.From = *K;
    L.Once = true;
    return L;
  }

  /// `do { ... } while (--n);` or `while (--n > 0)`, n an integer parameter
  /// that nothing else in the function assigns, the loop in no other loop
  /// (\p Nested) and the function without goto: n times for n >= 1 (with
  /// `--n > 0`, once for n < 1: \p Once; with `--n`, n < 1 would run it
  /// past INT_MIN, in the scalar function too); else nullptr.
  const ParmVarDecl *doCounted(const DoStmt *DS, bool Nested, bool &Once) {
    const Expr *C = DS->getCond()->IgnoreParenImpCasts();
    Once = false;
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      auto K = constInt(BO->getRHS());
      if (BO->getOpcode() != BO_GT || !K || *K != 0)
        return nullptr;
      C = BO->getLHS()->IgnoreParenImpCasts();
      Once = true;
    }
    const auto *UO = dyn_cast<UnaryOperator>(C);
    const ParmVarDecl *N = UO && UO->getOpcode() == UO_PreDec
                               ? paramOf(UO->getSubExpr())
                               : nullptr;
    if (Nested || !N || declFunctionContext(N) != FD ||
        !N->getType()->isIntegerType() ||
        modifiesReaching(FD->getBody(), N, DS, UO) || jumps(FD->getBody()))
      return nullptr;
    return N;
  }

  /// `do { ... } while (--n);` (doCounted; not `--n > 0`, whose body runs
  /// once for n < 1): the body sees n itself from its value down to 1, for
  /// n >= 1 (below it the scalar loop runs n down until it wraps): a loop
  /// variable n bounded by n, reaching it (Slack -1: `x[n - 1]` is within
  /// n, `x[n]` n + 1), From 1.
  LoopVar doCountedVar(const DoStmt *DS, bool Nested) {
    LoopVar L;
    bool Once = false;
    const ParmVarDecl *N = doCounted(DS, Nested, Once);
    if (!N || Once)
      return L;
    L.V = L.Bound = N;
    L.Slack = -1;
    L.From = 1;
    L.Need = 1;
    return L;
  }

  /// The text of \p E as written, for remarks.
  std::string text(const Stmt *E) const {
    std::string T;
    llvm::raw_string_ostream OS(T);
    E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
    return OS.str();
  }

  /// `--i` (\p Pre) or `i--` of an integer variable, as \p E or its
  /// `> 0`: the variable, the decrement in \p Dec and whether `> 0`
  /// follows in \p GT0.
  static const VarDecl *decrement(const Expr *E, bool Pre,
                                  const UnaryOperator *&Dec, bool &GT0) {
    E = E ? E->IgnoreParenImpCasts() : nullptr;
    GT0 = false;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E)) {
      const auto *Z =
          dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts());
      if (BO->getOpcode() != BO_GT || !Z || Z->getValue() != 0)
        return nullptr;
      E = BO->getLHS()->IgnoreParenImpCasts();
      GT0 = true;
    }
    Dec = dyn_cast_or_null<UnaryOperator>(E);
    if (!Dec || Dec->getOpcode() != (Pre ? UO_PreDec : UO_PostDec))
      return nullptr;
    const VarDecl *V = varOf(Dec->getSubExpr());
    return V && V->getType()->isIntegerType() ? V : nullptr;
  }

  /// The value \p I has when loop \p L, a statement of the function's
  /// body \p Body, starts: its for-init (`for (i = e; ...)`, `for (int i =
  /// e; ...)`), else the last `i = e;` or `int i = e;` among the statements
  /// of Body before L; the assignment in \p At (nullptr for a
  /// declaration). nullptr when L is not in Body or nothing there sets i.
  static const Expr *startOf(const Stmt *L, const CompoundStmt *Body,
                             const VarDecl *I, const Stmt *&At) {
    At = nullptr;
    if (const auto *FS = dyn_cast<ForStmt>(L))
      if (const Expr *E = initOf(FS, I)) {
        At = isa<BinaryOperator>(FS->getInit()) ? FS->getInit() : nullptr;
        return E;
      }
    const Expr *Init = nullptr;
    for (const Stmt *S : Body->body()) {
      if (S == L)
        return Init;
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (D == I && I->getInit()) {
            Init = I->getInit();
            At = nullptr;
          }
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && BO->getOpcode() == BO_Assign && varOf(BO->getLHS()) == I) {
        Init = BO->getRHS();
        At = BO;
      }
    }
    return nullptr;
  }

  /// Whether storing \p From in \p I keeps every value (`int i = n - 1`
  /// with an int n: no truncation that could make the count larger).
  bool keepsValue(const VarDecl *I, const Expr *From) const {
    QualType F = From->IgnoreParenImpCasts()->getType(), T = I->getType();
    if (!F->isIntegerType() || !T->isIntegerType())
      return false;
    uint64_t SF = Ctx.getTypeSize(F), ST = Ctx.getTypeSize(T);
    bool UF = F->isUnsignedIntegerOrEnumerationType(),
         UT = T->isUnsignedIntegerOrEnumerationType();
    return (UF == UT && ST >= SF) || (UF && !UT && ST > SF);
  }

  /// A loop \p L among the statements of the function's body \p Body
  /// counted down from `n - c` (n an integer parameter, c >= 0) by a local
  /// integer i set to it before the loop (startOf) and changed nowhere
  /// else but by the loop's test or step, n assigned nowhere, or counted
  /// by n itself (changed nowhere else): `do ... while (--i)` (n - c times,
  /// for n - c >= 1), `do ... while (--i > 0)` (max(n - c, 1)), `while
  /// (i--)` (n - c, for n - c >= 0), `while (i-- > 0)`, `for (...; i > 0;
  /// i--)` (also `i >= 1`, `--i`, `i -= k`: at most max(n - c, 0)); also
  /// `for (i = k; i < n; i++)` (k >= 0: at most max(n, 0)). The function
  /// has no goto. Else N is nullptr.
  CountDown downCount(const Stmt *L, const CompoundStmt *Body) {
    CountDown R;
    if (!Body || jumps(FD->getBody()))
      return R;
    const UnaryOperator *Dec = nullptr;
    const Stmt *DecAt = nullptr;
    const VarDecl *I = nullptr;
    bool GT0 = false;
    const auto *FS = dyn_cast<ForStmt>(L);
    if (const auto *DS = dyn_cast<DoStmt>(L)) {
      I = decrement(DS->getCond(), true, Dec, GT0);
      R.Test = "do ... while (" + text(DS->getCond()) + ")";
      if (GT0)
        R.Floor = 1;
      else
        R.Need = 1;
    } else if (isa<WhileStmt>(L) || (FS && FS->getCond() && !FS->getInc())) {
      const Expr *Cond = FS ? FS->getCond() : cast<WhileStmt>(L)->getCond();
      I = decrement(Cond, false, Dec, GT0);
      R.Test =
          FS ? "for (...; " + text(Cond) + ";)" : "while (" + text(Cond) + ")";
      if (GT0)
        R.Floor = 0; // else Need 0
    } else if (FS && FS->getCond() && FS->getInc()) {
      if (const ParmVarDecl *N = counted(FS)) { // `for (i = 0; i < n; i++)`
        if (lowering::modifies(FD->getBody(), N))
          return R;
        R.N = N;
        R.Floor = 0;
        R.Test = "for (...; " + text(FS->getCond()) + "; ...)";
        return R;
      }
      // `i > k` (k >= 0) or `i >= k` (k >= 1), stepped down by `i--`, `--i`
      // or `i -= k` alone.
      const auto *C = dyn_cast<BinaryOperator>(FS->getCond()->IgnoreParens());
      auto K = C ? constInt(C->getRHS()) : std::nullopt;
      I = C ? varOf(C->getLHS()) : nullptr;
      auto St = I ? step(FS->getInc(), I) : std::nullopt;
      const auto *Comma =
          dyn_cast<BinaryOperator>(FS->getInc()->IgnoreParens());
      if (!K || !St || *St > -1 || (Comma && Comma->getOpcode() == BO_Comma) ||
          !((C->getOpcode() == BO_GT && *K >= 0) ||
            (C->getOpcode() == BO_GE && *K >= 1)) ||
          !I->getType()->isIntegerType())
        return R;
      DecAt = FS->getInc();
      R.Floor = 0;
      R.Test =
          "for (...; " + text(FS->getCond()) + "; " + text(FS->getInc()) + ")";
    }
    if (!I)
      return R;
    if (!DecAt)
      DecAt = Dec;
    // n itself: `while (n--)`, `do ... while (--n)`.
    if (const auto *N = dyn_cast<ParmVarDecl>(I)) {
      if (declFunctionContext(N) == FD &&
          !modifiesReaching(FD->getBody(), N, L, DecAt))
        R.N = N;
      return R;
    }
    const Stmt *At = nullptr;
    const Expr *Init = I->hasLocalStorage() ? startOf(L, Body, I, At) : nullptr;
    auto Top = Init ? paramMinus(Init) : std::nullopt;
    if (!Top || !keepsValue(I, Init) ||
        lowering::modifies(FD->getBody(), Top->first) ||
        modifiesBesides(FD->getBody(), I, At, DecAt))
      return R;
    R.N = Top->first;
    R.C = Top->second;
    R.I = I;
    R.Test = I->getNameAsString() + " = " + text(Init) + "; " + R.Test;
    // An unsigned `n - c` wraps for n < c: no floor then, but a need.
    if (R.C > 0 && R.Floor &&
        Init->IgnoreParenImpCasts()->getType()->isUnsignedIntegerType()) {
      R.Need = *R.Floor;
      R.Floor.reset();
    }
    return R;
  }

  /// The integer parameter n of a loop that runs at most n times: `for (i =
  /// k; i < n; i++)` (k >= 0, i not assigned in the body), `while (n--)`,
  /// `while (n-- > 0)` (n not assigned in the body); else nullptr. \p Need:
  /// 0 for `while (n--)` (n times for n >= 0 only), else -1.
  const ParmVarDecl *counted(const Stmt *S, int64_t *Need = nullptr) {
    auto Param = [&](const Expr *E) -> const ParmVarDecl * {
      const ParmVarDecl *N = boundParamOf(E);
      return N && declFunctionContext(N) == FD && N->getType()->isIntegerType()
                 ? N
                 : nullptr;
    };
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      const auto *C = boundCond(FS->getCond());
      auto I = init(FS->getInit());
      if (!C || C->getOpcode() != BO_LT || !I || I->second < 0 ||
          varOf(C->getLHS()) != I->first ||
          !kept(I->first, FS->getBody(), FS->getCond()))
        return nullptr;
      auto St = step(FS->getInc(), I->first);
      const ParmVarDecl *N = St && *St >= 1 ? Param(C->getRHS()) : nullptr;
      return N && !lowering::modifies(FS->getBody(), N) ? N : nullptr;
    }
    const auto *WS = dyn_cast<WhileStmt>(S);
    if (!WS)
      return nullptr;
    const Expr *C = WS->getCond()->IgnoreParenImpCasts();
    bool GT0 = false;
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      auto K = constInt(BO->getRHS());
      if (BO->getOpcode() != BO_GT || !K || *K != 0)
        return nullptr;
      C = BO->getLHS()->IgnoreParenImpCasts();
      GT0 = true;
    }
    const auto *UO = dyn_cast<UnaryOperator>(C);
    if (!UO || UO->getOpcode() != UO_PostDec)
      return nullptr;
    const ParmVarDecl *N = Param(UO->getSubExpr());
    if (!N || lowering::modifies(WS->getBody(), N))
      return nullptr;
    if (Need && !GT0)
      *Need = 0;
    return N;
  }
};

} // namespace extents
} // namespace batchdiff
