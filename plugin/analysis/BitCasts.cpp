//===- BitCasts.cpp - derivatives that would be lost in integer bits ------===//
#include "analysis/BitCasts.h"

#include "analysis/Activity.h"

namespace batchdiff {

using ir::Op;

std::vector<const ir::Stmt *> derivativeLosingBitcasts(const ir::Function &F) {
  // Dep: a float that depends on a differentiable parameter, or an integer
  // made from the bits of one; for temps and for variables.
  std::vector<bool> Dep(F.Temps.size()), VarDep(F.Vars.size());
  std::vector<const ir::Stmt *> Insts;
  std::vector<const ir::Stmt *> Consts = floatConstants(F);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst)
      Insts.push_back(&S);
  });
  auto FloatTo = [&](const ir::Stmt &S) {
    return S.Opc == Op::Bitcast && !ir::isFloat(F.Temps[S.Dst]);
  };
  bool Changed = true;
  auto Mark = [&](std::vector<bool> &V, int I) {
    if (I >= 0 && !V[I])
      V[I] = Changed = true;
  };
  while (Changed) {
    Changed = false;
    for (const ir::Stmt *P : Insts) {
      const ir::Stmt &S = *P;
      switch (S.Opc) {
      case Op::Param:
      case Op::LoadArg:
        if (isDifferentiable(F.Params[S.IVal]))
          Mark(Dep, S.Dst);
        continue;
      case Op::GetVar:
      case Op::LoadElem:
        if (VarDep[S.Var])
          Mark(Dep, S.Dst);
        continue;
      case Op::SetVar:
        if (Dep[S.Args[0]])
          Mark(VarDep, S.Var);
        continue;
      case Op::StoreElem:
        if (Dep[S.Args[1]])
          Mark(VarDep, S.Var);
        continue;
      case Op::Bitcast:
        // Back to a float: the derivative is lost here (reported), not
        // carried on.
        if (FloatTo(S) && Dep[S.Args[0]])
          Mark(Dep, S.Dst);
        continue;
      default:
        break;
      }
      if (S.Dst < 0 ||
          (S.Opc == Op::Math && ir::mathDeriv(S.Fn) == ir::MathDeriv::Zero) ||
          roundsToInteger(S, F, Consts))
        continue;
      // Integer results carry bits onward; float results of integers (a
      // conversion) do not (piecewise constant), of floats they do.
      bool DstFloat = ir::isFloat(F.Temps[S.Dst]);
      for (int A : S.Args)
        if (Dep[A] && ir::isFloat(F.Temps[A]) == DstFloat)
          Mark(Dep, S.Dst);
    }
  }
  std::vector<const ir::Stmt *> Out;
  for (const ir::Stmt *S : Insts)
    if (S->Opc == Op::Bitcast && !FloatTo(*S) && Dep[S->Args[0]])
      Out.push_back(S);
  return Out;
}

} // namespace batchdiff
