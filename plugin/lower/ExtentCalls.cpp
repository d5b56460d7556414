//===- ExtentCalls.cpp - extents through calls of helpers ----------------===//
// Part of extent inference (ExtentUses.h, Uses::followCall): a pointer
// parameter passed to a helper defined in the file at a row offset, `dot(x +
// i * d, w, d)` under `for (i = 0; i < n; i++)` (n x d elements), `f(x + 3 *
// i)` (3 n), or at a constant offset to a helper whose loop bound the call
// gives as a constant, `sum(x + 3, 4)` (7), or through a widening cast,
// `dot(x, w, (size_t)d)` (d). The helper's own uses of its parameter, walked
// from its start, give an extent in its terms (a constant, k x its integer
// parameter, rows x columns of its parameters); the call's arguments are
// substituted into it and the offset added: the largest element read is
// below (r - 1) c + c = r c for rows of c, below (r - 1) k + k for rows of k
// constant elements. Where the extent is not exactly one of these, the
// argument is walked as before (the parameter is "used as a pointer", and
// the lowering's error says why the helper gave no extent: WholeWhy).
//===----------------------------------------------------------------------===//
#include "lower/ExtentUses.h"

namespace batchdiff {
namespace extents {

/// \p E without parentheses, implicit casts and explicit casts from an
/// integer type to one at least as wide (`(size_t)d`, `(long)i`): the value
/// of a non-negative operand is kept.
const Expr *Uses::widened(const Expr *E) const {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    const auto *CE = dyn_cast<ExplicitCastExpr>(E);
    if (!CE)
      return E;
    QualType To = CE->getType(), From = CE->getSubExpr()->getType();
    if (!To->isIntegerType() || !From->isIntegerType() || To->isBooleanType() ||
        Ctx.getIntWidth(To) < Ctx.getIntWidth(From))
      return E;
    E = CE->getSubExpr();
  }
}

/// What the call \p CE gives helper \p Def's integer parameter \p HP, which
/// the helper does not assign: an integer parameter of this function that
/// it does not assign either (\p N), or a constant (\p K).
bool Uses::given(const ParmVarDecl *HP, const CallExpr *CE,
                 const FunctionDecl *Def, const ParmVarDecl *&N,
                 std::optional<int64_t> &K) {
  N = nullptr;
  K.reset();
  unsigned I = HP->getFunctionScopeIndex();
  if (I >= CE->getNumArgs() || !HP->getType()->isIntegerType() ||
      lowering::modifies(Def->getBody(), HP))
    return false;
  const Expr *A = widened(CE->getArg(I));
  if ((K = constInt(A)))
    return true;
  N = paramOf(A);
  return N && declFunctionContext(N) == FD && N->getType()->isIntegerType() &&
         !lowering::modifies(FD->getBody(), N);
}

/// A row offset `i * c`, `c * i` (c an integer parameter this function
/// does not assign: \p C), `k * i`, `i * k` (k >= 1 a constant: \p K) or
/// `i` (K = 1), i the variable of a loop around the call counted below an
/// integer parameter from a constant >= 0 and not assigned in it (\p I).
bool Uses::rowOffsetOf(const Expr *Off, const LoopVar *&I,
                       const ParmVarDecl *&C, int64_t &K) const {
  Off = widened(Off);
  I = nullptr;
  C = nullptr;
  K = 0;
  if ((I = countedBelow(varOf(Off))))
    return K = 1, true;
  const auto *Mul = dyn_cast<BinaryOperator>(Off);
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return false;
  for (bool Swap : {false, true}) {
    I = countedBelow(varOf(widened(Swap ? Mul->getRHS() : Mul->getLHS())));
    const Expr *F = widened(Swap ? Mul->getLHS() : Mul->getRHS());
    if (!I)
      continue;
    Expr::EvalResult R;
    if (!F->isValueDependent() && F->EvaluateAsInt(R, Ctx)) {
      K = R.Val.getInt().getExtValue();
      return K >= 1 && K <= (int64_t(1) << 30);
    }
    C = paramOf(F);
    return C && declFunctionContext(C) == FD && C->getType()->isIntegerType() &&
           !lowering::modifies(FD->getBody(), C);
  }
  return false;
}

/// `p + off`, `off + p`, `&p[off]` with a row offset (rowOffsetOf), p this
/// function's parameter itself, read from its start (no BaseShift).
bool Uses::passedRow(const Expr *Arg, const LoopVar *&I, const ParmVarDecl *&C,
                     int64_t &K) const {
  Arg = Arg->IgnoreParenImpCasts();
  if (BaseShift)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Arg);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *AS =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
        AS && paramOf(AS->getBase()) == P)
      return rowOffsetOf(AS->getIdx(), I, C, K);
  const auto *Add = dyn_cast<BinaryOperator>(Arg);
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  for (bool Swap : {false, true})
    if (paramOf(Swap ? Add->getRHS() : Add->getLHS()) == P)
      return rowOffsetOf(Swap ? Add->getLHS() : Add->getRHS(), I, C, K);
  return false;
}

