//===- ExtentAdjust.h - f2c's parameter adjustments -------------*- C++ -*-===//
// Private to ArrayParams.cpp: f2c, and C translated from Fortran by hand
// after it (cminpack's r1mpyq, rwupdt, dogleg, ...), makes a pointer
// parameter 1-based by stepping it back once on entry, `--x;` (or `x -=
// c;`), then indexes `x[1]` .. `x[n]`. Such a parameter is an offset view
// of itself (ExtentUses.h's Views, BaseShift): x[i] there is the caller's
// element i - c.
#pragma once
#include "lower/ExtentUses.h"

namespace batchdiff {
namespace extents {

/// The adjustment of pointer parameter \p P in \p FD's body: a statement
/// of the body itself (not in a block or loop), `--P;`, `P--;` or `P -=
/// c;` (c an integer constant from 1 to 2^20), with no statement before it
/// naming P, P changed nowhere else (nor its address taken), and no goto in
/// the function. Its statement and c; nullptr when there is none.
inline const Stmt *adjustment(const FunctionDecl *FD, const ParmVarDecl *P,
                              int64_t &C) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body || LoopShapes::jumps(Body))
    return nullptr;
  auto names = [&](const Stmt *S, auto &Self) -> bool {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == P)
      return true;
    for (const Stmt *Ch : S->children())
      if (Self(Ch, Self))
        return true;
    return false;
  };
  for (const Stmt *S : Body->body()) {
    const Expr *E = dyn_cast<Expr>(S);
    E = E ? E->IgnoreParens() : nullptr;
    std::optional<int64_t> K;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
        UO && UO->isDecrementOp() && varOf(UO->getSubExpr()) == P)
      K = 1;
    if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(E);
        CA && CA->getOpcode() == BO_SubAssign && varOf(CA->getLHS()) == P)
      if (Expr::EvalResult R;
          CA->getRHS()->EvaluateAsInt(R, FD->getASTContext()) &&
          R.Val.getInt().getSExtValue() >= 1 &&
          R.Val.getInt().getSExtValue() <= (int64_t(1) << 20))
        K = R.Val.getInt().getSExtValue();
    if (K) {
      if (LoopShapes::modifiesBesides(Body, P, S))
        return nullptr;
      C = *K;
      return S;
    }
    if (names(S, names))
      return nullptr;
  }
  return nullptr;
}

} // namespace extents
} // namespace batchdiff
