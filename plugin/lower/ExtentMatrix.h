//===- ExtentMatrix.h - matrix indices of extent inference ------*- C++ -*-===//
// Private to ArrayParams.cpp (included at the end of ExtentUses.h): the
// index shapes of a matrix in a flat array, row-major (`a[i * c + j]`) and
// column-major with a leading dimension (`a[i + j * lda]`, as MINPACK,
// LAPACK and their C translations index), and the triangular loops over
// one (`for (i = 0; i <= j; i++)` inside a loop over j).
#pragma once
#include "lower/ExtentUses.h"

namespace batchdiff {
namespace extents {

/// `i * c + j` (the factors and terms in either order) with i < r and
/// j < c: (r, c), the row-major element (i, j) of an r x c matrix.
inline std::optional<Uses::RowsCols> Uses::flatIndex(const Expr *Idx) const {
  const auto *Add = dyn_cast<BinaryOperator>(Idx->IgnoreParenImpCasts());
  if (!Add || Add->getOpcode() != BO_Add)
    return std::nullopt;
  for (bool Swap : {false, true}) {
    const LoopVar *J =
        countedBelow(varOf(Swap ? Add->getLHS() : Add->getRHS()));
    auto RC =
        J ? rowOffset(Swap ? Add->getRHS() : Add->getLHS(), J) : std::nullopt;
    if (RC && RC->second == J->Bound)
      return RC;
  }
  return std::nullopt;
}

/// The innermost loop over \p V when it keeps V in [0, n - 1 - s], n an
/// integer parameter: counted below n (countedBelow), or `for (i = j + c;
/// i < n; i++)` (c >= 0) from a j kept at 0 or above, as triangles start
/// (`for (i = j + 1; i < n; i++)`, `for (i = k; i < m; i++)`).
inline const LoopVar *Uses::fromZero(const VarDecl *V, int Depth) {
  const LoopVar *L = nullptr;
  for (auto It = Loops.rbegin(); V && It != Loops.rend() && !L; ++It)
    if (It->V == V)
      L = &*It;
  if (!L || !L->Bound || L->Slack < 0 || L->Once || L->Div != 1 || Depth > 8)
    return nullptr;
  if (L->From >= 0)
    return L;
  // V's loop: the innermost for loop around the index testing V; it steps
  // V up, its body never assigns V, and starts it at j + c.
  for (auto It = LoopStmts.rbegin(); It != LoopStmts.rend(); ++It) {
    const auto *F = dyn_cast<ForStmt>(*It);
    const auto *C = F ? boundCond(F->getCond()) : nullptr;
    if (!C || varOf(C->getLHS()) != V)
      continue;
    auto St = step(F->getInc(), V);
    const Expr *Init = initOf(F, V);
    auto A = Init ? affine(Init) : std::nullopt;
    if (!St || *St < 1 || lowering::modifies(F->getBody(), V) || !A ||
        A->C < 0 || A->Terms.size() != 1 || A->Terms[0].second != 1 ||
        A->Terms[0].first == V || !fromZero(A->Terms[0].first, Depth + 1))
      return nullptr;
    return L;
  }
  return nullptr;
}

/// `i + j * ld` (the terms and factors in either order; i and j may be one
/// variable, the diagonal `k + k * ld`) with i < r and j < c, loops keeping
/// them at 0 or above below integer parameters r and c (fromZero), ld an
/// integer parameter the function never assigns: the element (i, j) of a
/// column-major r x c matrix whose columns start ld elements apart, so
/// (c - 1) * ld + r elements (for ld >= 0, and none when r or c is 0).
/// Records (r, c, ld); false when the index has another shape, or an
/// earlier one had other parameters.
inline bool Uses::columnIndex(const Expr *Idx) {
  const auto *Add = dyn_cast<BinaryOperator>(Idx->IgnoreParenImpCasts());
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  for (bool Swap : {false, true}) {
    const LoopVar *I = fromZero(varOf(Swap ? Add->getRHS() : Add->getLHS()));
    const auto *Mul = dyn_cast<BinaryOperator>(
        (Swap ? Add->getLHS() : Add->getRHS())->IgnoreParenImpCasts());
    if (!I || !Mul || Mul->getOpcode() != BO_Mul)
      continue;
    for (bool Swap2 : {false, true}) {
      const LoopVar *J = fromZero(varOf(Swap2 ? Mul->getRHS() : Mul->getLHS()));
      const ParmVarDecl *Ld = paramOf(Swap2 ? Mul->getLHS() : Mul->getRHS());
      if (!J || !Ld || declFunctionContext(Ld) != FD ||
          !Ld->getType()->isIntegerType() ||
          lowering::modifies(FD->getBody(), Ld))
        continue;
      if (ColRows &&
          (ColRows != I->Bound || ColCols != J->Bound || ColLd != Ld))
        return false;
      ColRows = I->Bound;
      ColCols = J->Bound;
      ColLd = Ld;
      if (!ColAt)
        ColAt = Idx;
      return true;
    }
  }
  return false;
}

/// A for loop's variable (loopVar), or, for a loop to `i <= j` or `i < j`
/// counting i up from a constant >= 0, inside the one for loop that sets j,
/// counted below an integer parameter n (`j <= n - 1 - s`), j changed
/// nowhere else in it, i's loop assigning neither i nor j (the triangle of
/// a matrix, `for (j = 0; j < n; j++) for (i = 0; i <= j; i++) r[i + j *
/// ldr]`): i below n as well, with
/// slack s (s + 1 for `i < j`). Not with a goto in the function (which
/// could enter j's loop past its test).
inline LoopVar Uses::forVar(const ForStmt *FS) {
  LoopVar L = loopVar(FS);
  const auto *C = boundCond(FS->getCond());
  if (L.Bound || L.Ranged || !C ||
      (C->getOpcode() != BO_LT && C->getOpcode() != BO_LE))
    return L;
  const VarDecl *I = varOf(C->getLHS()), *J = varOf(C->getRHS());
  auto From = init(FS->getInit());
  auto St = I ? step(FS->getInc(), I) : std::nullopt;
  if (!I || !J || I == J || !From || From->first != I || From->second < 0 ||
      !St || *St < 1 || lowering::modifies(FS->getBody(), I) ||
      lowering::modifies(FS->getBody(), J) || jumps(FD->getBody()))
    return L;
  const LoopVar *Outer = fromZero(J);
  if (!Outer)
    return L;
  // J's loop: the one loop around this one whose init or increment sets J
  // (only such a loop counts J below a bound); neither it nor the loops in
  // it change J elsewhere, so J stays where its test left it.
  const ForStmt *OuterFS = nullptr;
  for (const Stmt *S : LoopStmts)
    if (const auto *F = dyn_cast<ForStmt>(S);
        F && (modifiesBesides(F->getInit(), J, nullptr) ||
              modifiesBesides(F->getInc(), J, nullptr))) {
      if (OuterFS)
        return L;
      OuterFS = F;
    }
  if (!OuterFS)
    return L;
  for (const Stmt *S : LoopStmts)
    if (modifiesBesides(S, J, OuterFS->getInit(), OuterFS->getInc()))
      return L;
  LoopVar T;
  T.V = I;
  T.Bound = Outer->Bound;
  T.From = From->second;
  T.Slack = Outer->Slack + (C->getOpcode() == BO_LT ? 1 : 0);
  T.Need = Outer->Need;
  return T;
}

} // namespace extents
} // namespace batchdiff
