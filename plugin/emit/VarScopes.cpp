//===- VarScopes.cpp - variables declared in the block that uses them -----===//
#include "emit/VarScopes.h"

#include <cstring>
#include <unordered_map>

namespace batchdiff {

namespace {

/// Where each block of a function sits: its enclosing block, the index there
/// of the statement that holds it, its depth, whether it runs at most once
/// per kernel call (no loop around it), and when a walk of the tree enters
/// and leaves it (so that `within` is a test, not a walk up a nest: 10,000
/// early returns nest 10,000 ifs).
struct BlockTree {
  struct Node {
    const ir::Block *Parent = nullptr;
    size_t At = 0;
    int Depth = 0;
    bool Once = true;
    size_t Enter = 0, Leave = 0;
  };
  std::unordered_map<const ir::Block *, Node> Nodes;
  size_t Clock = 0;

  void add(const ir::Block &B, const ir::Block *Parent, size_t At, bool Once) {
    Node &N = Nodes[&B];
    N.Parent = Parent;
    N.At = At;
    N.Depth = Parent ? Nodes[Parent].Depth + 1 : 0;
    N.Once = Once;
    N.Enter = Clock++;
    for (size_t I = 0; I < B.size(); ++I) {
      const ir::Stmt &S = *B[I];
      if (S.K == ir::Stmt::If) {
        add(S.Then, &B, I, Once);
        add(S.Else, &B, I, Once);
      } else if (S.K != ir::Stmt::Inst) {
        add(S.Body, &B, I, false);
      }
    }
    Nodes[&B].Leave = Clock++;
  }

  /// The innermost block holding both \p A and \p B: \p A or one around
  /// it (a block narrowed down access by access only climbs).
  const ir::Block *common(const ir::Block *A, const ir::Block *B) {
    while (A && !within(B, A))
      A = Nodes[A].Parent;
    return A;
  }

  /// Whether \p Inner is \p Outer or inside it.
  bool within(const ir::Block *Inner, const ir::Block *Outer) {
    const Node &I = Nodes[Inner], &O = Nodes[Outer];
    return O.Enter <= I.Enter && I.Leave <= O.Leave;
  }

