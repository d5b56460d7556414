//===- LaneGrad.cpp - derivatives of per-lane calls through NAME_grad ----===//
//
// A function of another file marked diff where this file declares it, called
// with a struct (GSL's `stat = gsl_sf_exp_e(x, &r)` with a local
// gsl_sf_result r, or `return gsl_sf_exp_e(x, result);`), is called once per
// example on the scalar function (calls of outside functions, docs/calls.md),
// which gives the values bit for bit. Its file has NAME_grad, which gives the
// partial derivatives: where the function is differentiated, each lane that
// makes the call also calls NAME_grad(1, ...) with the same arguments, once
// for each output whose partials are read (the result if it is floating, each
// floating member of a struct it may write), seeded 1 in that output; the
// shadows are the partials in each floating number argument and in each
// floating member's value before the call (the struct's shadow on exit). An
// Op::Tie after the call gives each output its derivative from them, as for
// a scalar call of another file's batch function (LowerBatchedCall.cpp).
// A pointer to a scalar (`gsl_sf_bessel_J_CF1(nu, x, &ratio, &sgn)`) is
// passed as a struct of one member: NAME_grad takes it by a pointer and a
// stride, with a shadow if it is floating, as it takes a struct.
//
//===----------------------------------------------------------------------===//
#include "attributes/Attributes.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"

