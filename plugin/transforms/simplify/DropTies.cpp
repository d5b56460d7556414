//===- DropTies.cpp - the derivatives' ties, once they are made -----------===//
#include "transforms/simplify/DropTies.h"

#include <map>

namespace batchdiff {

namespace {

using ir::Op;

/// Removes the ties of \p B, recording each one's value in \p Value.
void removeTies(ir::Block &B, std::map<int, int> &Value) {
  ir::Block Kept;
  for (auto &S : B) {
    removeTies(S->Then, Value);
    removeTies(S->Else, Value);
    removeTies(S->Body, Value);
    if (S->K == ir::Stmt::Inst && S->Opc == Op::Tie) {
      Value[S->Dst] = S->Args[0];
      continue;
    }
    Kept.push_back(std::move(S));
  }
  B = std::move(Kept);
}

/// Uses of a tie read its value (a tie of a tie: the first value).
void renameUses(ir::Block &B, const std::map<int, int> &Value) {
  auto Of = [&](int &T) {
    for (auto It = Value.find(T); It != Value.end(); It = Value.find(T))
      T = It->second;
  };
  for (auto &S : B) {
    for (int &A : S->Args)
      Of(A);
    Of(S->Mask);
    Of(S->Cond);
    Of(S->Aux);
    renameUses(S->Then, Value);
    renameUses(S->Else, Value);
    renameUses(S->Body, Value);
  }
}

} // namespace

void dropTies(ir::Function &F) {
  std::map<int, int> Value;
  removeTies(F.Body, Value);
  if (Value.empty())
    return;
  renameUses(F.Body, Value);
  ir::pruneDeadStores(F);
}

} // namespace batchdiff
