//===- Activity.cpp - which values carry derivatives ----------------------===//
#include "analysis/Activity.h"

#include <cmath>
#include <map>
#include <sstream>
#include <utility>

namespace batchdiff {

using ir::Op;

bool isDifferentiable(const ir::Param &P) {
  return P.Kind == ir::ParamKind::User && ir::isFloat(P.Ty) && !P.NoDiff;
}

/// Rounding functions pass no derivative (Math.def's Zero rows).
static bool zeroDerivative(const ir::Stmt &S) {
  return S.Opc == Op::Math && ir::mathDeriv(S.Fn) == ir::MathDeriv::Zero;
}

/// `a + C`, `C + a`, `a - C`, `C - a`, `a * b + C` with C a constant whose unit
/// in the last place is 1 (2^52 <= |C| < 2^53 in double, 2^23 <= |C| < 2^24 in
/// float): the shift trick, `kd = x * InvLn2 + 0x1.8p52; kd -= 0x1.8p52;`,
/// rounds to an integer as rint does (for |a| < 2^52), and passes no
/// derivative either. The addition's derivative, 1, made the gradient of
/// an exp written so 0 (`r = x - kd * Ln2` then has none).
bool roundsToInteger(const ir::Stmt &S, const ir::Function &F,
                     const std::vector<const ir::Stmt *> &Consts) {
  if (!ir::isFloat(F.Temps[S.Dst]))
    return false;
  double Lo = F.Temps[S.Dst] == ir::Type::F32 ? 0x1p23 : 0x1p52;
  auto Big = [&](int A) {
    const ir::Stmt *C = Consts[A];
    return C && std::fabs(C->FVal) >= Lo && std::fabs(C->FVal) < 2 * Lo;
  };
  if ((S.Opc == Op::Add || S.Opc == Op::Sub) && S.Args.size() == 2)
    return Big(S.Args[0]) || Big(S.Args[1]);
  // `x * InvLn2 + 0x1.8p52` contracted: the addend rounds the product.
  return S.Opc == Op::FMulAdd && S.Args.size() == 3 && Big(S.Args[2]);
}

std::vector<const ir::Stmt *> floatConstants(const ir::Function &F) {
  std::vector<const ir::Stmt *> Consts(F.Temps.size());
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Opc == Op::ConstF && S.Dst >= 0)
      Consts[S.Dst] = &S;
  });
  return Consts;
}

