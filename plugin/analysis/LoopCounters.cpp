//===- LoopCounters.cpp - loop variables the same on every running lane ---===//
#include "analysis/LoopCounters.h"

#include <algorithm>
#include <deque>
#include <map>

namespace batchdiff {
namespace {

using ir::Op;

/// An enclosing If/Loop: which of its blocks (0 Then, 1 Else, 2 Body), and
/// its index in its own parent block.
struct Anc {
  const ir::Stmt *S;
  int Branch;
  size_t Index;
};

/// A block's place in the tree of enclosing statements: the sites of a
/// block share it (a copy of the path per site was quadratic in memory:
/// 10,000 early returns nest 10,000 ifs, 12.6 GB).
struct PathNode {
  Anc A;
  const PathNode *Parent; // null at the function's body
  const PathNode *Loop;   // this or the innermost enclosing loop, or null
};

/// A read or write of a variable: the statement, its innermost enclosing
/// statement's node and its index in its block.
struct Site {
  const ir::Stmt *S;
  const PathNode *Path;
  size_t Index;
};

/// The statements enclosing \p N's block, outermost first (\p N last).
std::vector<Anc> pathOf(const PathNode *N) {
  std::vector<Anc> P;
  for (; N; N = N->Parent)
    P.push_back(N->A);
  std::reverse(P.begin(), P.end());
  return P;
}

class Finder {
public:
  explicit Finder(const ir::Function &F)
      : F(F), Reads(F.Vars.size()), Writes(F.Vars.size()),
        Other(F.Vars.size(), false), Uses(F.Temps.size()),
        CondUses(F.Temps.size()), Def(F.Temps.size(), nullptr) {}

  std::set<const ir::Stmt *> run() {
    collect(F.Body, nullptr);
    // An output (a global kept per lane, the return value) is read after
    // the function's last statement, not only inside a loop.
    for (const ir::Output &O : F.Outputs)
      if (O.Var >= 0 && (size_t)O.Var < Other.size())
        Other[O.Var] = true;
    std::set<const ir::Stmt *> Out;
    for (size_t V = 0; V < F.Vars.size(); ++V)
      if (!Other[V] && F.Vars[V].Len == 0 && !Writes[V].empty())
        counter(V, Out);
    return Out;
  }

private:
  void collect(const ir::Block &B, const PathNode *Path) {
    for (size_t I = 0; I < B.size(); ++I) {
      const ir::Stmt &S = *B[I];
      if (S.K == ir::Stmt::Inst) {
        if (S.Dst >= 0)
          Def[S.Dst] = &S;
        for (int A : S.Args)
          if (A >= 0)
            Uses[A].push_back(&S);
        if (S.Opc == Op::GetVar)
          Reads[S.Var].push_back({&S, Path, I});
        else if (S.Opc == Op::SetVar)
          Writes[S.Var].push_back({&S, Path, I});
        else if (S.Opc == Op::LoadElem || S.Opc == Op::StoreElem ||
                 S.Opc == Op::ZeroArr)
          Other[S.Var] = true;
        continue;
      }
      if (S.Cond >= 0)
        CondUses[S.Cond].push_back(&S);
      for (int A : S.Args)
        if (A >= 0)
          CondUses[A].push_back(&S);
      const ir::Block *Kids[] = {&S.Then, &S.Else, &S.Body};
      for (int K = 0; K < 3; ++K) {
        if (Kids[K]->empty())
          continue;
        const PathNode *Loop = Path ? Path->Loop : nullptr;
        Nodes.push_back({{&S, K, I}, Path, Loop});
        if (S.K == ir::Stmt::Loop)
          Nodes.back().Loop = &Nodes.back();
        collect(*Kids[K], &Nodes.back());
      }
    }
  }

  /// Position of loop \p L in \p P, or -1.
  static int depthOf(const std::vector<Anc> &P, const ir::Stmt *L) {
    for (size_t I = 0; I < P.size(); ++I)
      if (P[I].S == L)
        return (int)I;
    return -1;
  }

  /// The operands of the And tree of \p T (and its inner nodes).
  void conjuncts(int T, std::set<int> &Out, int Depth = 0) {
    Out.insert(T);
    const ir::Stmt *D = Def[T];
    if (Depth < 16 && D && D->Opc == Op::And)
      for (int A : D->Args)
        conjuncts(A, Out, Depth + 1);
  }

  /// Whether temp \p T is used only, through pure operations, by the repeat
  /// condition of \p L.
  bool onlyFeedsCond(int T, const ir::Stmt *L, int Depth = 0) {
    if (Depth > 8)
      return false;
    for (const ir::Stmt *C : CondUses[T])
      if (C != L || T != L->Cond)
        return false;
    for (const ir::Stmt *U : Uses[T])
      if (!ir::opPure(U->Opc) || U->Dst < 0 ||
          !onlyFeedsCond(U->Dst, L, Depth + 1))
        return false;
    return true;
  }

