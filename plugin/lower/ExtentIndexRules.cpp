//===- ExtentIndexRules.cpp - what one index says about an extent --------===//
// Part of extent inference (ExtentUses.h, Uses::index): the rules that
// explain one index of a pointer parameter, or of an offset view of it, by
// constants, constant-bound loops, loops bounded by an integer parameter
// (ExtentLoops.h, ExtentWhile.h), remainders, the top `n + c`, a search's
// midpoints and flat matrices (row-major, and column-major with a leading
// dimension: ExtentMatrix.h); an index none explains is Unknown.
//===----------------------------------------------------------------------===//
#include "lower/ExtentUses.h"

namespace batchdiff {
namespace extents {

/// An index \p Idx of p, or of a view of p that reads p[Idx + Shift].
void Uses::index(const Expr *Idx, int64_t Shift, const VarDecl *View) {
  if (View && before(Idx, Shift, View))
    return;
  if (auto K = constInt(Idx)) {
    if (*K + Shift < 0 && !Unknown) // `x[-1]`: before the array
      Unknown = Idx;
    MaxConst = std::max<int64_t>(MaxConst, *K + Shift);
    return;
  }
  // `p[k & 15]` (a ring buffer, a hash): 0 .. 15 whatever k is.
  if (const auto *BO = dyn_cast<BinaryOperator>(Idx->IgnoreParenImpCasts());
      BO && BO->getOpcode() == BO_And)
    if (auto C = constInt(BO->getRHS()) ? constInt(BO->getRHS())
                                        : constInt(BO->getLHS());
        C && *C >= 0 && Shift >= 0) {
      MaxConst = std::max<int64_t>(MaxConst, *C + Shift);
      FromRange = true;
      return;
    }
  // `p[(i + 1) % n]`, `p[j]` with `int j = (i + 1) % n;`: below n.
  if (const ParmVarDecl *N = Shift ? nullptr
                                   : (varOf(Idx) ? RemLocals.lookup(varOf(Idx))
                                                 : remBound(Idx, Loops));
      N) {
    if ((Bound && Bound != N) || !scaleBy(N, 1, 1))
      if (!Unknown)
        Unknown = Idx;
    return;
  }
  if (const VarDecl *V = Shift ? nullptr : varOf(Idx))
    for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
      if (It->V == V && It->Bound && It->Slack >= 0) {
        if (!scaleBy(It->Bound, 1, It->Div)) {
          if (!Unknown)
            Unknown = Idx;
          return;
        }
        need(*It);
        if (It->Once) // `do { x[i]; i++; } while (i < n)` reads x[From]
          AtLeast = std::max(AtLeast, It->From + 1);
        return;
      }
  auto A = affine(Idx);
  if (A)
    A->C += Shift;
  // `for (i = 1; i <= n; i++) x[i]` (1-based): i reaches n, so x[i + c]
  // (c >= 0) needs n + c + 1 elements, as `c[n + c]` does.
  if (A && A->Terms.size() == 1 && A->Terms[0].second == 1 && A->C >= 0)
    for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
      if (It->V == A->Terms[0].first && It->Bound && It->Slack == -1 &&
          (!Bound || Bound == It->Bound) &&
          (!PlusParam || PlusParam == It->Bound)) {
        Bound = PlusParam = It->Bound;
        Plus = std::max(Plus, A->C + 1);
        PlusLoop = true;
        if (!PlusAt)
          PlusAt = Idx;
        return;
      }
  // `x[2 * i]`, `x[3 * i + 2]` with i < n: interleaved records of k
  // elements, k * n in all; `x[i - 1]` with i from 1 up to n, a
  // recurrence's previous element, n; `x[2 * i + 1]` under `2 * i + 1 <
  // n` (LoopVar::Mul, k <= Mul, c <= Slack): below n.
  if (A && A->Terms.size() == 1) {
    auto [V, K] = A->Terms[0];
    for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
      if (It->V == V && It->Bound && K >= 1 &&
          (It->Mul > 1 ? K <= It->Mul && A->C <= It->Slack
                       : A->C < K * (1 + It->Slack)) &&
          (A->C >= 0 || (It->From >= 0 && K * It->From + A->C >= 0)) &&
          (!Bound || Bound == It->Bound)) {
        if (!scaleBy(It->Bound, It->Mul > 1 ? 1 : K, It->Div)) {
          if (!Unknown)
            Unknown = Idx;
          return;
        }
        need(*It);
        if (It->Once)
          AtLeast = std::max(AtLeast, K * It->From + A->C + 1);
        return;
      }
  }
  // `a[n - i]` with i from k >= 0 up to n (`i <= n`, or below it): the
  // loop's bound minus its variable, counting down from a[n - k] to a[0]
  // or above (R's chebyshev_eval: `for (i = 1; i <= n; i++) ... a[n -
  // i]`): n elements, n + c - k + 1 for a[n - i + c] if that is more.
  if (A && A->Terms.size() == 2 && A->Terms[0].second == 1 &&
      A->Terms[1].second == -1)
    for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
      if (It->V == A->Terms[1].first && It->Bound &&
          It->Bound == A->Terms[0].first && It->From >= 0 && !It->Once &&
          A->C + 1 + It->Slack >= 0 && (!Bound || Bound == It->Bound) &&
          (!PlusParam || PlusParam == It->Bound) &&
          !lowering::modifies(FD->getBody(), It->Bound)) {
        if (!scaleBy(It->Bound, 1, 1)) { // (n, with a quotient before)
          if (!Unknown)
            Unknown = Idx;
          return;
        }
        if (A->C - It->From + 1 > 0) {
          PlusParam = It->Bound;
          Plus = std::max(Plus, A->C - It->From + 1);
          if (!PlusAt)
            PlusAt = Idx;
        }
        return;
      }
  // `c[n]`, `x[n - 1]`: an integer parameter (never assigned) plus a
  // constant, as Horner from the top reads c[0] .. c[n].
  if (A && A->Terms.size() == 1 && A->Terms[0].second == 1 && A->C >= -1) {
    const auto *N = dyn_cast<ParmVarDecl>(A->Terms[0].first);
    if (N && declFunctionContext(N) == FD && N->getType()->isIntegerType() &&
        !lowering::modifies(FD->getBody(), N) &&
        (!PlusParam || PlusParam == N)) {
      PlusParam = N;
      Plus = std::max(Plus, A->C + 1);
      if (!PlusAt)
        PlusAt = Idx;
      return;
    }
  }
  // (Also from the range's least: `x[i - 1]` from i = 0 reads x[-1].)
  if (auto R = range(Idx); R && R->first + Shift >= 0) {
    MaxConst = std::max<int64_t>(MaxConst, R->second + Shift);
    FromRange = true;
    return;
  }
  if (auto RC = Shift ? std::nullopt : flatIndex(Idx); RC && flat(*RC, Idx))
    return;
  if (!Shift && !Depth && columnIndex(Idx)) // `a[i + j * lda]`
    return;
  // `x[mid]`, `x[lo]` of a search (`mid = (lo + hi) / 2`, hi from `n -
  // 1`): within n, for n >= Need.
  int64_t Need = 0;
  std::vector<const VarDecl *> Vars;
  if (const VarDecl *V = Shift ? nullptr : varOf(Idx))
    if (const ParmVarDecl *N = searchBound(V, Need, Vars);
        N && (!Bound || Bound == N) && (!SearchN || SearchN == N) &&
        scaleBy(N, 1, 1)) {
      SearchN = N;
      SearchNeed = std::max(SearchNeed, Need);
      ++SearchUses;
      if (!SearchAt) {
        SearchAt = Idx;
        SearchVars = Vars;
      }
      return;
    }
  if (!Unknown)
    Unknown = Idx;
}

} // namespace extents
} // namespace batchdiff
