//===- LaneGradInPlace.cpp - one array, two parameters of NAME_grad ------===//
//
// ERFA calls its functions in place: eraMoon98's `eraRxpv(rm, pv, pv)`,
// eraLdn's `eraLd(b[i].bm, sn, sn, e, em, b[i].dl, sn)`. Through the
// callee's NAME_grad (LaneGrad.cpp) each parameter gets a copy of its own,
// which is the call's function where the callee's file promises, for each
// parameter I that only reads the array and the one J that writes it, that
// the callee reads each element through I only before writing it through J
// and never writes through I (batchdiff.inplace:NAME:I:J, lower/InPlace.h).
// Then the derivative of what the call leaves in the array is the sum of
// NAME_grad's partials in both copies: J's copy is the call's output (its
// shadow seeded), I's is read only (Aliased: not seeded, not an output).
// The emitted call references the promise (a link error where the callee's
// file does not define it) and checks at run time the promises of other
// files' functions it relies on (emit/ExternCall.cpp, gen_support.h's
// bd_inplace_check): never a derivative of another function.
//
// Arguments that reach the array's elements differently (`g(q, q + 1)`,
// or through parameters of different types) are refused at compile time,
// as before: no promise speaks of them.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include "llvm/ADT/FoldingSet.h"

namespace batchdiff {
namespace lowering {

bool Lowerer::inPlaceGroups(
    const CallExpr *CE, const FunctionDecl *Callee, const ir::ExternCall &X,
    const std::vector<LaneKind> &Kinds, std::vector<bool> &Aliased,
    std::vector<std::pair<unsigned, unsigned>> &InPlace) {
  std::map<int, std::vector<unsigned>> Groups;
  for (unsigned I = 0; I < Kinds.size(); ++I)
    if (int K = Kinds[I].Struct; K >= 0 && X.Structs[K].Len)
      Groups[K].push_back(I);
  auto Written = [&](unsigned J) {
    QualType PT = Callee->getParamDecl(J)->getType()->getPointeeType();
    return !Ctx.getBaseElementType(PT).isConstQualified();
  };
  // The same expression, without side effects, for parameters of one type
  // (element constness aside): the same elements.
  auto Same = [&](unsigned A, unsigned B) {
    const Expr *EA = CE->getArg(A), *EB = CE->getArg(B);
    if (EA->HasSideEffects(Ctx) || EB->HasSideEffects(Ctx))
      return false;
    llvm::FoldingSetNodeID IA, IB;
    EA->IgnoreParenImpCasts()->Profile(IA, Ctx, true);
    EB->IgnoreParenImpCasts()->Profile(IB, Ctx, true);
    QualType TA = Callee->getParamDecl(A)->getOriginalType();
    QualType TB = Callee->getParamDecl(B)->getOriginalType();
    auto Shape = [&](QualType T) {
      std::vector<int64_t> D;
      if (const auto *PT = T->getAs<PointerType>()) {
        D.push_back(-1);
        T = PT->getPointeeType();
      }
      while (const ArrayType *AT = Ctx.getAsArrayType(T)) {
        const auto *CAT = dyn_cast<ConstantArrayType>(AT);
        D.push_back(CAT ? (int64_t)CAT->getSize().getZExtValue() : -2);
        T = AT->getElementType();
      }
      return std::make_pair(
          D, T.getCanonicalType().getUnqualifiedType().getAsString());
    };
    return IA == IB && Shape(TA) == Shape(TB);
  };
  for (const auto &[K, Ps] : Groups) {
    if (Ps.size() < 2)
      continue;
    int W = -1;
    for (unsigned P : Ps)
      if (Written(P))
        W = (int)P;
    if (W < 0)
      continue; // (read through each: taken as it is)
    for (unsigned P : Ps) {
      if (P == (unsigned)W)
        continue;
      if (!Same(P, (unsigned)W)) {
        std::string Name = X.Outs[X.Structs[K].Members[0].second].Array;
        std::string G = "'" + Callee->getNameAsString() + "_grad'";
        error(CE->getArg(std::max(P, (unsigned)W))->getBeginLoc(),
              "passing the array '" + Name + "' to '" +
                  Callee->getNameAsString() +
                  "' twice, once as a pointer to non-const, where its "
                  "derivative comes from " +
                  G + ",",
              "the outputs of " + G +
                  " may not overlap its inputs but where the same "
                  "expression goes to parameters of one type (in place, "
                  "docs/calls-in-place.md): copy the array into another local "
                  "array "
                  "for one of the arguments");
        return false;
      }
      Aliased[P] = true;
      InPlace.push_back({P, (unsigned)W});
    }
  }
  return true;
}

} // namespace lowering
} // namespace batchdiff
