//===- SelectChains.cpp - derivatives of long chains of selects -----------===//
#include "transforms/ad/SelectChains.h"

#include <unordered_map>
#include <vector>

namespace batchdiff {

namespace {

void countUses(const ir::Block &Blk, std::vector<unsigned> &Uses) {
  for (const auto &SP : Blk) {
    for (int A : SP->Args)
      if (A >= 0)
        ++Uses[A];
    for (int X : {SP->Mask, SP->Cond, SP->Aux})
      if (X >= 0)
        ++Uses[X];
    countUses(SP->Then, Uses);
    countUses(SP->Else, Uses);
    countUses(SP->Body, Uses);
  }
}

} // namespace

SelectChains findSelectChains(const ir::Block &Body,
                              const std::vector<ir::Type> &Temps,
                              const std::function<bool(int)> &Active) {
  SelectChains R;
  std::vector<unsigned> Uses(Temps.size(), 0);
  countUses(Body, Uses);
  // Per block: each select's linked arms (children), and whether it is
  // itself linked to a later select (not a root).
  std::unordered_map<const ir::Stmt *, std::vector<const ir::Stmt *>> Kids;
  std::unordered_set<const ir::Stmt *> Child;
  std::vector<const ir::Stmt *> Sels;
  std::function<void(const ir::Block &)> Scan = [&](const ir::Block &Blk) {
    std::unordered_map<int, const ir::Stmt *> Here; // temp -> its select
    for (const auto &SP : Blk) {
      const ir::Stmt &S = *SP;
      Scan(S.Then);
      Scan(S.Else);
      Scan(S.Body);
      if (S.K != ir::Stmt::Inst || S.Opc != ir::Op::Select || S.Dst < 0 ||
          !ir::isFloat(Temps[S.Dst]) || !Active(S.Dst))
        continue;
      Sels.push_back(&S);
      Here[S.Dst] = &S;
      for (unsigned K = 1; K < 3; ++K) {
        int A = S.Args[K];
        auto It = Here.find(A);
        if (It == Here.end() || Uses[A] != 1)
          continue;
        Kids[&S].push_back(It->second);
        Child.insert(It->second);
      }
    }
  };
  Scan(Body);
  for (const ir::Stmt *Root : Sels) {
    if (Child.count(Root))
      continue;
    std::vector<const ir::Stmt *> Tree{Root};
    for (size_t I = 0; I < Tree.size(); ++I)
      for (const ir::Stmt *K : Kids[Tree[I]])
        Tree.push_back(K);
    if (Tree.size() < MinSelectChain)
      continue;
    for (const ir::Stmt *S : Tree) {
      R.Long.insert(S);
      if (S != Root)
        R.Linked.insert(S->Dst);
    }
  }
  return R;
}

void zeroWhere(ir::Builder &B, ZeroSelect &Z, int Cond, bool Zero,
               const MaskOp &Merge) {
  int &M = Zero ? Z.Kill : Z.Keep;
  ir::Op O = Zero ? ir::Op::Or : ir::Op::And;
  M = M < 0 ? Cond : Merge ? Merge(O, M, Cond) : B.bin(O, M, Cond);
}

int selectValue(ir::Builder &B, const ZeroSelect &Z) {
  int V = Z.V;
  int Zero = B.constF(B.func().Temps[V], 0.0);
  if (Z.Kill >= 0)
    V = B.select(Z.Kill, Zero, V);
  if (Z.Keep >= 0)
    V = B.select(Z.Keep, V, Zero);
  return V;
}

} // namespace batchdiff