  /// Whether statement \p At of block \p P runs before every entry into
  /// block \p R (P holds R, and the statement comes before R's).
  bool before(const ir::Block *P, size_t At, const ir::Block *R) {
    for (; R && Nodes[R].Parent; R = Nodes[R].Parent)
      if (Nodes[R].Parent == P)
        return At < Nodes[R].At;
    return false;
  }
};

bool access(const ir::Stmt &S, size_t N) {
  return S.K == ir::Stmt::Inst && S.Var >= 0 && (size_t)S.Var < N &&
         (S.Opc == ir::Op::GetVar || S.Opc == ir::Op::SetVar ||
          S.Opc == ir::Op::LoadElem || S.Opc == ir::Op::StoreElem ||
          S.Opc == ir::Op::ZeroArr);
}

/// An access and where it is.
struct Access {
  const ir::Stmt *S;
  const ir::Block *B;
  size_t At;
};

/// The bits of the constant temp \p T is (or broadcasts), if it is one.
bool constBits(const std::vector<const ir::Stmt *> &DefOf, int T,
               uint64_t &Bits) {
  const ir::Stmt *S = T >= 0 && (size_t)T < DefOf.size() ? DefOf[T] : nullptr;
  if (!S || S->K != ir::Stmt::Inst)
    return false;
  if (S->Opc == ir::Op::Splat)
    return constBits(DefOf, S->Args[0], Bits);
  if (S->Opc == ir::Op::ConstF) {
    std::memcpy(&Bits, &S->FVal, sizeof Bits);
    return true;
  }
  if (S->Opc == ir::Op::ConstI || S->Opc == ir::Op::ConstB) {
    Bits = (uint64_t)S->IVal;
    return true;
  }
  return false;
}

} // namespace

std::vector<VarScope> varScopes(const ir::Function &F,
                                std::unordered_set<const ir::Stmt *> &Dropped) {
  size_t N = F.Vars.size();
  std::vector<VarScope> R(N);
  std::vector<bool> Bad(N, false), Fixed(N, false);
  for (size_t V = 0; V < N; ++V)
    Fixed[V] = F.Vars[V].Len > 0;
  for (const ir::Output &O : F.Outputs)
    if (O.Var >= 0 && (size_t)O.Var < N)
      Fixed[O.Var] = true;
  for (size_t V = 0; V < N; ++V)
    Bad[V] = Fixed[V];
  // (Tape ops use Var for their slot.)
  // A top-level if's then block, with the value of the unmasked top-level
  // writes before it.
  for (const auto &SP : F.Body) {
    const ir::Stmt &S = *SP;
    if (S.K == ir::Stmt::Inst) {
      if (!access(S, N))
        continue;
      VarScope &VS = R[S.Var];
      if (S.Opc == ir::Op::SetVar && S.Mask < 0 && !VS.If)
        VS.Init = S.Args[0];
      else
        Bad[S.Var] = true;
      continue;
    }
    auto Mark = [&](const ir::Block &B, bool Then) {
      ir::walk(B, [&](const ir::Stmt &X, int) {
        if (!access(X, N))
          return;
        VarScope &VS = R[X.Var];
        if (!Then || (VS.If && VS.If != &S))
          Bad[X.Var] = true;
        VS.If = &S;
      });
    };
    Mark(S.Then, S.K == ir::Stmt::If);
    Mark(S.Else, false);
    Mark(S.Body, false);
  }

  // Else the innermost block that runs at most once per call and holds
  // every access but unmasked writes of one constant (a gradient's adjoints
  // are zeroed where its reverse sweep starts): the variable starts there
  // with that constant when such a write runs before every entry into the
  // block, or when the constant is the variable's initial zero.
  BlockTree T;
  T.add(F.Body, nullptr, 0, true);
  std::vector<const ir::Stmt *> DefOf(F.Temps.size(), nullptr);
  std::vector<std::vector<Access>> Acc(N);
  auto Visit = [&](const ir::Block &B, auto &Self) -> void {
    for (size_t I = 0; I < B.size(); ++I) {
      const ir::Stmt &S = *B[I];
      if (S.K == ir::Stmt::Inst && S.Dst >= 0 && (size_t)S.Dst < DefOf.size())
        DefOf[S.Dst] = &S;
      if (access(S, N) && !Fixed[S.Var])
        Acc[S.Var].push_back({&S, &B, I});
      Self(S.Then, Self);
      Self(S.Else, Self);
      Self(S.Body, Self);
    }
  };
  Visit(F.Body, Visit);
  for (size_t V = 0; V < N; ++V) {
    if (Fixed[V] || Acc[V].empty())
      continue;
    auto ConstWrite = [&](const Access &A, uint64_t &Bits) {
      return A.S->Opc == ir::Op::SetVar && A.S->Mask < 0 &&
             constBits(DefOf, A.S->Args[0], Bits);
    };
    const ir::Block *In = nullptr;
    for (const Access &A : Acc[V]) {
      uint64_t Bits;
      if (!ConstWrite(A, Bits))
        In = In ? T.common(In, A.B) : A.B;
    }
    while (In && !T.Nodes[In].Once)
      In = T.Nodes[In].Parent;
    if (!In || In == &F.Body)
      continue;
    // The writes outside: one constant, and where the block starts.
    bool Same = true, Dominates = false, Any = false;
    uint64_t C = 0;
    int Init = -1;
    for (const Access &A : Acc[V]) {
      if (T.within(A.B, In))
        continue;
      uint64_t Bits = 0;
      ConstWrite(A, Bits);
      if (Any && Bits != C)
        Same = false;
      C = Bits;
      Any = true;
      Init = A.S->Args[0];
      Dominates |= T.before(A.B, A.At, In);
    }
    if (!Same || (Any && !Dominates && C != 0))
      continue;
    R[V] = VarScope();
    R[V].In = In;
    R[V].Init = Any && Dominates ? Init : -1;
    for (const Access &A : Acc[V])
      if (!T.within(A.B, In))
        Dropped.insert(A.S);
  }
  // The old rule where the new one found no block.
  for (size_t V = 0; V < N; ++V) {
    if (R[V].In)
      continue;
    if (!Bad[V] && R[V].If && R[V].Init >= 0) {
      R[V].In = &R[V].If->Then;
      for (const auto &SP : F.Body)
        if (SP->K == ir::Stmt::Inst && SP->Opc == ir::Op::SetVar &&
            SP->Var == (int)V)
          Dropped.insert(SP.get());
      continue;
    }
    R[V] = VarScope();
  }
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (access(S, N) && (S.Opc == ir::Op::GetVar || S.Opc == ir::Op::LoadElem))
      R[S.Var].Read = true;
  });
  return R;
}

} // namespace batchdiff
