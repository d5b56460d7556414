//===- ExtentIndex.h - index shapes of extent inference ---------*- C++ -*-===//
// Private to ArrayParams.cpp (through ExtentUses.h): LoopShapes' index
// shapes, kept apart from ExtentLoops.h's loop shapes: affine indices,
// remainders `e % n` below n, and counters lagging one behind a loop's
// (`for (i = 0, j = n - 1; i < n; j = i++)`).
#pragma once
#include "lower/ExtentLoops.h"

namespace batchdiff {
namespace extents {

/// An index `c + sum k_v * v` (constants and variables).
inline std::optional<Affine> LoopShapes::affine(const Expr *E) {
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

/// `e % n` with n an integer parameter the function never assigns and e
/// >= 0 (a constant >= 0 plus loop variables from >= 0 times factors >=
/// 0, \p Loops the loops around it): n, which bounds its value (a polygon's
/// next vertex, `p[(i + 1) % n]`).
inline const ParmVarDecl *
LoopShapes::remBound(const Expr *E, const std::vector<LoopVar> &Loops) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  const ParmVarDecl *N =
      BO && BO->getOpcode() == BO_Rem ? boundParamOf(BO->getRHS()) : nullptr;
  if (!N || declFunctionContext(N) != FD || !N->getType()->isIntegerType() ||
      lowering::modifies(FD->getBody(), N))
    return nullptr;
  auto A = affine(BO->getLHS());
  if (!A || A->C < 0)
    return nullptr;
  for (auto &[V, K] : A->Terms) {
    auto It = std::find_if(Loops.rbegin(), Loops.rend(),
                           [V = V](const LoopVar &L) { return L.V == V; });
    if (K < 0 || It == Loops.rend() ||
        !((It->Bound && It->From >= 0) || (It->Ranged && It->Lo >= 0)))
      return nullptr;
  }
  return N;
}

/// The constant or `N - 1` (\p N the loop's bound) a for-init sets \p V
/// to, as one of its comma-separated parts or declarations; Minus: the
/// value was `N - 1`.
inline std::optional<int64_t> LoopShapes::initOf(const Stmt *S,
                                                 const VarDecl *V,
                                                 const ParmVarDecl *N,
                                                 bool &Minus) {
  const Expr *Val = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (D == V)
        Val = V->getInit();
  } else if (const auto *BO =
                 dyn_cast_or_null<BinaryOperator>(dyn_cast_or_null<Expr>(S))) {
    if (BO->getOpcode() == BO_Comma) {
      auto L = initOf(BO->getLHS(), V, N, Minus);
      return L ? L : initOf(BO->getRHS(), V, N, Minus);
    }
    if (BO->getOpcode() == BO_Assign && varOf(BO->getLHS()) == V)
      Val = BO->getRHS();
  }
  if (!Val)
    return std::nullopt;
  Minus = false;
  if (auto K = constInt(Val))
    return K;
  const auto *Sub = dyn_cast<BinaryOperator>(Val->IgnoreParenImpCasts());
  if (Sub && Sub->getOpcode() == BO_Sub && boundParamOf(Sub->getLHS()) == N &&
      constInt(Sub->getRHS()) == 1) {
    Minus = true;
    return 0;
  }
  return std::nullopt;
}

/// `for (i = 0, j = n - 1; i < n; j = i++)` (PNPOLY's previous vertex):
/// j starts at n - 1 (or a constant no larger than i's start) and then
/// takes i's last value, so in the body it stays in [0, n) as i does. The
/// loop's increment is exactly `j = i++`, i starts at a constant >= 0, and
/// neither changes elsewhere in the loop: j is a loop variable bounded by
/// n of its own.
inline std::optional<LoopVar> LoopShapes::laggingVar(const ForStmt *FS,
                                                     const LoopVar &I) {
  const auto *Inc = dyn_cast_or_null<BinaryOperator>(
      FS->getInc() ? FS->getInc()->IgnoreParens() : nullptr);
  const auto *Post =
      Inc && Inc->getOpcode() == BO_Assign
          ? dyn_cast<UnaryOperator>(Inc->getRHS()->IgnoreParenImpCasts())
          : nullptr;
  if (!I.V || !I.Bound || I.Slack < 0 || I.Div != 1 || I.Mul != 1 || !Post ||
      Post->getOpcode() != UO_PostInc || varOf(Post->getSubExpr()) != I.V)
    return std::nullopt;
  const VarDecl *J = varOf(Inc->getLHS());
  bool IMinus, JMinus;
  auto IFrom = initOf(FS->getInit(), I.V, I.Bound, IMinus);
  auto JFrom = J ? initOf(FS->getInit(), J, I.Bound, JMinus) : std::nullopt;
  if (!J || J == I.V || !J->getType()->isIntegerType() || !IFrom || IMinus ||
      *IFrom < 0 || !JFrom || !(JMinus || (*JFrom >= 0 && *JFrom <= *IFrom)) ||
      lowering::modifies(FS->getBody(), I.V) ||
      lowering::modifies(FS->getBody(), J) ||
      lowering::modifies(FS->getCond(), I.V) ||
      lowering::modifies(FS->getCond(), J) || addressOf(FD->getBody(), J))
    return std::nullopt;
  LoopVar L;
  L.V = J;
  L.Bound = I.Bound;
  L.From = 0;
  L.Slack = 0;
  L.Need = I.Need;
  return L;
}

} // namespace extents
} // namespace batchdiff
