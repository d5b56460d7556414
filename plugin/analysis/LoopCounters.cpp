//===- LoopCounters.cpp - loop variables the same on every running lane ---===//
#include "analysis/LoopCounters.h"

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

/// A read or write of a variable: the statement, its enclosing statements
/// (outermost first) and its index in its block.
struct Site {
  const ir::Stmt *S;
  std::vector<Anc> Path;
  size_t Index;
};

class Finder {
public:
  explicit Finder(const ir::Function &F)
      : F(F), Reads(F.Vars.size()), Writes(F.Vars.size()),
        Other(F.Vars.size(), false), Uses(F.Temps.size()),
        CondUses(F.Temps.size()), Def(F.Temps.size(), nullptr) {}

  std::set<const ir::Stmt *> run() {
    std::vector<Anc> Path;
    collect(F.Body, Path);
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
  void collect(const ir::Block &B, std::vector<Anc> &Path) {
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
      Path.push_back({&S, 0, I});
      collect(S.Then, Path);
      Path.back().Branch = 1;
      collect(S.Else, Path);
      Path.back().Branch = 2;
      collect(S.Body, Path);
      Path.pop_back();
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

  void counter(size_t V, std::set<const ir::Stmt *> &Out);

  const ir::Function &F;
  std::vector<std::vector<Site>> Reads, Writes;
  std::vector<bool> Other;
  std::vector<std::vector<const ir::Stmt *>> Uses, CondUses;
  std::vector<const ir::Stmt *> Def;
};

void Finder::counter(size_t V, std::set<const ir::Stmt *> &Out) {
  // L: the innermost loop around the first write inside a loop.
  const ir::Stmt *L = nullptr;
  std::vector<Anc> LPath;
  size_t LIndex = 0;
  for (const Site &W : Writes[V]) {
    for (size_t I = W.Path.size(); I-- > 0 && !L;)
      if (W.Path[I].S->K == ir::Stmt::Loop) {
        L = W.Path[I].S;
        LPath.assign(W.Path.begin(), W.Path.begin() + I);
        LIndex = W.Path[I].Index;
      }
    if (L)
      break;
  }
  if (!L || L->Cond < 0)
    return;
  std::set<int> Conj;
  conjuncts(L->Cond, Conj);

  // Writes inside L: under conjunct guards only; one before L outside it.
  std::vector<const Site *> Inside;
  std::set<const ir::Stmt *> Guards;
  std::vector<const Site *> Inits;
  size_t FirstTop = SIZE_MAX;
  for (const Site &W : Writes[V]) {
    int D = depthOf(W.Path, L);
    if (D < 0) {
      size_t N = W.Path.size();
      if (N > LPath.size())
        continue;
      bool Prefix = true, LoopBetween = false;
      for (size_t I = 0; I < N; ++I)
        Prefix &=
            W.Path[I].S == LPath[I].S && W.Path[I].Branch == LPath[I].Branch;
      for (size_t I = N; I < LPath.size(); ++I)
        LoopBetween |= LPath[I].S->K != ir::Stmt::If;
      size_t Next = N < LPath.size() ? LPath[N].Index : LIndex;
      if (Prefix && !LoopBetween && W.Index < Next)
        Inits.push_back(&W);
      continue;
    }
    if (W.Path[D].Branch != 2)
      return;
    for (size_t I = D + 1; I < W.Path.size(); ++I) {
      const ir::Stmt *G = W.Path[I].S;
      if (G->K != ir::Stmt::If || W.Path[I].Branch != 0 || !Conj.count(G->Cond))
        return;
      Guards.insert(G);
    }
    size_t Top = (size_t)D + 1 < W.Path.size() ? W.Path[D + 1].Index : W.Index;
    FirstTop = std::min(FirstTop, Top);
    Inside.push_back(&W);
  }
  if (Inits.empty() || Inside.empty())
    return;

  // Reads: inside L, and seeing the value of every lane that matters.
  for (const Site &R : Reads[V]) {
    int D = depthOf(R.Path, L);
    if (D < 0 || R.Path[D].Branch != 2)
      return;
    std::set<const ir::Stmt *> Under;
    for (size_t I = D + 1; I < R.Path.size(); ++I)
      if (R.Path[I].Branch == 0)
        Under.insert(R.Path[I].S);
    bool AllGuards = true;
    for (const ir::Stmt *G : Guards)
      AllGuards &= Under.count(G) > 0;
    size_t Top = (size_t)D + 1 < R.Path.size() ? R.Path[D + 1].Index : R.Index;
    if (!AllGuards && Top >= FirstTop && !onlyFeedsCond(R.S->Dst, L))
      return;
  }
  // The sets before L run for every lane that reaches L (no per-lane branch
  // lies between them and L that L is not also in).
  for (const Site *W : Inside)
    Out.insert(W->S);
  for (const Site *W : Inits)
    Out.insert(W->S);
}

} // namespace

std::set<const ir::Stmt *> findLoopCounters(const ir::Function &F) {
  return Finder(F).run();
}

} // namespace batchdiff
