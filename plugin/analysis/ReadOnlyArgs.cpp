//===- ReadOnlyArgs.cpp - array parameters nothing writes -----------------===//
#include "analysis/ReadOnlyArgs.h"

namespace batchdiff {

std::vector<bool> readOnlyArgs(const ir::Function &F) {
  std::vector<bool> RO(F.Params.size());
  for (size_t P = 0; P < F.Params.size(); ++P)
    RO[P] = F.Params[P].IsArray && !F.Params[P].Writable;
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Opc == ir::Op::StoreArg && S.IVal >= 0 &&
        (size_t)S.IVal < RO.size())
      RO[S.IVal] = false;
  });
  return RO;
}

} // namespace batchdiff