Activity analyzeActivity(const ir::Function &F, bool OfGradient) {
  std::vector<bool> Varied(F.Temps.size()), VarVaried(F.Vars.size());
  std::vector<bool> Useful(F.Temps.size()), VarUseful(F.Vars.size());
  // Tape slots (tape, slot) of a gradient's loops: varied / useful.
  std::map<std::pair<int64_t, int>, std::pair<bool, bool>> Slot;
  // Parameters whose gradient shadow accumulates varied values: reading it
  // back (a written array's cotangent) gives a varied value.
  std::vector<bool> ShadowVaried(F.Params.size());
  for (const ir::Output &O : F.Outputs)
    if (O.Kind == (OfGradient ? ir::OutKind::ParamAdjoint : ir::OutKind::Ret))
      VarUseful[O.Var] = true;
  bool Changed = true;
  auto Mark = [&](std::vector<bool> &V, int I) {
    if (I >= 0 && !V[I]) {
      V[I] = true;
      Changed = true;
    }
  };
  // A floating result depends on its floating arguments: variation flows
  // from them to it, usefulness from it back to them.
  auto FlowArgs = [&](const std::vector<int> &Args, int Dst) {
    for (int A : Args) {
      if (!ir::isFloat(F.Temps[A]))
        continue;
      if (Varied[A])
        Mark(Varied, Dst);
      if (Useful[Dst])
        Mark(Useful, A);
    }
  };
  // Variation flows forward and usefulness backward: visiting the
  // statements in both orders each round settles straight-line code in one
  // round, not one round per statement of a dependency chain (quadratic in
  // a long function, issue 8). The fixpoint is the same.
  std::vector<const ir::Stmt *> Insts;
  // Op::Extern by its result temp: what a call leaves in an out-pointer
  // (Op::ExternOut) depends on all its arguments.
  std::map<int, const ir::Stmt *> Calls;
  std::vector<const ir::Stmt *> Consts = floatConstants(F);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst)
      Insts.push_back(&S);
    if (S.K == ir::Stmt::Inst && S.Opc == Op::Extern)
      Calls[S.Dst] = &S;
  });
  auto Visit = [&](const ir::Stmt &S) {
    switch (S.Opc) {
    case Op::Param:
      if (isDifferentiable(F.Params[S.IVal]))
        Mark(Varied, S.Dst);
      return;
    case Op::GetVar:
    case Op::LoadElem:
      if (VarVaried[S.Var])
        Mark(Varied, S.Dst);
      if (Useful[S.Dst])
        Mark(VarUseful, S.Var);
      return;
    case Op::SetVar:
      if (Varied[S.Args[0]])
        Mark(VarVaried, S.Var);
      if (VarUseful[S.Var] && ir::isFloat(F.Temps[S.Args[0]]))
        Mark(Useful, S.Args[0]);
      return;
    case Op::StoreElem:
      if (Varied[S.Args[1]])
        Mark(VarVaried, S.Var);
      if (VarUseful[S.Var] && ir::isFloat(F.Temps[S.Args[1]]))
        Mark(Useful, S.Args[1]);
      return;
    case Op::ZeroArr:
      return;
    case Op::ExternOut: {
      // (A global read back after the call, ExternCall::Out::After, carries
      // no derivative, as the global does before it; nor does a batched
      // callee's partial derivative, Out::Partial.)
      auto It = Calls.find(S.Args[0]);
      // (Nor a partial from a per-lane call's NAME_grad, Out::GradOf, or a
      // member an Op::Tie after the call gives its derivative, Out::Tied.)
      if (It == Calls.end() || !ir::isFloat(F.Temps[S.Dst]))
        return;
      const ir::ExternCall::Out &O = F.Externs[It->second->IVal].Outs[S.IVal];
      if (O.After.empty() && O.Partial < 0 && O.GradOf == -2 && !O.Tied)
        FlowArgs(It->second->Args, S.Dst);
      return;
    }
    case Op::Extern: {
      // A batched callee's result gets its derivative from the Op::Tie
      // after it, but for its arguments of parameters without a partial
      // (BD_NODIFF ones: an error, lower/Definition.cpp).
      const ir::ExternCall &X = F.Externs[S.IVal];
      if (!X.Tied)
        break;
      if (!X.Batched) // (a per-lane call's: a partial in every argument)
        return;
      std::vector<int> NoPartial;
      // (Arguments past the parameters: globals passed to be read back,
      // lower/GlobalCalls.cpp.)
      for (size_t I = 0; I < X.Batched->Params.size(); ++I)
        if (!X.Batched->Params[I].Shadow)
          NoPartial.push_back(S.Args[I]);
      if (ir::isFloat(F.Temps[S.Dst]))
        FlowArgs(NoPartial, S.Dst);
      return;
    }
    case Op::ShadowAdd:
    case Op::ShadowStore:
      // A gradient's shadow array receives it: an output.
      if (ir::isFloat(F.Temps[S.Args[1]]))
        Mark(Useful, S.Args[1]);
      if (Varied[S.Args[1]] && !ShadowVaried[S.IVal])
        ShadowVaried[S.IVal] = Changed = true;
      return;
    case Op::ShadowLoad:
      if (ShadowVaried[S.IVal])
        Mark(Varied, S.Dst);
      return;
    case Op::TapeStore: {
      auto &SV = Slot[{S.IVal, S.Var}];
      if (Varied[S.Args[1]] && !SV.first)
        SV.first = Changed = true;
      if (SV.second && ir::isFloat(F.Temps[S.Args[1]]))
        Mark(Useful, S.Args[1]);
      return;
    }
    case Op::TapeLoad: {
      auto &SV = Slot[{S.IVal, S.Var}];
      if (SV.first)
        Mark(Varied, S.Dst);
      if (Useful[S.Dst] && !SV.second)
        SV.second = Changed = true;
      return;
    }
    case Op::LoadArg:
      if (isDifferentiable(F.Params[S.IVal]))
        Mark(Varied, S.Dst);
      return;
    case Op::StoreArg:
      // What an output array receives is an output of the function.
      if (isDifferentiable(F.Params[S.IVal]) && ir::isFloat(F.Temps[S.Args[1]]))
        Mark(Useful, S.Args[1]);
      return;
    default:
      break;
    }
    if (S.Dst >= 0 && ir::isFloat(F.Temps[S.Dst]) && !zeroDerivative(S) &&
        !roundsToInteger(S, F, Consts))
      FlowArgs(S.Args, S.Dst);
  };
  while (Changed) {
    Changed = false;
    for (const ir::Stmt *S : Insts)
      Visit(*S);
    for (auto It = Insts.rbegin(); It != Insts.rend(); ++It)
      Visit(**It);
  }
  Activity R;
  R.Temp.resize(F.Temps.size());
  R.Var.resize(F.Vars.size());
  for (size_t I = 0; I < F.Temps.size(); ++I)
    R.Temp[I] = Varied[I] && Useful[I];
  for (size_t I = 0; I < F.Vars.size(); ++I)
    R.Var[I] = VarVaried[I] && VarUseful[I];
  return R;
}

std::string Activity::print(const ir::Function &F) const {
  std::ostringstream OS;
  OS << "active temps:";
  for (size_t I = 0; I < Temp.size(); ++I)
    if (Temp[I])
      OS << " %" << I;
  OS << "\nactive vars:";
  for (size_t I = 0; I < Var.size(); ++I)
    if (Var[I])
      OS << " $" << I << "." << F.Vars[I].Name;
  OS << "\n";
  return OS.str();
}

} // namespace batchdiff
