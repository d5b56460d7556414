//===- HoistInvariants.cpp - loop-invariant code motion -------------------===//
#include "transforms/simplify/HoistInvariants.h"

#include <set>

namespace batchdiff {
namespace {

using ir::Op;

/// Moves invariant statements of \p B, and of the ifs inside it (they are
/// pure: vector code never traps and the emitter makes integer division
/// safe, so running them where the if would not is harmless), to \p Out.
void extract(ir::Block &B, std::set<int> &Defined, ir::Block &Out) {
  ir::Block Kept;
  for (auto &XP : B) {
    if (XP->K == ir::Stmt::If) {
      extract(XP->Then, Defined, Out);
      extract(XP->Else, Defined, Out);
    }
    bool Invariant =
        XP->K == ir::Stmt::Inst && XP->Dst >= 0 && ir::opPure(XP->Opc);
    for (int A : XP->Args)
      Invariant = Invariant && !Defined.count(A);
    if (Invariant) {
      Defined.erase(XP->Dst);
      Out.push_back(std::move(XP));
    } else {
      Kept.push_back(std::move(XP));
    }
  }
  B = std::move(Kept);
}

void hoist(ir::Block &B) {
  ir::Block Out;
  for (auto &SP : B) {
    ir::Stmt &S = *SP;
    hoist(S.Then);
    hoist(S.Else);
    hoist(S.Body); // inner loops first: their invariants land in this body
    if (S.K == ir::Stmt::Loop) {
      std::set<int> Defined;
      ir::walk(S.Body, [&](const ir::Stmt &X, int) {
        if (X.K == ir::Stmt::Inst && X.Dst >= 0)
          Defined.insert(X.Dst);
      });
      extract(S.Body, Defined, Out);
    }
    Out.push_back(std::move(SP));
  }
  B = std::move(Out);
}

} // namespace

void hoistInvariants(ir::Function &F) { hoist(F.Body); }

} // namespace batchdiff