/// The extent helper \p Def's uses \p H (walked from its parameter's start)
/// give its parameter, with the call \p CE's arguments for the helper's
/// integer parameters: false when they are not of a shape this can bound.
bool Uses::calleeExtent(const Uses &H, const CallExpr *CE,
                        const FunctionDecl *Def, CalleeExtent &E) {
  if (H.Unknown || H.Whole || H.Stepped || H.Inc.Uses || H.Step.Uses ||
      !H.Step.Reads.empty() || H.End.N || H.AtLeast || H.BeforeAt ||
      !H.Aliases.empty() || !H.Rows.empty() || H.Div > 1 || H.SearchN)
    return false;
  E = CalleeExtent();
  E.FromRange = H.FromRange;
  if (H.FlatRows) { // rows x columns of the helper's parameters
    std::optional<int64_t> KR, KC;
    if (H.Bound || H.PlusParam || H.MaxConst >= 0 ||
        !given(H.FlatRows, CE, Def, E.Rows, KR) ||
        !given(H.FlatCols, CE, Def, E.Cols, KC) || !E.Rows || !E.Cols)
      return false;
    return true;
  }
  if (H.Bound) { // k x n (+ c)
    if ((H.PlusParam && (H.PlusParam != H.Bound || H.Scale > 1)) ||
        H.MaxConst >= 0)
      return false;
    std::optional<int64_t> L;
    if (!given(H.Bound, CE, Def, E.N, L))
      return false;
    if (E.N) {
      E.Scale = H.Scale;
      E.Plus = H.Plus;
      E.Need = H.BoundNeed;
      return true;
    }
    // A constant count: the loop's own bound, at most k n + c elements.
    if (*L < 0 || *L > (int64_t(1) << 30) || H.Scale > (int64_t(1) << 30) ||
        H.Plus > (int64_t(1) << 30))
      return false;
    E.Const = H.Scale * *L + H.Plus;
    E.FromRange = true;
    return true;
  }
  if (H.PlusParam)
    return false;
  E.Const = H.MaxConst + 1; // constant indices (0: none)
  return true;
}

/// \p E as written (for messages).
std::string Uses::text(const Expr *E) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return OS.str();
}

bool Uses::followCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || Def == FD || Depth >= 4 ||
      Def->isVariadic() || Def->getNumParams() != CE->getNumArgs())
    return false;
  std::vector<bool> Done(CE->getNumArgs(), false);
  std::vector<std::string> Why(CE->getNumArgs());
  bool Any = false, Passed = false;
  for (unsigned K = 0; K < CE->getNumArgs(); ++K) {
    const ParmVarDecl *HP = Def->getParamDecl(K);
    if (!HP->getType()->isPointerType() ||
        !Ctx.hasSameUnqualifiedType(HP->getType()->getPointeeType(),
                                    P->getType()->getPointeeType()))
      continue;
    bool Ok = false;
    if (auto Sh = passedShift(CE->getArg(K))) {
      Uses H(HP, Def, Ctx);
      H.BaseShift = *Sh;
      H.Depth = Depth + 1;
      H.walk(Def->getBody());
      Ok = merge(H, CE, Def);
    }
    if (Ok || followPassed(CE, Def, K, Why[K]))
      Done[K] = Any = true;
    Passed |= !Why[K].empty();
  }
  if (!Any && !Passed)
    return false;
  // The other arguments: a use of p there as a pointer says why.
  for (unsigned K = 0; K < CE->getNumArgs(); ++K)
    if (!Done[K]) {
      const Expr *Was = Whole;
      walk(CE->getArg(K));
      if (!Was && Whole && !Why[K].empty() && WholeWhy.empty())
        WholeWhy = Why[K];
    }
  if (Any && std::find(Helpers.begin(), Helpers.end(), Def) == Helpers.end())
    Helpers.push_back(Def);
  return true;
}

