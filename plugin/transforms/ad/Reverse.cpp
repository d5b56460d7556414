//===- Reverse.cpp - reverse-mode differentiation of the IR ---------------===//
#include "transforms/ad/Reverse.h"

#include <cassert>
#include <map>

namespace batchdiff {
namespace {

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
    if (V < 0)
      V = G.newVar("d_" + G.Vars[X].Name, G.Vars[X].Ty);
    return V;
  }
  void accumVar(int V, int C) { B.set(V, B.add(B.get(V), C)); }
  void computeDeps();
  uint64_t instDeps(const ir::Stmt &S) const;
  void guard(uint64_t Mask);
  void closeGuard();
  void reverseBlock(const ir::Block &Blk);
  void reverseInst(const ir::Stmt &S);
  int rule(const ir::Stmt &S, unsigned K, int Gt);

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
  ir::Block *Top = nullptr;
};

void Reverser::computeDeps() {
  DepT.assign(P.Temps.size(), 0);
  DepV.assign(P.Vars.size(), 0);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    ir::walk(P.Body, [&](const ir::Stmt &S, int) {
      if (S.K != ir::Stmt::Inst)
        return;
      uint64_t D = 0;
      if (S.Opc == Op::Param) {
        if (S.IVal < 64 && isDifferentiable(P.Params[S.IVal]))
          D = uint64_t(1) << S.IVal;
      } else if (S.Opc == Op::GetVar) {
        D = DepV[S.Var];
      } else {
        for (int A : S.Args)
          D |= DepT[A];
      }
      if (S.Opc == Op::SetVar) {
        if ((DepV[S.Var] | D) != DepV[S.Var]) {
          DepV[S.Var] |= D;
          Changed = true;
        }
        return;
      }
      if ((DepT[S.Dst] | D) != DepT[S.Dst]) {
        DepT[S.Dst] |= D;
        Changed = true;
      }
    });
  }
}

uint64_t Reverser::instDeps(const ir::Stmt &S) const {
  if (S.Opc == Op::SetVar)
    return DepV[S.Var];
  return S.Dst >= 0 ? DepT[S.Dst] : 0;
}

void Reverser::closeGuard() {
  if (!GuardOuter)
    return;
  if (GuardOuter->back()->Then.empty())
    GuardOuter->pop_back();
  B.setBlock(GuardOuter);
  GuardOuter = nullptr;
  GuardMask = 0;
}

/// Adjoint work for values that only feed some parameters runs under
/// `if (need_a || need_b)`; a NULL shadow switches its work off.
void Reverser::guard(uint64_t Mask) {
  if (Mask == GuardMask && GuardOuter)
    return;
  closeGuard();
  if (!Mask || NeedParam.empty())
    return;
  auto It = NeedTemp.find(Mask);
  int C;
  if (It != NeedTemp.end()) {
    C = It->second;
  } else {
    ir::Block *Saved = B.block();
    B.setBlock(Top);
    int Acc = -1;
    for (size_t I = 0; I < NeedParam.size(); ++I)
      if (NeedParam[I] >= 0 && (Mask >> I & 1)) {
        int N = B.param(NeedParam[I]);
        Acc = Acc < 0 ? N : B.bin(Op::Or, Acc, N);
      }
    C = Acc;
    NeedTemp[Mask] = C;
    B.setBlock(Saved);
  }
  GuardOuter = B.block();
  GuardMask = Mask;
  ir::Stmt &If = B.ifStmt(C);
  B.setBlock(&If.Then);
}

int Reverser::rule(const ir::Stmt &S, unsigned K, int Gt) {
  Type Ty = G.Temps[S.Dst];
  bool IsMath = S.Opc == Op::Math;
  int X0 = S.Args.size() > 0 ? S.Args[0] : -1;
  int X1 = S.Args.size() > 1 ? S.Args[1] : -1;
  int Y = S.Dst;
  (void)X1;
  (void)Y;
#define G Gt
#define C(V) B.constF(Ty, V)
#define ZERO B.constF(Ty, 0.0)
#define ADD(L, R) B.add(L, R)
#define SUB(L, R) B.sub(L, R)
#define MUL(L, R) B.mul(L, R)
#define DIV(L, R) B.div(L, R)
#define NEG(X) B.neg(X)
#define SEL(Cnd, L, R) B.select(Cnd, L, R)
#define CMP(O, L, R) B.cmp(Op::O, L, R)
#define CAST_TO(X, V) B.cast(B.func().Temps[X], V)
#define MATH(Fn, ...) B.math(ir::MathFn::Fn, {__VA_ARGS__})
#define BD_OP_DERIV(O, I, E)                                                   \
  if (!IsMath && S.Opc == Op::O && K == I)                                     \
    return E;
#define BD_MATH_DERIV(MF, I, E)                                                \
  if (IsMath && S.Fn == ir::MathFn::MF && K == I)                              \
    return E;
#include "transforms/ad/Derivatives.def"
#undef G
#undef C
#undef ZERO
#undef ADD
#undef SUB
#undef MUL
#undef DIV
#undef NEG
#undef SEL
#undef CMP
#undef CAST_TO
#undef MATH
  return -1;
}

