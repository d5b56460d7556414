//===- ForwardVars.cpp - reuse known values of variables ------------------===//
#include "transforms/simplify/ForwardVars.h"

#include <map>
#include <set>

namespace batchdiff {
namespace {

using ir::Op;

struct Forwarder {
  ir::Function &F;
  std::vector<int> Repl; // temp -> the temp that replaces it (or itself)
  std::vector<int> BitSrc = {}; // a Bitcast's temp -> its operand (else -1)

  int rep(int T) const { return T >= 0 ? Repl[T] : T; }

  static void setsIn(const ir::Block &B, std::set<int> &Out) {
    ir::walk(B, [&](const ir::Stmt &S, int) {
      if (S.K == ir::Stmt::Inst && S.Opc == Op::SetVar)
        Out.insert(S.Var);
    });
  }

  /// \p Into gets \p From's elements (the smaller set goes into the larger).
  static void merge(std::set<int> &Into, std::set<int> &&From) {
    if (Into.size() < From.size())
      std::swap(Into, From);
    Into.insert(From.begin(), From.end());
  }

  /// \p Known maps a scalar variable to the temp holding its value here.
  /// Returns the variables \p B writes, nested statements too: an if's
  /// writes are its sides', not a walk of the if per level of a nest of
  /// ifs (quadratic: 10,000 early returns nest 10,000 ifs).
  std::set<int> block(ir::Block &B, std::map<int, int> Known) {
    std::set<int> All;
    ir::Block Kept;
    for (auto &SP : B) {
      ir::Stmt &S = *SP;
      for (int &A : S.Args)
        A = rep(A);
      if (S.K == ir::Stmt::Inst) {
        if (S.Opc == Op::GetVar && F.Vars[S.Var].Len == 0) {
          auto It = Known.find(S.Var);
          if (It != Known.end()) {
            Repl[S.Dst] = It->second;
            continue; // the read is redundant
          }
          Known[S.Var] = S.Dst;
        } else if (S.Opc == Op::SetVar) {
          Known[S.Var] = S.Args[0];
          All.insert(S.Var);
        } else if (S.Opc == Op::Bitcast) {
          // Bits cast back to their own type (a union's double written
          // and read back): the value itself, with its derivative.
          int Src = BitSrc[S.Args[0]];
          if (Src >= 0 && F.Temps[Src] == F.Temps[S.Dst]) {
            Repl[S.Dst] = Src;
            continue;
          }
          BitSrc[S.Dst] = S.Args[0];
        }
        Kept.push_back(std::move(SP));
        continue;
      }
      std::set<int> Written;
      if (S.K == ir::Stmt::If) {
        S.Cond = rep(S.Cond);
        Written = block(S.Then, Known);
        merge(Written, block(S.Else, Known));
        setsIn(S.Body, Written);
      } else {
        setsIn(S.Then, Written);
        setsIn(S.Else, Written);
        setsIn(S.Body, Written);
        // The body runs again after its own stores: only values of
        // variables the loop never writes stay known inside.
        std::map<int, int> Inner = Known;
        for (int V : Written)
          Inner.erase(V);
        block(S.Body, Inner);
        S.Cond = rep(S.Cond);
      }
      for (int V : Written)
        Known.erase(V);
      merge(All, std::move(Written));
      Kept.push_back(std::move(SP));
    }
    B = std::move(Kept);
    return All;
  }
};

} // namespace

void forwardVars(ir::Function &F) {
  Forwarder Fw{F, {}};
  Fw.Repl.resize(F.Temps.size());
  Fw.BitSrc.assign(F.Temps.size(), -1);
  for (size_t T = 0; T < F.Temps.size(); ++T)
    Fw.Repl[T] = (int)T;
  Fw.block(F.Body, {});
}

} // namespace batchdiff
