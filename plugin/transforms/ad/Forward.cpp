//===- Forward.cpp - forward-mode differentiation of the IR ---------------===//
//
// One sweep: every primal statement is copied as it is, and right after an
// instruction whose result is active comes the IR of its tangent, built by
// the same rules reverse mode uses (Rules.h). Variables and local arrays
// get tangent variables and arrays written where they are; branches and
// loops are copied with their conditions, so each example's tangent follows
// the path its primal took, and nothing is stored for later.
//
// Over a gradient (NAME_hvp) the same sweep runs over NAME_grad's IR: its
// reverse sweep is ordinary IR (the rules' operations, accumulations into
// adjoint variables, masks come later), so its tangents are built by the
// same rules, and the second derivatives of math functions are the
// derivatives of their first-derivative expressions. Values the gradient
// stores on a loop's tape get their tangents stored next to them (a slot
// more per active value): the tangent is computed in the forward sweep
// anyway, and recomputing it in the reverse sweep would mean re-running
// the loop.
//
//===----------------------------------------------------------------------===//
#include "transforms/ad/Forward.h"
#include "transforms/ad/Rules.h"
#include "transforms/ad/SelectChains.h"

#include <map>
#include <utility>

namespace batchdiff {
namespace {

using ir::Op;
using ir::Type;

class Forwarder {
public:
  Forwarder(const ir::Function &P, const Activity &A, ir::Function &F,
            bool OverGradient)
      : P(P), A(A), F(F), B(F, &F.Body), OverGrad(OverGradient),
        TanShadow(OverGradient ? 1 : 0) {}

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
      F.Vars[D].CountVar = P.Vars[V].CountVar;
    }
    return D;
  }
  void block(const ir::Block &Src);
  void inst(const ir::Stmt &S);
  void loadArg(const ir::Stmt &S);
  void storeArg(const ir::Stmt &S);
  void operation(const ir::Stmt &S);
  // Long chains of selects (SelectChains.h): the tangent of a linked
  // select's value, as a ZeroSelect of the chain's first tangent.
  SelectChains Chains;
  std::map<int, ZeroSelect> Known;
  bool selectChain(const ir::Stmt &S);
  void gradShadow(const ir::Stmt &S);
  void tape(const ir::Stmt &S);
  /// Appends what \p Body builds under `if (param Flag)`.
  template <typename BodyT> void under(int Flag, BodyT &&Body) {
    ir::Stmt &If = B.ifStmt(B.param(Flag));
    ir::Block *Saved = B.block();
    B.setBlock(&If.Then);
    Body();
    B.setBlock(Saved);
  }
  void outputs();

  const ir::Function &P;
  const Activity &A;
  ir::Function &F;
  ir::Builder B;
  bool OverGrad;
  uint8_t TanShadow; // which array of a parameter holds its tangent
  std::vector<int> DT, DV;
  std::vector<const ir::Stmt *> PDef; // each primal temp's definition
  // Over a gradient, per array parameter: flags `d_p != NULL` and
  // `h_p != NULL`; per tape slot of an active value: its tangent's slot
  // and the tangent temp stored there.
  std::vector<int> NeedD, NeedH;
  std::map<std::pair<int64_t, int>, std::pair<int, int>> TanSlot;
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
  ir::Stmt &Ld = B.push(Op::ShadowLoad, D, {Idx});
  Ld.IVal = S.IVal;
  Ld.Shadow = TanShadow;
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
  ir::Stmt &St = B.push(Op::ShadowStore, -1, {S.Args[0], T});
  St.IVal = S.IVal;
  St.Shadow = TanShadow;
  B.setBlock(Saved);
}

