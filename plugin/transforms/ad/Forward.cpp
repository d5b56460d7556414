//===- Forward.cpp - forward-mode differentiation of the IR ---------------===//
//
// One sweep: every primal statement is copied as it is, and right after an
// instruction whose result is active comes the IR of its tangent, built by
// the same rules reverse mode uses (Rules.h). Variables and local arrays
// get tangent variables and arrays written where they are; branches and
// loops are copied with their conditions, so each example's tangent follows
// the path its primal took, and nothing is stored for later.
//
//===----------------------------------------------------------------------===//
#include "transforms/ad/Forward.h"
#include "transforms/ad/Rules.h"

namespace batchdiff {
namespace {

using ir::Op;
using ir::Type;

class Forwarder {
public:
  Forwarder(const ir::Function &P, const Activity &A, ir::Function &F)
      : P(P), A(A), F(F), B(F, &F.Body) {}

  void run();

private:
  bool act(int T) const {
    return T >= 0 && T < (int)A.Temp.size() && A.Temp[T];
  }
  bool actV(int V) const { return V >= 0 && V < (int)A.Var.size() && A.Var[V]; }
  /// The tangent of primal temp \p T, a zero of type \p Ty if it has none.
  int tangentOr0(int T, Type Ty) {
    if (act(T) && DT[T] >= 0)
      return DT[T];
    return B.constF(Ty, 0.0);
  }
  int tangentVar(int V) {
    int &D = DV[V];
    if (D < 0) {
      D = F.newVar("t_" + P.Vars[V].Name, P.Vars[V].Ty);
      F.Vars[D].Len = P.Vars[V].Len;
    }
    return D;
  }
  void block(const ir::Block &Src);
  void inst(const ir::Stmt &S);
  void loadArg(const ir::Stmt &S);
  void storeArg(const ir::Stmt &S);
  void operation(const ir::Stmt &S);

