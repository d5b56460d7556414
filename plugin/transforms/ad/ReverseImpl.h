//===- ReverseImpl.h - the reverse-mode differentiator --------*- C++ -*-===//
//
// Private to transforms/ad: the Reverser class, whose members are defined
// in Reverse.cpp (the sweeps, loops, need-flag guards),
// ReverseGuards.cpp (where an adjoint is real: guards and their masks,
// long chains of selects) and ReverseScale.cpp (the seed of a tiny return
// value scaled up, its gradient down).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_AD_REVERSEIMPL_H
#define BATCHDIFF_TRANSFORMS_AD_REVERSEIMPL_H

#include "transforms/ad/Reverse.h"
#include "transforms/ad/SelectChains.h"

#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace batchdiff {
namespace reverse {

using ir::Op;
using ir::Type;

class Reverser {
public:
  Reverser(const ir::Function &P, const Activity &A, ir::Function &G)
      : P(P), A(A), G(G), B(G, &G.Body) {}

  void run();

private:
  int adjTemp(int T) {
    int &V = DT[T];
    if (V < 0)
      V = G.newVar("d" + std::to_string(T), G.Temps[T]);
    return V;
  }
  int adjVar(int X) {
    int &V = DV[X];
    if (V < 0) {
      V = G.newVar("d_" + G.Vars[X].Name, G.Vars[X].Ty);
      G.Vars[V].Len = G.Vars[X].Len;
      G.Vars[V].CountVar = G.Vars[X].CountVar;
    }
    return V;
  }
  void accumVar(int V, int C) { B.set(V, B.add(B.get(V), C)); }
  /// Where an adjoint starts (or starts again): -0.0, so that its first
  /// `+=` is `-0.0 + c`, which is c for every c and which LLVM drops (it
  /// cannot drop `+0.0 + c`: -0.0 + +0.0 is +0.0). Only the sign of a zero
  /// gradient can differ from starting at +0.0.
  int adjZero(Type Ty) { return B.constF(Ty, -0.0); }
  bool act(int T) const {
    return T >= 0 && T < (int)A.Temp.size() && A.Temp[T];
  }
  bool actV(int V) const { return V >= 0 && V < (int)A.Var.size() && A.Var[V]; }
  ir::Block fwd(const ir::Block &Src);
  void defLoops(const ir::Block &Blk, int Cur);
  void insertStores(ir::Block &Blk, int Idx);
  void reverseLoop(const ir::Stmt &S);
  int R(int T);

  void computeDeps();
  uint64_t instDeps(const ir::Stmt &S) const;
  void guard(uint64_t Mask);
  void closeGuard();
  int needCond(uint64_t Mask);
  bool guardPays(const ir::Block &Body, uint64_t Mask) const;
  void reverseBlock(const ir::Block &Blk);
  void reverseInst(const ir::Stmt &S);
  int rule(const ir::Stmt &S, unsigned K, int Gt);

  // Lanes that did not evaluate a value (the other arm of a select: C
  // evaluates one; a value used only in loops, e.g. a hoisted invariant)
  // hold a zero adjoint for it, and zero times an infinite
  // partial is NaN: its contributions are selected away in those lanes
  // rather than multiplied by that zero. An atom is (T, 0/1): select
  // condition T false/true; (T, 2): the adjoint of T is nonzero.
  using Guard = std::vector<std::pair<int, int>>;
  void computeGuards(const ir::Block &Blk);
  std::vector<int> NestedUse; // temp -> its uses below its block (nestedUses)
  void nestedUses(const ir::Block &Body);
  const Guard &guardOf(int T) const;
  int masked(int C, const Guard &Of, const Guard &Minus);
  // Long chains of selects (SelectChains.h): the adjoint of a linked
  // select's value, known as a ZeroSelect of the chain's first adjoint.
  // Valid in the block and guard it was built in (GuardEpoch counts the
  // guards opened and closed).
  struct KnownAdjoint {
    ZeroSelect Z;
    const ir::Block *In = nullptr;
    unsigned Epoch = 0;
    // The guard of the select Z started at (up the chain): Z holds every
    // condition of this select's guard that is not in it.
    const Guard *Base = nullptr;
  };
  SelectChains Chains;
  std::map<int, KnownAdjoint> Known;
  unsigned GuardEpoch = 0;
  void selectChain(const ir::Stmt &S);
  // The masks merged for long chains and guards (zeroWhere), each built
  // once, in the block of the innermost reverseBlock and outside its
  // need-flag guards, so that the guards of later arms and nested blocks
  // read them: an arm's guard holds the conditions of the arms before it,
  // rebuilt per arm that is N^2 / 2 operations for a chain of N.
  struct MaskScope {
    ir::Block *Blk = nullptr;
    std::map<std::tuple<Op, int, int>, int> Memo; // (op, lower, higher)
  };
  std::vector<MaskScope> MaskScopes;
  int maskOp(Op O, int X, int Y);
  MaskOp mergeMasks() {
    return [this](Op O, int X, int Y) { return maskOp(O, X, Y); };
  }