/// A gradient's access to its shadow array d_p: done only when d_p is
/// given (its need flag also covers h_p), and mirrored in h_p with the
/// tangent. A written array's d_p is an accumulator the gradient reads
/// back (the cotangent of an element, its seed plus what later reads of it
/// added): its tangent is read back from h_p, 0 where an array is NULL.
void Forwarder::gradShadow(const ir::Stmt &S) {
  int Pi = (int)S.IVal;
  Type Ty = P.Params[Pi].Ty;
  if (S.Opc == Op::ShadowLoad) {
    auto Load = [&](int Flag, uint8_t Which, const char *Nm) {
      int V = F.newVar(Nm + P.Params[Pi].Name + "_elem", Ty);
      B.set(V, B.constF(Ty, 0.0));
      under(Flag, [&] {
        int D = F.newTemp(Ty);
        ir::Stmt &Ld = B.push(Op::ShadowLoad, D, {S.Args[0]});
        Ld.IVal = Pi;
        Ld.Shadow = Which;
        B.set(V, D);
      });
      return V;
    };
    B.push(Op::GetVar, S.Dst, {}).Var = Load(NeedD[Pi], 0, "d_");
    if (act(S.Dst))
      DT[S.Dst] = B.get(Load(NeedH[Pi], 2, "h_"));
    return;
  }
  under(NeedD[Pi], [&] { B.block()->push_back(ir::cloneStmt(S)); });
  if (S.Opc == Op::ShadowAdd && !(act(S.Args[1]) && DT[S.Args[1]] >= 0))
    return;
  under(NeedH[Pi], [&] {
    ir::Stmt &T = B.push(S.Opc, -1, {S.Args[0], tangentOr0(S.Args[1], Ty)});
    T.IVal = Pi;
    T.Shadow = 2;
  });
}

/// A taped value's tangent goes on the same tape, in a slot of its own.
void Forwarder::tape(const ir::Stmt &S) {
  B.block()->push_back(ir::cloneStmt(S));
  std::pair<int64_t, int> Key{S.IVal, S.Var};
  if (S.Opc == Op::TapeStore) {
    int X = S.Args[1];
    if (!act(X))
      return;
    int T = tangentOr0(X, F.Temps[X]);
    auto It = TanSlot.find(Key);
    if (It == TanSlot.end())
      It = TanSlot.insert({Key, {F.TapeSlots[S.IVal]++, T}}).first;
    It->second.second = T;
    ir::Stmt &St = B.push(Op::TapeStore, -1, {S.Args[0], T});
    St.IVal = S.IVal;
    St.Var = It->second.first;
    return;
  }
  auto It = TanSlot.find(Key);
  if (!act(S.Dst) || It == TanSlot.end())
    return;
  int D = F.newTemp(F.Temps[S.Dst]);
  ir::Stmt &Ld = B.push(Op::TapeLoad, D, {S.Args[0]});
  Ld.IVal = S.IVal;
  Ld.Var = It->second.first;
  Ld.Aux = It->second.second;
  DT[S.Dst] = D;
}

/// The tangent of an arithmetic or math operation: the sum over its active
/// arguments of the rule with G = that argument's tangent, or the table's
/// pair rule where both arguments have tangents (a / b: one division).
void Forwarder::operation(const ir::Stmt &S) {
  int Sum = -1;
  // A gradient's `adjoint != 0 ? contribution : 0` (Reverse.cpp marks the
  // comparison): the contribution's tangent counts wherever the adjoint or
  // its tangent is nonzero; both are 0 only in lanes that never ran.
  int Cond = -1;
  if (OverGrad && S.Opc == Op::Select) {
    const ir::Stmt *C = PDef[S.Args[0]];
    const ir::Stmt *Rd =
        C && C->Opc == Op::CmpNE && C->IVal == 1 ? PDef[C->Args[0]] : nullptr;
    // The comparison reads the adjoint variable; that read itself feeds
    // nothing differentiable, so its tangent is read here.
    if (Rd && Rd->Opc == Op::GetVar && actV(Rd->Var)) {
      int A = B.get(tangentVar(Rd->Var));
      Cond = B.bin(Op::Or, S.Args[0],
                   B.cmp(Op::CmpNE, A, B.constF(F.Temps[A], 0.0)));
    }
  }
  if (S.Opc == Op::Select && Cond < 0 && Chains.Long.count(&S) &&
      selectChain(S))
    return;
  auto Val = [&](int T) { return T == S.Args[0] && Cond >= 0 ? Cond : T; };
  // (DivR's and DivX's third argument, the reciprocal, has no rule: the
  // pair rule is a / b's.)
  if ((S.Args.size() == 2 || S.Opc == Op::DivR || S.Opc == Op::DivX) &&
      act(S.Args[0]) && DT[S.Args[0]] >= 0 && act(S.Args[1]) &&
      DT[S.Args[1]] >= 0) {
    int T = tangentPairRule(B, S, DT[S.Args[0]], DT[S.Args[1]], Val);
    if (T >= 0) {
      DT[S.Dst] = T;
      return;
    }
  }
  for (unsigned K = 0; K < S.Args.size(); ++K) {
    int X = S.Args[K];
    if (!act(X) || DT[X] < 0)
      continue;
    int C = derivativeRule(B, S, K, DT[X], F.Temps[S.Dst], Val);
    // A zero direction adds nothing, also where the partial is not finite.
    if (C >= 0 && S.Opc == Op::Math && mathSteep(S.Fn))
      C = B.select(B.cmp(Op::CmpNE, DT[X], B.constF(F.Temps[DT[X]], 0.0)), C,
                   B.constF(F.Temps[C], 0.0));
    if (C >= 0)
      Sum = Sum < 0 ? C : B.add(Sum, C);
  }
  DT[S.Dst] = Sum;
}

