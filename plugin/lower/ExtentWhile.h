//===- ExtentWhile.h - while loops and searches -----------------*- C++ -*-===//
// Private to ArrayParams.cpp (through ExtentUses.h): LoopShapes' while-loop
// shapes, kept apart from ExtentLoops.h: a local counter copied from a
// parameter and counted down by a while loop (downWhile), and the indices
// of a bracketing search (searchBound).
#pragma once
#include "lower/ExtentLoops.h"

namespace batchdiff {
namespace extents {

/// A while loop, a statement of the function's body, counting a local
/// integer i down from `n - c` (n an integer parameter the function
/// never assigns, c >= 0; `int i = n;` or `i = n;` before the loop, or
/// assigned nowhere else, keeping every value), i changed nowhere else
/// and the function without goto: `while (i-- > k)` (the body sees i
/// from n - c - 1 down to k >= 0; `while (i--)` as k = 0, for n - c >= 0
/// when i is signed), and `while (i > k) { i -= s; ... }`
/// (also `i >= k`, `i--`, `--i`; only this condition, the step the
/// body's first statement: the rest of the body sees i from n - c - s
/// down to k + 1 - s >= 0).
inline LoopVar LoopShapes::downWhile(const WhileStmt *WS) {
  LoopVar L;
  const auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  const Expr *Cond = WS->getCond()->IgnoreParenImpCasts();
  const auto *C = dyn_cast<BinaryOperator>(Cond);
  // `while (i--)`: `while (i-- > 0)` while i >= 0 (a signed i below it runs
  // down until it wraps, in the scalar function too: Need).
  const auto *Bare = dyn_cast<UnaryOperator>(Cond);
  bool Wraps = Bare && Bare->getOpcode() == UO_PostDec;
  auto K = C       ? constInt(C->getRHS())
           : Wraps ? std::optional<int64_t>(0)
                   : std::nullopt;
  if (!Body || !K || jumps(Body) ||
      (C && C->getOpcode() != BO_GT && C->getOpcode() != BO_GE))
    return L;
  const Expr *Lhs = C ? C->getLHS()->IgnoreParenImpCasts() : Cond;
  const auto *Dec = dyn_cast<UnaryOperator>(Lhs);
  const Stmt *DecAt = nullptr;
  const VarDecl *I = nullptr;
  int64_t Lo = 0, Slack = 0; // the body's i: Lo .. n - 1 - Slack (+ c)
  if (Dec && Dec->getOpcode() == UO_PostDec) {
    // `while (i-- > k)`: the test saw i >= k + 1, the body sees i - 1.
    I = varOf(Dec->getSubExpr());
    DecAt = Dec;
    Lo = !C || C->getOpcode() == BO_GT ? *K : *K - 1;
  } else if (!Dec) {
    const auto *B = dyn_cast<CompoundStmt>(WS->getBody());
    I = varOf(Lhs);
    // (A step alone: in `x[i], i--` the read comes first.)
    auto down = [&](const Stmt *S) {
      auto St =
          I && S && (isa<UnaryOperator>(S) || isa<CompoundAssignOperator>(S))
              ? step(cast<Expr>(S), I)
              : std::nullopt;
      return St && *St <= -1 ? St : std::nullopt;
    };
    bool Empty = !B || B->body_empty();
    int64_t Min = C->getOpcode() == BO_GT ? *K + 1 : *K; // the test's
    if (auto St = down(Empty ? nullptr : B->body_front())) {
      DecAt = B->body_front();
      Lo = Min + *St;
      Slack = -*St - 1;
    } else if (down(Empty ? nullptr : B->body_back())) {
      // `while (i >= 0) { ... x[i]; i--; }` from `i = n - c` (c >= 1):
      // the body sees i from n - c down to the test's least.
      DecAt = B->body_back();
      Lo = Min;
      Slack = -1;
    } else {
      return L;
    }
  }
  if (!I || isa<ParmVarDecl>(I) || !I->hasLocalStorage() ||
      !I->getType()->isIntegerType() || Lo < 0)
    return L;
  const Stmt *At = nullptr;
  const Expr *Init = startOf(WS, Body, I, At);
  auto Top = Init ? paramMinus(Init) : std::nullopt;
  if (!Top || !keepsValue(I, Init) ||
      lowering::modifies(FD->getBody(), Top->first) ||
      modifiesBesides(FD->getBody(), I, At, DecAt))
    return L;
  // An unsigned `n - c` (c > 0) wraps for n < c: no bound. (Slack -1,
  // from `n - c` itself: c >= 1.)
  if ((Top->second > 0 &&
       Init->IgnoreParenImpCasts()->getType()->isUnsignedIntegerType()) ||
      Top->second + Slack < 0)
    return L;
  L.V = I;
  L.Bound = Top->first;
  L.Slack = Top->second + Slack;
  L.From = Lo;
  if (Wraps && I->getType()->isSignedIntegerType())
    L.Need = Top->second; // n - c >= 0
  return L;
}

/// The integer parameter n bounding the indices of a bracketing search,
/// `lo = 0; hi = n - 1; while (hi - lo > 1) { mid = (lo + hi) / 2; if
/// (x[mid] > t) hi = mid; else lo = mid; }`: \p V and the local integers
/// it is set from (\p Vars, V first) are set only (initialised or by `=`)
/// to constants K >= 0, to `n - c` (c >= 1, n assigned nowhere) and to
/// midpoints of two of them, `(a + b) / 2` or `(a + b) >> 1` (also `a +
/// (b - a) / 2` of a signed type), each keeping its value: so every value
/// they take lies in [0, n - 1] when n >= \p Need (the largest K + 1 and
/// c). Any other write (`lo = mid + 1`, `i++`, `&i`) or none: nullptr.
inline const ParmVarDecl *
LoopShapes::searchBound(const VarDecl *V, int64_t &Need,
                        std::vector<const VarDecl *> &Vars) {
  auto local = [](const VarDecl *W) {
    return W && !isa<ParmVarDecl>(W) && W->hasLocalStorage() &&
           W->getType()->isIntegerType() && !W->getType()->isBooleanType();
  };
  if (!local(V))
    return nullptr;
  Vars.assign(1, V);
  const ParmVarDecl *N = nullptr;
  bool Ok = true;
  auto in = [&](const VarDecl *W) {
    return std::find(Vars.begin(), Vars.end(), W) != Vars.end();
  };
  auto add = [&](const Expr *E) {
    const VarDecl *W = varOf(E);
    if (!local(W))
      return false;
    if (!in(W))
      Vars.push_back(W);
    return true;
  };
  // A value stored in W: a constant, `n - c`, a variable, a midpoint.
  auto value = [&](const VarDecl *W, const Expr *E) {
    if (auto K = constInt(E)) { // (one W holds: below 2^15)
      Need = std::max(Need, *K + 1);
      return *K >= 0 && *K < (1 << 15) && Ctx.getIntWidth(W->getType()) >= 16;
    }
    if (!keepsValue(W, E))
      return false;
    E = E->IgnoreParenImpCasts();
    if (auto Top = paramMinus(E)) {
      if (Top->second < 1 || (N && N != Top->first) ||
          lowering::modifies(FD->getBody(), Top->first))
        return false;
      N = Top->first;
      Need = std::max(Need, Top->second);
      return true;
    }
    if (varOf(E))
      return add(E);
    const auto *Half = dyn_cast<BinaryOperator>(E);
    auto K = Half ? constInt(Half->getRHS()) : std::nullopt;
    if (!K || !((Half->getOpcode() == BO_Div && *K == 2) ||
                (Half->getOpcode() == BO_Shr && *K == 1)))
      return false;
    const auto *Sum =
        dyn_cast<BinaryOperator>(Half->getLHS()->IgnoreParenImpCasts());
    if (Sum && Sum->getOpcode() == BO_Add)
      return add(Sum->getLHS()) && add(Sum->getRHS());
    return false;
  };
  // `a + (b - a) / 2`, signed: between a and b.
  auto offMid = [&](const VarDecl *W, const Expr *E) {
    const auto *Add = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!Add || Add->getOpcode() != BO_Add ||
        !Add->getType()->isSignedIntegerType() || !keepsValue(W, E))
      return false;
    const auto *Half =
        dyn_cast<BinaryOperator>(Add->getRHS()->IgnoreParenImpCasts());
    auto K = Half ? constInt(Half->getRHS()) : std::nullopt;
    const auto *Diff =
        Half ? dyn_cast<BinaryOperator>(Half->getLHS()->IgnoreParenImpCasts())
             : nullptr;
    return K && *K == 2 && Half->getOpcode() == BO_Div && Diff &&
           Diff->getOpcode() == BO_Sub &&
           varOf(Diff->getRHS()) == varOf(Add->getLHS()) &&
           add(Add->getLHS()) && add(Diff->getLHS());
  };
  std::function<void(const Stmt *)> walk = [&](const Stmt *S) {
    if (!S || !Ok)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && in(varOf(BO->getLHS())))
      Ok = BO->getOpcode() == BO_Assign &&
           (value(varOf(BO->getLHS()), BO->getRHS()) ||
            offMid(varOf(BO->getLHS()), BO->getRHS()));
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        in(varOf(UO->getSubExpr())))
      Ok = false;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *W = dyn_cast<VarDecl>(D); W && in(W) && W->getInit())
          Ok &= value(W, W->getInit()) || offMid(W, W->getInit());
    for (const Stmt *C : astChildren(S))
      walk(C);
  };
  // Until no variable joins (each pass checks every write again).
  for (size_t Seen = 0; Ok && Seen != Vars.size();) {
    Seen = Vars.size();
    N = nullptr;
    Need = 0;
    walk(FD->getBody());
  }
  return Ok ? N : nullptr;
}

} // namespace extents
} // namespace batchdiff
