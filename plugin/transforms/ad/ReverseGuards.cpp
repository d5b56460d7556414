//===- ReverseGuards.cpp - where an adjoint is real -----------------------===//
// Reverser's guards: the lanes that did not evaluate a value get no
// contribution from it; and the adjoints of long chains of selects.
#include "transforms/ad/ReverseImpl.h"

#include <algorithm>
#include <functional>
#include <iterator>

namespace batchdiff {
namespace reverse {

const Reverser::Guard &Reverser::guardOf(int T) const {
  static const Guard None;
  auto It = Guards.find(T);
  return It == Guards.end() ? None : It->second;
}

/// How each temp of \p Body is used in the blocks nested in the one that
/// defines it, for computeGuards: 1 only inside loops there, 2 elsewhere
/// too. One walk of the sweep, not a walk of every block's nested blocks
/// (quadratic in the depth of a nest: 10,000 early returns nest 10,000 ifs).
void Reverser::nestedUses(const ir::Block &Body) {
  NestedUse.assign(G.Temps.size(), 0);
  std::vector<const ir::Block *> DefIn(G.Temps.size(), nullptr);
  std::vector<int> DefLoops(G.Temps.size(), 0);
  std::function<void(const ir::Block &, int)> Walk = [&](const ir::Block &Blk,
                                                         int Loops) {
    for (const auto &SP : Blk) {
      const ir::Stmt &S = *SP;
      if (S.K != ir::Stmt::Inst) {
        Walk(S.Then, Loops);
        Walk(S.Else, Loops);
        Walk(S.Body, Loops + 1);
        continue;
      }
      for (int A : S.Args)
        if (A >= 0 && A < (int)DefIn.size() && DefIn[A] && DefIn[A] != &Blk)
          NestedUse[A] = std::max(NestedUse[A], Loops > DefLoops[A] ? 1 : 2);
      if (S.Dst >= 0 && S.Dst < (int)DefIn.size()) {
        DefIn[S.Dst] = &Blk;
        DefLoops[S.Dst] = Loops;
      }
    }
  };
  Walk(Body, 0);
}

/// Guards of the temps defined in \p Blk: the atoms common to all their
/// uses (a use that is a root, such as a write to a variable, has none).
void Reverser::computeGuards(const ir::Block &Blk) {
  std::map<int, Guard> Uses;
  auto Use = [&](int T, Guard G) {
    if (!act(T))
      return;
    auto [It, New] = Uses.emplace(T, G);
    if (New)
      return;
    Guard Both;
    std::set_intersection(It->second.begin(), It->second.end(), G.begin(),
                          G.end(), std::back_inserter(Both));
    It->second = std::move(Both);
  };
  // Uses in nested blocks (nestedUses). A temp used in a loop body may have
  // been moved out of it (a hoisted invariant) and not be computed by C
  // where the loop runs zero times: its adjoint passes on only where it is
  // nonzero. A use inside an if only is an ordinary use: C computed the
  // value here.
  for (const auto &SP : Blk) {
    int T = SP->K == ir::Stmt::Inst ? SP->Dst : -1;
    if (T >= 0 && T < (int)NestedUse.size() && NestedUse[T])
      Use(T, NestedUse[T] == 1 ? Guard{{T, 2}} : Guard{});
  }
  for (auto It = Blk.rbegin(); It != Blk.rend(); ++It) {
    const ir::Stmt &S = **It;
    if (S.K != ir::Stmt::Inst)
      continue;
    Guard GD;
    if (S.Dst >= 0) {
      if (!act(S.Dst))
        continue; // no adjoint flows through it
      auto U = Uses.find(S.Dst);
      if (U != Uses.end() && !U->second.empty())
        GD = Guards[S.Dst] = U->second;
    }
    for (unsigned K = 0; K < S.Args.size(); ++K) {
      Guard G = GD;
      if (S.Opc == Op::Select && K > 0) {
        G.push_back({S.Args[0], K == 1 ? 1 : 0});
        std::sort(G.begin(), G.end());
      }
      Use(S.Args[K], std::move(G));
    }
  }
}

/// `X | Y` or `X & Y` of masks: the one already built in this block or an
/// enclosing one, else a new one at the end of this reverseBlock's block
/// (before its open guard: X and Y, conditions or masks, are defined there
/// or further out).
int Reverser::maskOp(Op O, int X, int Y) {
  auto Key = std::make_tuple(O, std::min(X, Y), std::max(X, Y));
  for (auto It = MaskScopes.rbegin(); It != MaskScopes.rend(); ++It) {
    auto M = It->Memo.find(Key);
    if (M != It->Memo.end())
      return M->second;
  }
  ir::Builder MB(G, MaskScopes.back().Blk);
  return MaskScopes.back().Memo[Key] = MB.bin(O, X, Y);
}

/// \p C in the lanes of every atom of \p Of not in \p Minus, else zero.
int Reverser::masked(int C, const Guard &Of, const Guard &Minus) {
  // A value under a long chain of selects has an atom per select: their
  // conditions are merged into masks, one select (SelectChains.h).
  size_t Conds = 0;
  for (auto [T, Kind] : Of)
    Conds += Kind != 2 && !std::binary_search(Minus.begin(), Minus.end(),
                                              std::make_pair(T, Kind));
  if (Conds >= MinSelectChain) {
    ZeroSelect Z;
    Z.V = C;
    Guard Rest;
    for (auto [T, Kind] : Of)
      if (Kind == 2)
        Rest.push_back({T, Kind});
      else if (!std::binary_search(Minus.begin(), Minus.end(),
                                   std::make_pair(T, Kind)))
        zeroWhere(B, Z, R(T), Kind == 0, mergeMasks());
    return masked(selectValue(B, Z), Rest, Minus);
  }
  for (auto [T, Kind] : Of) {
    if (std::binary_search(Minus.begin(), Minus.end(), std::make_pair(T, Kind)))
      continue;
    int Zero = B.constF(G.Temps[C], 0.0);
    if (Kind == 2) {
      int D = B.get(adjTemp(T));
      int Ne = B.cmp(Op::CmpNE, D, B.constF(G.Temps[T], 0.0));
      // Marked for forward over reverse (NAME_hvp, Forward.cpp): where the
      // adjoint is 0 but its tangent is not, the lane did run.
      B.block()->back()->IVal = 1;
      C = B.select(Ne, C, Zero);
    } else {
      C = Kind ? B.select(R(T), C, Zero) : B.select(R(T), Zero, C);
    }
  }
  return C;
}

/// A select of a long chain: its arms' adjoints are the chain's first
/// adjoint where no condition passed so far zeroed them (SelectChains.h),
/// the same bits as the rule's `c ? g : 0` and the guards' selects. A
/// linked arm's adjoint is also known (its one use is this select, in the
/// same block: nothing else adds to it), so that its select builds on the
/// chain's first adjoint, not on this one's value.
void Reverser::selectChain(const ir::Stmt &S) {
  ZeroSelect Z;
  const Guard *Base = nullptr; // Z holds the guard's conditions not in it
  auto It = Known.find(S.Dst);
  if (It != Known.end() && It->second.In == B.block() &&
      It->second.Epoch == GuardEpoch) {
    Z = It->second.Z;
    Base = It->second.Base;
  } else {
    Z.V = B.get(adjTemp(S.Dst));
  }
  if (It != Known.end())
    Known.erase(It);
  int Cond = R(S.Args[0]);
  for (unsigned K = 1; K < 3; ++K) {
    int Arg = S.Args[K];
    if (!act(Arg))
      continue;
    ZeroSelect A = Z;
    zeroWhere(B, A, Cond, K == 2, mergeMasks());
    Guard Rest; // atoms that test an adjoint: masked() keeps them apart
    const Guard &Minus = guardOf(Arg);
    for (auto [T, Kind] : guardOf(S.Dst)) {
      auto Atom = std::make_pair(T, Kind);
      if (std::binary_search(Minus.begin(), Minus.end(), Atom))
        continue;
      // Merged up the chain already: where Arg's guard does not hold the
      // chain's conditions (an arm hoisted out of the loop), merging them
      // again was N^2 / 2 masks.
      if (Kind != 2 && Base &&
          !std::binary_search(Base->begin(), Base->end(), Atom))
        continue;
      if (Kind == 2)
        Rest.push_back({T, Kind});
      else
        zeroWhere(B, A, R(T), Kind == 0, mergeMasks());
    }
    // The variable too: where the select of Arg is reversed under another
    // guard, it reads its adjoint there (and else the write is dead).
    accumVar(adjTemp(Arg), masked(selectValue(B, A), Rest, {}));
    if (Rest.empty() && Chains.Linked.count(Arg))
      Known[Arg] = {A, B.block(), GuardEpoch, Base ? Base : &guardOf(S.Dst)};
  }
}

} // namespace reverse
} // namespace batchdiff
