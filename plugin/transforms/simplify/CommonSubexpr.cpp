//===- CommonSubexpr.cpp - reuse identical pure computations --------------===//
#include "transforms/simplify/CommonSubexpr.h"

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
  std::vector<int> Repl;

  int rep(int T) const { return T >= 0 ? Repl[T] : T; }

  void block(ir::Block &B, std::map<Key, int> Known) {
    ir::Block Kept;
    for (auto &SP : B) {
      ir::Stmt &S = *SP;
      for (int &A : S.Args)
        A = rep(A);
      if (S.K == ir::Stmt::Inst) {
        if (S.Dst >= 0 && ir::opPure(S.Opc)) {
          uint64_t Bits;
          std::memcpy(&Bits, &S.FVal, sizeof Bits);
          Key K{(int)S.Opc, (int)F.Temps[S.Dst], S.Args, Bits, S.IVal,
                (int)S.Fn};
          auto It = Known.find(K);
          if (It != Known.end()) {
            Repl[S.Dst] = It->second;
            continue;
          }
          Known.emplace(K, S.Dst);
        }
        Kept.push_back(std::move(SP));
        continue;
      }
      if (S.K == ir::Stmt::If)
        S.Cond = rep(S.Cond);
      block(S.Then, Known);
      block(S.Else, Known);
      block(S.Body, Known);
      S.Cond = rep(S.Cond);
      Kept.push_back(std::move(SP));
    }
    B = std::move(Kept);
  }
};

} // namespace

void commonSubexpr(ir::Function &F) {
  Cse C{F, {}};
  C.Repl.resize(F.Temps.size());
  for (size_t T = 0; T < F.Temps.size(); ++T)
    C.Repl[T] = (int)T;
  C.block(F.Body, {});
}

} // namespace batchdiff