namespace batchdiff {
namespace lowering {

using ir::Type;

bool Lowerer::laneGradCallee(const CallExpr *CE,
                             const FunctionDecl *Callee) const {
  if (!WantGrad || !hasDiff(Callee) || hasHvpDiff(Top))
    return false;
  const FunctionDecl *Def = Callee->getDefinition();
  const SourceManager &SM = Ctx.getSourceManager();
  if ((Def && Def->hasBody()) || !Callee->isExternallyVisible() ||
      !Callee->hasPrototype() || Callee->isVariadic() ||
      Callee->getBuiltinID() || SM.isInSystemHeader(Callee->getLocation()))
    return false;
  // (Void: its outputs are its array and pointer parameters'.)
  QualType RT = Callee->getReturnType();
  if (!RT->isVoidType() && (!irType(RT) || *irType(RT) == Type::Bool))
    return false;
  // (One value per example and a shadow per floating parameter: the ABI
  // the generated NAME_grad has for varying, differentiated parameters.)
  for (const ParmVarDecl *P : Callee->parameters())
    if (isUniform(P) || isNoDiff(P) || isPackedOffsets(P) ||
        isPackedPointers(P))
      return false;
  // Each argument one it takes (laneKind).
  ir::ExternCall X;
  std::vector<int> Args;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    LaneKind K;
    if (I >= Callee->getNumParams() ||
        !laneKind(CE->getArg(I), Callee->getParamDecl(I), X, Args, K))
      return false;
  }
  return true;
}

bool Lowerer::laneKind(const Expr *A, const ParmVarDecl *P,
                       const ir::ExternCall &X, const std::vector<int> &Args,
                       LaneKind &K) const {
  if (structOutArg(A) || laneScalarOut(A, P))
    K.Struct = (int)X.Structs.size();
  // A local array or a struct's array member, whole, a row or at an
  // offset: its copy, once arrayOutRef has passed it.
  // The function's own array parameter with a derivative: likewise.
  else if (arrayOutArg(A) >= 0 || memberOutArg(A) || paramCopyArg(A, P) >= 0)
    K.Struct = -2;
  else if (!irType(A->getType()))
    return false;
  else
    K.Arg = (int)Args.size();
  return true;
}

bool Lowerer::laneScalarOut(const Expr *A, const ParmVarDecl *P) const {
  const VarDecl *VD = outPointerArg(A);
  // (`&astrom->em`: a scalar member, as eraApcs passes it to eraPn.)
  const MemberExpr *ME = VD ? nullptr : memberScalarArg(A);
  if (!VD && !ME && !scalarPointerArg(A))
    return false;
  if (ME && ME->getType().isConstQualified())
    return false;
  // (The parameter points to the scalar's type, which NAME_grad takes by
  // a pointer and a stride; `&v` of a const v only to a pointer to const.)
  QualType Arg = A->getType()->getPointeeType();
  QualType Par = P->getType()->isPointerType() ? P->getType()->getPointeeType()
                                               : QualType();
  return !Par.isNull() && !Par.isVolatileQualified() &&
         (Par.isConstQualified() ||
          !(VD && VD->getType().isConstQualified())) &&
         Ctx.hasSameUnqualifiedType(Arg, Par);
}

bool Lowerer::laneScalarOutPass(const Expr *A, const std::string &Callee,
                                ir::ExternCall &X, std::vector<int> &Args,
                                std::vector<ExternOutArg> &Outs) {
  size_t At = X.Call.size();
  int O = (int)X.Outs.size();
  if (const MemberExpr *ME = memberScalarArg(A)) {
    bool Const = A->getType()->getPointeeType().isConstQualified();
    LValue L = lvalue(ME, Const ? "reading" : "writing");
    if (!L.ok() || !externOutArg(A, L, memberText(ME), ME->getType(), Const,
                                 Callee, X, Args, Outs))
      return false;
  } else if (!externPointerArg(A, Callee, X, Args, Outs))
    return false;
  // A pointer to const (the argument's type is the parameter's): only read,
  // nothing stored back (`&v` of a v that is not const would be).
  if (A->getType()->getPointeeType().isConstQualified())
    Outs.back().Const = true;
  // ("\x08k\x02", the address of struct k, for "\x03O\x02": emitted as a
  // struct is, `T __bd_sk; ... __bd_sk = __bd_oO;`, read back after.)
  X.Call.resize(At);
  X.Call += "\x08" + std::to_string(X.Structs.size()) + "\x02";
  ir::ExternCall::Struct St;
  St.CType = X.Outs[O].CType;
  St.Members.push_back({"", O});
  X.Structs.push_back(std::move(St));
  return true;
}

bool Lowerer::laneGrad(const CallExpr *CE, const FunctionDecl *Callee,
                       ir::ExternCall &X, const std::vector<int> &Args,
                       const std::vector<LaneKind> &Kinds,
                       std::map<size_t, std::vector<LaneTie>> &Ties,
                       std::vector<LaneTie> &RetTies) {
  ir::ExternCall::LaneGrad G;
  G.Abi = abiDeclaration(Callee, true);
  QualType RT = Callee->getReturnType();
  G.FloatRet = !RT->isVoidType() && ir::isFloat(*irType(RT));
  auto Spell = [&](QualType T) {
    return T.getCanonicalType().getUnqualifiedType().getAsString(
        Ctx.getPrintingPolicy());
  };
  // One array passed twice (`rxp(r, q, q)`) where the callee may write it:
  // NAME_grad takes its parameters apart, which is the call's function
  // where the callee's file promises it (lower/InPlace.h) for the same
  // elements through parameters of one type: the last one that may write
  // them is written, the others only read (Aliased).
  std::vector<bool> Aliased(Kinds.size());
  if (!inPlaceGroups(CE, Callee, X, Kinds, Aliased, G.InPlace))
    return false;
  struct Input {
    int Arg;
    std::string From, CType;
  };
  std::vector<Input> Ins;
  std::vector<int> OutsOf; // outputs: member Outs (the result: -1)
  if (G.FloatRet)
    OutsOf.push_back(-1);
  for (unsigned I = 0; I < Kinds.size(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    ir::ExternCall::LaneGrad::Param GP;
    std::string N = std::to_string(I);
    if (Kinds[I].Arg >= 0) {
      GP.Arg = Kinds[I].Arg;
      GP.CType = Spell(P->getType());
      std::optional<Type> PT = irType(P->getType());
      GP.Shadow = PT && ir::isFloat(*PT);
      if (GP.Shadow && ir::isFloat(F.Temps[Args[GP.Arg]]))
        Ins.push_back({GP.Arg, "__bd_gx" + N, GP.CType});
    } else {
      GP.Struct = Kinds[I].Struct;
      const ir::ExternCall::Struct &St = X.Structs[GP.Struct];
      GP.CType = St.CType;
      GP.Const = P->getType()->getPointeeType().isConstQualified();
      GP.Aliased = Aliased[I];
      if (St.Len) { // (an array: `const double r[3][3]`'s elements)
        GP.Len = St.Len;
        GP.Off = Kinds[I].Off;
        GP.Const = Ctx.getBaseElementType(P->getType()->getPointeeType())
                       .isConstQualified();
      }
      for (const auto &[Path, O] : St.Members) {
        const ir::ExternCall::Out &Mem = X.Outs[O];
        if (!ir::isFloat(F.Temps[Args[Mem.Arg]]))
          continue;
        GP.Shadow = true;
        Ins.push_back({Mem.Arg, "__bd_gd" + N + Path, Mem.CType});
        if (!GP.Const && !Aliased[I])
          OutsOf.push_back(O);
      }
    }
    G.Params.push_back(GP);
  }
  for (int Of : OutsOf) {
    if (Of >= 0)
      X.Outs[Of].Tied = true;
    for (const Input &In : Ins) {
      ir::ExternCall::Out P;
      P.Arg = In.Arg;
      P.GradOf = Of;
      P.GradFrom = In.From;
      P.CType = In.CType;
      LaneTie T{Args[In.Arg], (int)X.Outs.size()};
      (Of < 0 ? RetTies : Ties[(size_t)Of]).push_back(T);
      X.Outs.push_back(std::move(P));
    }
  }
  X.Tied = !RetTies.empty();
  X.Grad = std::move(G);
  return true;
}

int Lowerer::laneTie(int Call, int V, const std::vector<LaneTie> &Ties) {
  if (Ties.empty())
    return V;
  std::vector<int> Args{V};
  for (const LaneTie &T : Ties) {
    int P = F.newTemp(F.Temps[T.In]);
    ir::Stmt &S = B.push(ir::Op::ExternOut, P, {Call});
    S.IVal = T.Out;
    Args.push_back(T.In);
    Args.push_back(P);
  }
  int R = F.newTemp(F.Temps[V]);
  B.push(ir::Op::Tie, R, Args);
  return R;
}

} // namespace lowering
} // namespace batchdiff