void Reverser::reverseInst(const ir::Stmt &S) {
  switch (S.Opc) {
  case Op::SetVar: {
    if (!A.Var[S.Var])
      return;
    int DVv = adjVar(S.Var);
    int Arg = S.Args[0];
    if (A.Temp[Arg])
      accumVar(adjTemp(Arg), B.get(DVv));
    B.set(DVv, B.constF(G.Vars[S.Var].Ty, 0.0));
    return;
  }
  case Op::GetVar:
    if (A.Temp[S.Dst])
      accumVar(adjVar(S.Var), B.get(adjTemp(S.Dst)));
    return;
  case Op::Param:
    if (A.Temp[S.Dst] && DP[S.IVal] >= 0)
      accumVar(DP[S.IVal], B.get(adjTemp(S.Dst)));
    return;
  default:
    break;
  }
  if (S.Dst < 0 || !A.Temp[S.Dst])
    return;
  int Gt = -1;
  for (unsigned K = 0; K < S.Args.size(); ++K) {
    if (!A.Temp[S.Args[K]])
      continue;
    if (Gt < 0)
      Gt = B.get(adjTemp(S.Dst));
    int C = rule(S, K, Gt);
    if (C >= 0)
      accumVar(adjTemp(S.Args[K]), C);
  }
}

void Reverser::reverseBlock(const ir::Block &Blk) {
  for (auto It = Blk.rbegin(); It != Blk.rend(); ++It) {
    const ir::Stmt &S = **It;
    if (S.K != ir::Stmt::Inst)
      closeGuard();
    switch (S.K) {
    case ir::Stmt::Inst:
      guard(instDeps(S));
      reverseInst(S);
      break;
    case ir::Stmt::If: {
      ir::Stmt &If = B.ifStmt(S.Cond);
      ir::Block *Saved = B.block();
      B.setBlock(&If.Then);
      reverseBlock(S.Then);
      B.setBlock(&If.Else);
      reverseBlock(S.Else);
      B.setBlock(Saved);
      if (If.Then.empty() && If.Else.empty())
        Saved->pop_back();
      break;
    }
    case ir::Stmt::Loop:
      assert(false && "loops are rejected by lowering");
      break;
    }
  }
  closeGuard();
}

void Reverser::run() {
  G.Name = P.Name;
  G.Params = P.Params;
  G.Temps = P.Temps;
  G.Vars = P.Vars;
  G.RetTy = P.RetTy;
  G.RetCType = P.RetCType;
  G.RetNativeLayout = P.RetNativeLayout;
  G.Body = ir::cloneBlock(P.Body);
  DT.assign(P.Temps.size(), -1);
  DV.assign(P.Vars.size(), -1);
  DP.assign(P.Params.size(), -1);

  int RetVar = -1;
  for (const ir::Output &O : P.Outputs)
    if (O.Kind == ir::OutKind::Ret)
      RetVar = O.Var;
  int Seed = -1;
  if (RetVar >= 0) {
    ir::Param SP;
    SP.Name = "d_ret";
    SP.Ty = P.RetTy;
    SP.Kind = ir::ParamKind::Seed;
    SP.CType = P.RetCType;
    SP.NativeLayout = P.RetNativeLayout;
    G.Params.push_back(SP);
    Seed = (int)G.Params.size() - 1;
  }
  computeDeps();
  NeedParam.assign(P.Params.size(), -1);
  bool Guards = P.Params.size() <= 64;
  for (size_t I = 0; Guards && I < P.Params.size(); ++I)
    if (isDifferentiable(P.Params[I])) {
      ir::Param NP;
      NP.Name = "need_" + P.Params[I].Name;
      NP.Ty = Type::Bool;
      NP.Kind = ir::ParamKind::Need;
      NP.Uniform = true;
      NP.Of = (int)I;
      G.Params.push_back(NP);
      NeedParam[I] = (int)G.Params.size() - 1;
    }
  if (!Guards)
    NeedParam.clear();
  // Adjoints start at zero; the return value's adjoint starts at the seed.
  for (size_t I = 0; I < P.Params.size(); ++I)
    if (isDifferentiable(P.Params[I])) {
      DP[I] = G.newVar("d_" + P.Params[I].Name, P.Params[I].Ty);
      B.set(DP[I], B.constF(P.Params[I].Ty, 0.0));
    }
  for (size_t T = 0; T < P.Temps.size(); ++T)
    if (A.Temp[T])
      B.set(adjTemp(T), B.constF(P.Temps[T], 0.0));
  for (size_t V = 0; V < P.Vars.size(); ++V)
    if (A.Var[V])
      B.set(adjVar(V), B.constF(P.Vars[V].Ty, 0.0));
  if (RetVar >= 0 && A.Var[RetVar])
    B.set(adjVar(RetVar), B.param(Seed));

  // Guard conditions are computed once, here, before the reverse sweep.
  B.ifStmt(-1);
  Top = &G.Body.back()->Then;
  size_t HolderIdx = G.Body.size() - 1;
  ir::Block Sweep;
  B.setBlock(&Sweep);
  reverseBlock(P.Body);
  // Splice: needs computations, then the sweep, replace the placeholder.
  ir::Block Needs = std::move(G.Body[HolderIdx]->Then);
  G.Body.erase(G.Body.begin() + HolderIdx);
  for (auto &St : Needs)
    G.Body.push_back(std::move(St));
  for (auto &St : Sweep)
    G.Body.push_back(std::move(St));
  B.setBlock(&G.Body);

  if (RetVar >= 0)
    G.Outputs.push_back({ir::OutKind::Ret, -1, RetVar});
  for (size_t I = 0; I < P.Params.size(); ++I)
    if (DP[I] >= 0)
      G.Outputs.push_back({ir::OutKind::ParamAdjoint, (int)I, DP[I]});
}

} // namespace

ir::Function differentiate(const ir::Function &Primal, const Activity &A) {
  ir::Function G;
  Reverser R(Primal, A, G);
  R.run();
  return G;
}

} // namespace batchdiff