  const ir::Function &P;
  const Activity &A;
  ir::Function &F;
  ir::Builder B;
  std::vector<int> DT, DV;
  // Per parameter: its Tangent parameter (scalars) or its Need flag (arrays).
  std::vector<int> TanParam, NeedParam;
};

/// An element of an array parameter: its tangent comes from the tangent
/// array, when the caller passed one (else 0).
void Forwarder::loadArg(const ir::Stmt &S) {
  int Idx = S.Args[0];
  Type Ty = F.Temps[S.Dst];
  int V = F.newVar("t_" + P.Params[S.IVal].Name + "_elem", Ty);
  B.set(V, B.constF(Ty, 0.0));
  ir::Stmt &If = B.ifStmt(B.param(NeedParam[S.IVal]));
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  int D = F.newTemp(Ty);
  B.push(Op::ShadowLoad, D, {Idx}).IVal = S.IVal;
  B.set(V, D);
  B.setBlock(Saved);
  DT[S.Dst] = B.get(V);
}

/// A store into an output array stores the value's tangent into the
/// tangent array at the same element (0 for a value without one).
void Forwarder::storeArg(const ir::Stmt &S) {
  Type Ty = P.Params[S.IVal].Ty;
  int T = tangentOr0(S.Args[1], Ty);
  ir::Stmt &If = B.ifStmt(B.param(NeedParam[S.IVal]));
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  B.push(Op::ShadowStore, -1, {S.Args[0], T}).IVal = S.IVal;
  B.setBlock(Saved);
}

/// The tangent of an arithmetic or math operation: the sum over its active
/// arguments of the rule with G = that argument's tangent.
void Forwarder::operation(const ir::Stmt &S) {
  int Sum = -1;
  for (unsigned K = 0; K < S.Args.size(); ++K) {
    int X = S.Args[K];
    if (!act(X) || DT[X] < 0)
      continue;
    int C =
        derivativeRule(B, S, K, DT[X], F.Temps[S.Dst], [](int T) { return T; });
    if (C >= 0)
      Sum = Sum < 0 ? C : B.add(Sum, C);
  }
  DT[S.Dst] = Sum;
}

void Forwarder::inst(const ir::Stmt &S) {
  B.block()->push_back(ir::cloneStmt(S));
  switch (S.Opc) {
  case Op::Param:
    if (act(S.Dst) && TanParam[S.IVal] >= 0)
      DT[S.Dst] = B.param(TanParam[S.IVal]);
    return;
  case Op::GetVar:
    if (act(S.Dst) && actV(S.Var))
      DT[S.Dst] = B.get(tangentVar(S.Var));
    return;
  case Op::SetVar:
    if (actV(S.Var))
      B.set(tangentVar(S.Var), tangentOr0(S.Args[0], P.Vars[S.Var].Ty));
    return;
  case Op::LoadElem:
    if (act(S.Dst) && actV(S.Var))
      DT[S.Dst] = B.loadElem(tangentVar(S.Var), S.Args[0]);
    return;
  case Op::StoreElem:
    // Also for an inactive value: the element's old tangent is gone.
    if (actV(S.Var))
      B.storeElem(tangentVar(S.Var), S.Args[0],
                  tangentOr0(S.Args[1], P.Vars[S.Var].Ty));
    return;
  case Op::ZeroArr:
    if (actV(S.Var))
      B.zeroArr(tangentVar(S.Var));
    return;
  case Op::LoadArg:
    if (act(S.Dst) && NeedParam[S.IVal] >= 0)
      loadArg(S);
    return;
  case Op::StoreArg:
    if (NeedParam[S.IVal] >= 0)
      storeArg(S);
    return;
  default:
    if (S.Dst >= 0 && act(S.Dst))
      operation(S);
    return;
  }
}

void Forwarder::block(const ir::Block &Src) {
  for (const auto &SP : Src) {
    const ir::Stmt &S = *SP;
    if (S.K == ir::Stmt::Inst) {
      inst(S);
      continue;
    }
    // Branches and loops keep their conditions (primal temps): the tangent
    // takes the primal's path.
    auto C = std::make_unique<ir::Stmt>();
    C->K = S.K;
    C->Cond = S.Cond;
    C->Id = S.Id;
    C->Args = S.Args;
    ir::Block *Saved = B.block();
    ir::Stmt &Ref = *C;
    Saved->push_back(std::move(C));
    B.setBlock(&Ref.Then);
    block(S.Then);
    B.setBlock(&Ref.Else);
    block(S.Else);
    B.setBlock(&Ref.Body);
    block(S.Body);
    B.setBlock(Saved);
  }
}

void Forwarder::run() {
  F.Name = P.Name;
  F.Params = P.Params;
  F.Temps = P.Temps;
  F.Vars = P.Vars;
  F.NumLoopIds = P.NumLoopIds;
  F.RetTy = P.RetTy;
  F.RetCType = P.RetCType;
  F.RetNativeLayout = P.RetNativeLayout;
  DT.assign(P.Temps.size(), -1);
  DV.assign(P.Vars.size(), -1);
  TanParam.assign(P.Params.size(), -1);
  NeedParam.assign(P.Params.size(), -1);
  for (size_t I = 0; I < P.Params.size(); ++I) {
    const ir::Param &Pa = P.Params[I];
    if (!isDifferentiable(Pa))
      continue;
    ir::Param T;
    T.Of = (int)I;
    T.Ty = Pa.IsArray ? Type::Bool : Pa.Ty;
    T.Kind = Pa.IsArray ? ir::ParamKind::Need : ir::ParamKind::Tangent;
    T.Name = (Pa.IsArray ? "need_t_" : "t_") + Pa.Name;
    T.Uniform = Pa.IsArray || Pa.Uniform;
    T.CType = Pa.IsArray ? "_Bool" : Pa.CType;
    F.Params.push_back(T);
    (Pa.IsArray ? NeedParam : TanParam)[I] = (int)F.Params.size() - 1;
  }
  // Tangents of variables and local arrays start at zero.
  for (size_t V = 0; V < P.Vars.size(); ++V) {
    if (!actV((int)V))
      continue;
    if (P.Vars[V].Len > 0)
      B.zeroArr(tangentVar((int)V));
    else
      B.set(tangentVar((int)V), B.constF(P.Vars[V].Ty, 0.0));
  }
  int RetVar = -1;
  for (const ir::Output &O : P.Outputs)
    if (O.Kind == ir::OutKind::Ret)
      RetVar = O.Var;
  // The return value's tangent: its variable's, or 0 when it has none.
  int TRet = -1;
  if (RetVar >= 0) {
    if (actV(RetVar)) {
      TRet = tangentVar(RetVar);
    } else {
      TRet = F.newVar("t_ret", P.RetTy);
      B.set(TRet, B.constF(P.RetTy, 0.0));
    }
  }
  block(P.Body);
  F.Outputs = P.Outputs;
  if (TRet >= 0)
    F.Outputs.push_back({ir::OutKind::Tangent, -1, TRet});
}

} // namespace

ir::Function differentiateForward(const ir::Function &Primal,
                                  const Activity &A) {
  ir::Function F;
  Forwarder Fw(Primal, A, F);
  Fw.run();
  return F;
}

} // namespace batchdiff
