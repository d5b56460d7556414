//===- Frame.cpp - which local arrays live on the stack -------------------===//
#include "emit/Frame.h"

namespace batchdiff {

static std::vector<bool> usedArrays(const ir::Function &F) {
  std::vector<bool> Used(F.Vars.size(), false);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Var >= 0 && (size_t)S.Var < Used.size() &&
        (S.Opc == ir::Op::LoadElem || S.Opc == ir::Op::StoreElem ||
         S.Opc == ir::Op::ZeroArr))
      Used[S.Var] = true;
  });
  return Used;
}

std::vector<int> vlaArrays(const ir::Function &F) {
  std::vector<bool> Used = usedArrays(F);
  std::vector<int> Vla;
  for (size_t V = 0; V < F.Vars.size(); ++V)
    if (Used[V] && F.Vars[V].CountVar >= 0)
      Vla.push_back((int)V);
  return Vla;
}

std::vector<int> arenaArrays(const ir::Function &F) {
  std::vector<bool> Used = usedArrays(F);
  std::vector<int> Arena;
  unsigned long Stack = 0;
  for (size_t V = 0; V < F.Vars.size(); ++V) {
    const ir::Var &Va = F.Vars[V];
    if (Va.Len <= 0 || !Used[V] || Va.CountVar >= 0)
      continue;
    // A varying array has one copy per independent chain.
    unsigned long Elem =
        F.VaryingVar[V] ? 64ul * F.Lanes.Interleave : ir::bitWidth(Va.Ty) / 8;
    unsigned long Bytes = (unsigned long)Va.Len * (Elem ? Elem : 1);
    if (Stack + Bytes <= StackArrayBudget)
      Stack += Bytes;
    else
      Arena.push_back((int)V);
  }
  return Arena;
}

} // namespace batchdiff