  static constexpr int MaxNestDepth = 4;
  /// How many loops enclose \p N's block (\p N's own included).
  static int loopDepth(const PathNode *N) {
    int D = 0;
    for (; N; N = N->Parent)
      D += N->A.S->K == ir::Stmt::Loop;
    return D;
  }
  void counter(size_t V, std::set<const ir::Stmt *> &Out);
  bool counterOf(size_t V, const PathNode *LN, std::set<const ir::Stmt *> &Out);

  const ir::Function &F;
  std::vector<std::vector<Site>> Reads, Writes;
  std::vector<bool> Other;
  std::vector<std::vector<const ir::Stmt *>> Uses, CondUses;
  std::vector<const ir::Stmt *> Def;
  std::deque<PathNode> Nodes; // the sites' paths (stable addresses)
};

void Finder::counter(size_t V, std::set<const ir::Stmt *> &Out) {
  // L: the innermost loop around a write inside a loop, tried write by
  // write. Not only the first such write's: an inner loop's counter is set
  // to its start in the outer loop's body (`for (i ...) for (j = 0; ...)`),
  // and that write's loop is the outer one.
  // Only loops nested at most MaxNestDepth deep past the first: in nests
  // of 70 loops (plugin.deep_loops) 70 scalar counters made LLVM's SLP
  // vectorizer take 15 times as long.
  std::vector<const PathNode *> Tried;
  for (const Site &W : Writes[V]) {
    const PathNode *LN = W.Path ? W.Path->Loop : nullptr;
    if (!LN || std::find(Tried.begin(), Tried.end(), LN) != Tried.end())
      continue;
    if (!Tried.empty() && loopDepth(LN) > MaxNestDepth)
      return;
    Tried.push_back(LN);
    if (counterOf(V, LN, Out))
      return;
  }
}

/// Whether \p V is a counter of the loop at \p LN; if so, adds its writes.
bool Finder::counterOf(size_t V, const PathNode *LN,
                       std::set<const ir::Stmt *> &Out) {
  const ir::Stmt *L = LN->A.S;
  std::vector<Anc> LPath = pathOf(LN->Parent);
  size_t LIndex = LN->A.Index;
  if (L->Cond < 0)
    return false;
  std::set<int> Conj;
  conjuncts(L->Cond, Conj);

  // Writes inside L: under conjunct guards only; one before L outside it.
  std::vector<const Site *> Inside;
  std::set<const ir::Stmt *> Guards;
  std::vector<const Site *> Inits;
  size_t FirstTop = SIZE_MAX;
  for (const Site &W : Writes[V]) {
    std::vector<Anc> WPath = pathOf(W.Path);
    int D = depthOf(WPath, L);
    if (D < 0) {
      size_t N = WPath.size();
      if (N > LPath.size())
        continue;
      bool Prefix = true, LoopBetween = false;
      for (size_t I = 0; I < N; ++I)
        Prefix &=
            WPath[I].S == LPath[I].S && WPath[I].Branch == LPath[I].Branch;
      for (size_t I = N; I < LPath.size(); ++I)
        LoopBetween |= LPath[I].S->K != ir::Stmt::If;
      size_t Next = N < LPath.size() ? LPath[N].Index : LIndex;
      if (Prefix && !LoopBetween && W.Index < Next)
        Inits.push_back(&W);
      continue;
    }
    if (WPath[D].Branch != 2)
      return false;
    for (size_t I = D + 1; I < WPath.size(); ++I) {
      const ir::Stmt *G = WPath[I].S;
      if (G->K != ir::Stmt::If || WPath[I].Branch != 0 || !Conj.count(G->Cond))
        return false;
      Guards.insert(G);
    }
    size_t Top = (size_t)D + 1 < WPath.size() ? WPath[D + 1].Index : W.Index;
    FirstTop = std::min(FirstTop, Top);
    Inside.push_back(&W);
  }
  if (Inits.empty() || Inside.empty())
    return false;

  // Reads: inside L, and seeing the value of every lane that matters.
  for (const Site &R : Reads[V]) {
    std::vector<Anc> RPath = pathOf(R.Path);
    int D = depthOf(RPath, L);
    if (D < 0 || RPath[D].Branch != 2)
      return false;
    std::set<const ir::Stmt *> Under;
    for (size_t I = D + 1; I < RPath.size(); ++I)
      if (RPath[I].Branch == 0)
        Under.insert(RPath[I].S);
    bool AllGuards = true;
    for (const ir::Stmt *G : Guards)
      AllGuards &= Under.count(G) > 0;
    size_t Top = (size_t)D + 1 < RPath.size() ? RPath[D + 1].Index : R.Index;
    if (!AllGuards && Top >= FirstTop && !onlyFeedsCond(R.S->Dst, L))
      return false;
  }
  // The sets before L run for every lane that reaches L (no per-lane branch
  // lies between them and L that L is not also in).
  for (const Site *W : Inside)
    Out.insert(W->S);
  for (const Site *W : Inits)
    Out.insert(W->S);
  return true;
}

} // namespace

std::set<const ir::Stmt *> findLoopCounters(const ir::Function &F) {
  return Finder(F).run();
}

} // namespace batchdiff