/// Follows the call \p CE of helper \p Def, which passes p on as its
/// argument \p Arg (its parameter's index), where followCall's shift rule
/// does not explain it: at a row offset, or to a helper whose count the
/// call gives as a constant or through a cast. False: nothing recorded,
/// and \p Why says why, for an argument that passes p on ("passed to 'dot'
/// as 'x + k * d', ...").
bool Uses::followPassed(const CallExpr *CE, const FunctionDecl *Def,
                        unsigned Arg, std::string &Why) {
  const LoopVar *I = nullptr;
  const ParmVarDecl *C = nullptr;
  int64_t K = 0;
  const Expr *A = CE->getArg(Arg);
  std::string To = "passed to '" + Def->getNameAsString() + "' as '" +
                   text(A->IgnoreParenImpCasts()) + "'";
  bool Row = passedRow(A, I, C, K);
  std::optional<int64_t> Sh = Row ? std::nullopt : passedShift(A);
  if (!Row && !Sh) {
    Why = To + ", an offset that is neither a constant nor 'i * c' or 'k * "
               "i' (c an integer parameter nothing assigns, k a constant), i "
               "the variable of a loop 'for (i = 0; i < n; i++)' around the "
               "call";
    return false;
  }
  Uses H(Def->getParamDecl(Arg), Def, Ctx);
  H.Depth = Depth + 1;
  H.walk(Def->getBody());
  CalleeExtent E;
  if ((Sh && *Sh < 0) || !calleeExtent(H, CE, Def, E)) {
    bool Walks = H.Whole || H.Stepped || H.Inc.Uses || H.Step.Uses ||
                 !H.Step.Reads.empty() || H.End.N || !H.Aliases.empty() ||
                 !H.Rows.empty();
    Why = To + (!H.WholeWhy.empty() ? ", and from there " + H.WholeWhy
                : Walks ? ", which walks it or passes it on where no count "
                          "bounds it"
                : H.Unknown || H.AtLeast || H.BeforeAt || (Sh && *Sh < 0)
                    ? ", where no loop bound or constant explains its "
                      "indices"
                    : ", where the call gives the count it reads to as "
                      "neither an integer parameter nor a constant from 0 to "
                      "2^30, or one of the two functions assigns it");
    return false;
  }
  if (Row && C) {
    // Rows of c: the helper reads c elements from each row's start.
    if (E.N != C || E.Scale != 1 || E.Plus != 0 || !flat({I->Bound, C}, CE)) {
      std::string Cs = "'" + C->getNameAsString() + "'";
      Why = To + ", rows of " + Cs + " elements, where it does not read " + Cs +
            " elements from a row's start (an index below its " +
            "parameter the call gives " + Cs + ")";
      return false;
    }
  } else if (Row) {
    // Rows of k constant elements: the helper reads at most k of them, as
    // `x[k * i + c]` (0 <= c < k) does.
    if (E.N || E.Rows || E.Const > K || (Bound && Bound != I->Bound) ||
        (E.Const > 0 && Bound && Div > 1 && K * Div < Scale)) {
      Why = To + ", where it reads more than the rows' " + std::to_string(K) +
            " elements or a number no constant bounds";
      return false;
    }
    if (E.Const > 0) {
      scaleBy(I->Bound, K, 1); // (holds: checked above)
      need(*I);
    }
  } else if (E.Rows || E.N) {
    // The helper's count (or rows) of parameters, from p's start.
    bool Ok = *Sh == 0 && !(E.N && Bound && Bound != E.N) &&
              !(E.N && Bound && Div > 1 && E.Scale * Div < Scale) &&
              !(E.Plus > 0 && PlusParam && PlusParam != E.N);
    if (!Ok || (E.Rows && !flat({E.Rows, E.Cols}, CE))) {
      Why = To +
            ", where a parameter counts the elements it reads, which "
            "gives an extent only when '" +
            P->getNameAsString() + "' is passed from its start";
      return false;
    }
    if (E.N) {
      scaleBy(E.N, E.Scale, 1); // (holds: checked above)
      if (E.Need > BoundNeed) {
        BoundNeed = E.Need;
        NeedOf.clear(); // (the helper's count)
      }
      if (E.Plus > 0) {
        PlusParam = E.N;
        Plus = std::max(Plus, E.Plus);
        if (!PlusAt)
          PlusAt = CE;
      }
    }
  } else if (E.Const > 0) {
    constexpr int64_t Big = int64_t(1) << 30;
    if (*Sh > Big || E.Const > Big || *Sh + E.Const > Big) {
      Why = To + ", which reads past 2^30 elements";
      return false;
    }
    MaxConst = std::max(MaxConst, *Sh + E.Const - 1);
    FromRange |= E.FromRange;
  }
  for (const FunctionDecl *D : H.Helpers)
    if (std::find(Helpers.begin(), Helpers.end(), D) == Helpers.end())
      Helpers.push_back(D);
  return true;
}

} // namespace extents
} // namespace batchdiff