/// A select of a long chain with one arm's tangent: the tangent of the
/// chain's first value where no condition passed so far zeroed it
/// (SelectChains.h), the same bits as the rule's `c ? 0 : t`.
bool Forwarder::selectChain(const ir::Stmt &S) {
  int Arm = -1;
  unsigned ArmK = 0;
  for (unsigned K = 1; K < 3; ++K)
    if (act(S.Args[K]) && DT[S.Args[K]] >= 0) {
      if (Arm >= 0)
        return false; // a sum of both arms' tangents: the rules
      Arm = S.Args[K];
      ArmK = K;
    }
  if (Arm < 0)
    return false;
  ZeroSelect Z;
  auto It = Known.find(Arm);
  if (It != Known.end()) {
    Z = It->second;
    Known.erase(It);
  } else {
    Z.V = DT[Arm];
  }
  zeroWhere(B, Z, S.Args[0], ArmK == 2);
  DT[S.Dst] = selectValue(B, Z);
  if (Chains.Linked.count(S.Dst))
    Known[S.Dst] = Z;
  return true;
}

void Forwarder::inst(const ir::Stmt &S) {
  bool ShadowOp = S.Opc == Op::ShadowLoad || S.Opc == Op::ShadowStore ||
                  S.Opc == Op::ShadowAdd;
  if (OverGrad && ShadowOp && S.Shadow == 0 && NeedD[S.IVal] >= 0)
    return gradShadow(S);
  if (S.Opc == Op::TapeStore || S.Opc == Op::TapeLoad)
    return tape(S);
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
      B.zeroArr(tangentVar(S.Var), S.Args.empty() ? -1 : S.Args[0]);
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
    if (S.Dst >= 0 && act(S.Dst)) {
      ir::Block *Into = B.block();
      size_t First = Into->size();
      operation(S);
      // Its divisions are a tangent's: ShareReciprocals.h may turn those
      // by one divisor into products by its reciprocal.
      for (size_t I = First; B.block() == Into && I < Into->size(); ++I)
        if ((*Into)[I]->K == ir::Stmt::Inst && (*Into)[I]->Opc == Op::Div)
          (*Into)[I]->IVal = 1;
    }
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
    C->Rare = S.Rare;
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
  F.Externs = P.Externs;
  F.TapeSlots = P.TapeSlots;
  F.RetTy = P.RetTy;
  F.RetCType = P.RetCType;
  F.RetNativeLayout = P.RetNativeLayout;
  F.RetDense = P.RetDense;
  DT.assign(P.Temps.size(), -1);
  DV.assign(P.Vars.size(), -1);
  PDef.assign(P.Temps.size(), nullptr);
  ir::walk(P.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Dst >= 0)
      PDef[S.Dst] = &S;
  });
  Chains = findSelectChains(P.Body, P.Temps, [this](int T) { return act(T); });
  TanParam.assign(P.Params.size(), -1);
  NeedParam.assign(P.Params.size(), -1);
  NeedD.assign(P.Params.size(), -1);
  NeedH.assign(P.Params.size(), -1);
  // A gradient's need flags: its work for p is needed for d_p or for h_p.
  if (OverGrad)
    for (ir::Param &Pa : F.Params)
      if (Pa.Kind == ir::ParamKind::Need)
        Pa.Shadows |= 4;
  auto AddParam = [&](ir::Param T) {
    F.Params.push_back(std::move(T));
    return (int)F.Params.size() - 1;
  };
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
    T.Shadows = uint8_t(1u << TanShadow);
    (Pa.IsArray ? NeedParam : TanParam)[I] = AddParam(T);
    if (!OverGrad || !Pa.IsArray)
      continue;
    T.Name = "need_d_" + Pa.Name;
    T.Shadows = 1;
    NeedD[I] = AddParam(T);
    T.Name = "need_h_" + Pa.Name;
    T.Shadows = 4;
    NeedH[I] = AddParam(T);
  }
  // Tangents of variables and local arrays start at zero.
  for (size_t V = 0; V < P.Vars.size(); ++V) {
    if (!actV((int)V))
      continue;
    // (A variable-length array's tangent is zeroed where it is declared.)
    if (P.Vars[V].CountVar >= 0)
      tangentVar((int)V);
    else if (P.Vars[V].Len > 0)
      B.zeroArr(tangentVar((int)V));
    else
      B.set(tangentVar((int)V), B.constF(P.Vars[V].Ty, 0.0));
  }
  if (OverGrad)
    return outputs();
  // The return value's tangent (of each floating member of a struct): its
  // variable's, or 0 when it has none.
  std::vector<ir::Output> TRets;
  for (const ir::Output &O : P.Outputs) {
    if (O.Kind != ir::OutKind::Ret)
      continue;
    Type Ty = O.Member.empty() ? P.RetTy : P.Vars[O.Var].Ty;
    if (!ir::isFloat(Ty)) // an integer status has no tangent
      continue;
    ir::Output T = O;
    T.Kind = ir::OutKind::Tangent;
    if (actV(O.Var)) {
      T.Var = tangentVar(O.Var);
    } else {
      T.Var = F.newVar("t_ret", Ty);
      B.set(T.Var, B.constF(Ty, 0.0));
    }
    TRets.push_back(T);
  }
  block(P.Body);
  F.Outputs = P.Outputs;
  for (const ir::Output &T : TRets)
    F.Outputs.push_back(T);
}

/// Over a gradient: its outputs, then each scalar gradient's tangent (0
/// for a gradient that does not depend on the direction).
void Forwarder::outputs() {
  std::vector<int> Hv;
  for (const ir::Output &O : P.Outputs) {
    if (O.Kind != ir::OutKind::ParamAdjoint) {
      Hv.push_back(-1);
      continue;
    }
    int V = actV(O.Var) ? tangentVar(O.Var) : -1;
    if (V < 0) {
      V = F.newVar("h_" + P.Params[O.Param].Name, P.Vars[O.Var].Ty);
      B.set(V, B.constF(P.Vars[O.Var].Ty, 0.0));
    }
    Hv.push_back(V);
  }
  block(P.Body);
  F.Outputs = P.Outputs;
  for (size_t I = 0; I < P.Outputs.size(); ++I)
    if (Hv[I] >= 0)
      F.Outputs.push_back({ir::OutKind::HvAdjoint, P.Outputs[I].Param, Hv[I]});
}

} // namespace

ir::Function differentiateForward(const ir::Function &Primal, const Activity &A,
                                  bool OverGradient) {
  ir::Function F;
  Forwarder Fw(Primal, A, F, OverGradient);
  Fw.run();
  return F;
}

} // namespace batchdiff
