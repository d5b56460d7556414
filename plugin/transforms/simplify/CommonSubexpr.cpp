//===- CommonSubexpr.cpp - reuse identical pure computations --------------===//
#include "transforms/simplify/CommonSubexpr.h"

#include "analysis/ReadOnlyArgs.h"

#include <cstring>
#include <map>
#include <tuple>

namespace batchdiff {
namespace {

using ir::Op;

// Everything that makes two statements compute the same value. The
// constant's bits, not its value, so 0.0 and -0.0 stay apart.
using Key = std::tuple<int, int, std::vector<int>, uint64_t, int64_t, int>;

struct Cse {
  ir::Function &F;
  bool (*Only)(ir::Op);
  // Reads of an element of such an array parameter give one value: merged
  // too (a block's read reused in the blocks inside it, whose lanes are
  // among its own).
  std::vector<bool> ReadOnly;
  std::vector<int> Repl;
  // The computations of the enclosing blocks and this one so far: a block
  // removes its own on leaving (a copy per nested block was quadratic in
  // memory: 10,000 early returns nest 10,000 ifs).
  std::map<Key, int> Known;

  int rep(int T) const { return T >= 0 ? Repl[T] : T; }

  void block(ir::Block &B) {
    std::vector<std::map<Key, int>::iterator> Added;
    ir::Block Kept;
    for (auto &SP : B) {
      ir::Stmt &S = *SP;
      for (int &A : S.Args)
        A = rep(A);
      if (S.K == ir::Stmt::Inst) {
        bool Same = ir::opPure(S.Opc) && (!Only || Only(S.Opc));
        Same |= !Only && S.Opc == Op::LoadArg && S.IVal >= 0 &&
                (size_t)S.IVal < ReadOnly.size() && ReadOnly[S.IVal];
        if (S.Dst >= 0 && Same) {
          uint64_t Bits;
          std::memcpy(&Bits, &S.FVal, sizeof Bits);
          Key K{(int)S.Opc, (int)F.Temps[S.Dst], S.Args, Bits, S.IVal,
                (int)S.Fn};
          auto It = Known.find(K);
          if (It != Known.end()) {
            Repl[S.Dst] = It->second;
            continue;
          }
          Added.push_back(Known.emplace(K, S.Dst).first);
        }
        Kept.push_back(std::move(SP));
        continue;
      }
      if (S.K == ir::Stmt::If)
        S.Cond = rep(S.Cond);
      block(S.Then);
      block(S.Else);
      block(S.Body);
      S.Cond = rep(S.Cond);
      Kept.push_back(std::move(SP));
    }
    B = std::move(Kept);
    for (auto It : Added)
      Known.erase(It);
  }
};

} // namespace

void commonSubexpr(ir::Function &F, bool (*Only)(ir::Op)) {
  Cse C{F, Only, readOnlyArgs(F), {}, {}};
  C.Repl.resize(F.Temps.size());
  for (size_t T = 0; T < F.Temps.size(); ++T)
    C.Repl[T] = (int)T;
  C.block(F.Body);
}

} // namespace batchdiff
