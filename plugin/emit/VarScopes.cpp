//===- VarScopes.cpp - variables declared inside a top-level if -----------===//
#include "emit/VarScopes.h"

namespace batchdiff {

std::vector<VarScope> varScopes(const ir::Function &F) {
  size_t N = F.Vars.size();
  std::vector<VarScope> R(N);
  std::vector<bool> Bad(N, false);
  for (size_t V = 0; V < N; ++V)
    Bad[V] = F.Vars[V].Len > 0;
  for (const ir::Output &O : F.Outputs)
    if (O.Var >= 0 && (size_t)O.Var < N)
      Bad[O.Var] = true;
  // (Tape ops use Var for their slot.)
  auto Access = [&](const ir::Stmt &S) {
    return S.K == ir::Stmt::Inst && S.Var >= 0 && (size_t)S.Var < N &&
           (S.Opc == ir::Op::GetVar || S.Opc == ir::Op::SetVar ||
            S.Opc == ir::Op::LoadElem || S.Opc == ir::Op::StoreElem ||
            S.Opc == ir::Op::ZeroArr);
  };
  for (const auto &SP : F.Body) {
    const ir::Stmt &S = *SP;
    if (S.K == ir::Stmt::Inst) {
      if (!Access(S))
        continue;
      VarScope &VS = R[S.Var];
      if (S.Opc == ir::Op::SetVar && S.Mask < 0 && !VS.If)
        VS.Init = S.Args[0];
      else
        Bad[S.Var] = true;
      continue;
    }
    auto Mark = [&](const ir::Block &B, bool Then) {
      ir::walk(B, [&](const ir::Stmt &X, int) {
        if (!Access(X))
          return;
        VarScope &VS = R[X.Var];
        if (!Then || (VS.If && VS.If != &S))
          Bad[X.Var] = true;
        VS.If = &S;
      });
    };
    Mark(S.Then, S.K == ir::Stmt::If);
    Mark(S.Else, false);
    Mark(S.Body, false);
  }
  for (size_t V = 0; V < N; ++V)
    if (Bad[V])
      R[V] = VarScope();
  return R;
}

} // namespace batchdiff