  const ir::Function &P;
  const Activity &A;
  ir::Function &G;
  ir::Builder B;
  std::vector<int> DT, DV, DP;
  // Which differentiable parameters each temp / var depends on (bit i =
  // parameter i), and the open `if (need...)` guard of the reverse sweep.
  std::vector<uint64_t> DepT, DepV;
  std::vector<int> NeedParam;
  std::map<uint64_t, int> NeedTemp;
  uint64_t GuardMask = 0;
  ir::Block *GuardOuter = nullptr;
  ir::Block GuardBody; // the open guard's statements, until it closes
  ir::Block Needs;     // need-flag conditions, computed once before the sweep

  // Loops: each forward loop counts its iterations per example (TripVar),
  // and the values its reverse sweep reads are stored on its tape.
  struct LoopInfo {
    int Id = -1, TripVar = -1, Cnt = -1, Tr = -1, KFwd = -1, Tape = -1;
    ir::Stmt *Reserve = nullptr, *Commit = nullptr, *Loop = nullptr;
    std::map<int, int> Slot; // temp -> slot on the tape
  };
  std::vector<LoopInfo> Infos;
  std::map<const ir::Stmt *, int> LoopOf;
  std::vector<int> DefLoop;  // temp -> innermost loop (index into Infos)
  std::vector<bool> IsConst; // constants are never taped
  // temp -> its defining statement in the forward sweep, and that
  // statement's position there (recomputed values follow their operands)
  std::vector<const ir::Stmt *> Def;
  std::vector<size_t> DefPos;
  bool recomputes(int T, int Info, const std::vector<bool> &Needed) const;
  struct RevCtx {
    int Info;
    std::vector<std::pair<int, int>> Loaded; // temp -> its reloaded copy
  };
  std::vector<RevCtx> RevStack;
  size_t NextPos = 0;
  // The primal's math calls outside loops, and where each block of the
  // primal opens and closes in a walk (Reverser::primalMath).
  std::vector<const ir::Stmt *> Calls;
  std::map<const ir::Stmt *, int> BlockOf;
  std::vector<std::pair<int, int>> Span;
  void placeCalls(const ir::Block &Blk, int &Clock);
  int primalMath(const ir::Stmt &S, ir::MathFn Fn,
                 const std::vector<int> &Args) const;
  // A rule's math calls made in the forward sweep (hoistRuleMath):
  // (primal call, argument) -> the temps of the rule's MATH calls in the
  // order the rule builds them; and the statements that make them.
  std::map<std::pair<const ir::Stmt *, unsigned>, std::vector<int>> Early;
  std::set<const ir::Stmt *> Hoisted;
  void hoistRuleMath(ir::Block &Blk, uint64_t All);
  std::map<int, Guard> Guards; // active temp -> where its adjoint is real

  // A tiny return value's seed scaled by 2^k (ReverseScale.cpp): the seed
  // the sweep starts from, and 2^-k (1 where not scaled).
  int SeedVar = -1, Unscale = -1;
  bool scalesSeed(int RetVar, int Seed) const;
  int scaledSeed(int RetVar, int Seed);
  void unscaleAdjoints();
  // Values written through pointers (an out-parameter of one element, a
  // record's members: GSL's `int f(double x, gsl_sf_result *r)`): their
  // cotangents, read from the shadows into a variable each (OutShadow:
  // parameter -> variable) that the sweep uses instead, scaled the same
  // way, and written back times 2^-k after it (ReverseScale.cpp).
  std::vector<int> ScaledOuts;
  std::map<int, int> OutShadow;
  bool scalesOuts(std::vector<int> &Outs) const;
  void scaleOutSeeds();
  void unscaleOuts();
};

} // namespace reverse
} // namespace batchdiff

#endif
