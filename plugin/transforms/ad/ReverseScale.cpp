//===- ReverseScale.cpp - adjoints of a tiny or huge return value --------===//
// Reverser's seed scaling. The adjoint of an intermediate v is d out / d v,
// about out / v along products and quotients: a return value of 1e-166
// computed as pi / (z * s) with s ~ 1e164 (Cephes' gamma at -104) has
// adjoints below the smallest double (d out / d s ~ 1e-330) although
// every partial derivative of out in the parameters is about out itself.
// Reverse mode then gives 0, or a few bits from subnormals.
//
// Where |seed * out| is below 2^-50 (2^-30 for a float return value) and
// not 0, the sweep starts from the seed times 2^k, k chosen so that
// |seed * out| becomes about 1 (k >= 50: the adjoints only grow; k <= 1022,
// 126 for float, so that 2^-k is a normal number), and the parameters'
// adjoints are multiplied by 2^-k at the end (by 1 in the other lanes: a
// product costs less than a second lane test). Adjoints are
// linear in the seed and 2^k is exact: every lane whose adjoints stay
// normal both ways gets the same bits as without it; a lane whose unscaled
// adjoints underflow gets them right (rounded once where its gradient is
// subnormal). Scaled, an adjoint ~ 1 / v is normal for every v up to
// 2^1022 (Cephes' gamma near -143: pow ~ 2^1019; a target of 2^-30 lost
// bits there) and finite down to v = 2^-1023; what can overflow now is a
// relative sensitivity |d out / d x| / |out| above 2^1023, which takes a
// subnormal x (out = 1e20 * x at x = 1e-310).
//
// The mirror image, a huge value: where |seed * out| is above 2^511 (2^63
// for float) and finite, the seed is scaled down to |seed * out| ~ 4 and
// the adjoints up at the end. Unscaled, the adjoint of an intermediate
// within a few powers of two of out overflows though the gradient would not
// (Cephes' gamma at 171.2: out ~ 2^1020, d out / d(0.5 x - 0.25), the
// exponent of its halved pow, 2 out log x ~ 2^1024), and so does that of a
// tiny intermediate (1 / exp(-x) from x = 355: d out / d exp(-x) = -out^2);
// scaled, an adjoint ~ 4 / v is normal for every finite v and finite down
// to v = 2^-1021. Below 2^511 a huge value's intermediates have normal
// adjoints anyway (Cephes' gamma near 140: out ~ 2^795, pow ~ 2^992: 2^-197),
// and the branch stays rare.
//
// Only where a quotient divides by, or divides, what exp, pow, cosh, sinh,
// tgamma or their kin returned (dividesGrowth: Cephes' stirf): applied to
// every gradient, the test cost 4-22% of the time where it never scales
// (bench_grad, Zen 4: lognormal_nll 2.47 -> 2.94 ns, logistic_loss 1.03 ->
// 1.25), and none of those models has such a quotient. A tiny product of huge
// and tiny factors (pow(x, n) * exp(-x) at large x) is not covered. And only
// for a scalar float return value as the one seed, and differentiable
// parameters that are scalars of its type: an array's shadow takes its
// adjoints during the sweep, and 2^-k of a double need not be a float.
//
// Or, for a function without a floating return value, for values written
// through pointers (scalesOuts: out-parameters of one element and struct
// members, each accessed at index 0 only, GSL's `int f(double x,
// gsl_sf_result *r)`; the other differentiable parameters scalars of their
// type): k from the largest |cotangent * value| of them; the sweep reads
// and adds to a variable per output instead of its shadow, which starts as
// the shadow (the cotangent on entry) times 2^k and is written back times
// 2^-k after the sweep, with the scalars' adjoints (the gradient in the
// value before the call). (A variable, not the shadow scaled in place:
// examples may share a shadow, stride 0.) GSL's legendre_H3d_1_e at eta = 389
// had half its derivative: the adjoints of eta / sinh(eta) underflowed.
#include "transforms/ad/ReverseImpl.h"

#include <cmath>
#include <limits>
#include <optional>

namespace batchdiff {
namespace reverse {

namespace {
/// |seed * out| below 2^Low (and not 0) is scaled to about 2^To, above 2^High
/// (and finite) to about 2^HighTo: 2 keeps the scaled seed, about
/// 2^HighTo / out, a normal number for every finite out.
struct ScaleRange {
  int Low, To, Max; // Max: the largest k (2^-k normal)
  int High, HighTo;
};
ScaleRange scaleRange(Type T) {
  return T == Type::F32 ? ScaleRange{-30, 0, 126, 63, 2}
                        : ScaleRange{-50, 0, 1022, 511, 2};
}
} // namespace

/// Whether \p Primal divides by, or divides, what exp, exp2, exp10, expm1,
/// pow, sinh, cosh or tgamma returned (directly, or through a variable that
/// holds it): where a tiny value comes from huge intermediates
/// (`pow(x, x - 0.5) / exp(x)`, Cephes' stirf, then pi / (z * stirf(q))).
static bool dividesGrowth(const ir::Function &Primal) {
  auto Grows = [](ir::MathFn F) {
    switch (F) {
    case ir::MathFn::Exp:
    case ir::MathFn::Exp2:
    case ir::MathFn::Exp10:
    case ir::MathFn::Expm1:
    case ir::MathFn::Pow:
    case ir::MathFn::Sinh:
    case ir::MathFn::Cosh:
    case ir::MathFn::Tgamma:
      return true;
    default:
      return false;
    }
  };
  std::vector<bool> Temp(Primal.Temps.size()), Var(Primal.Vars.size());
  auto Mark = [&](auto &&Pred, std::vector<bool> &Set, auto &&Index) {
    ir::walk(Primal.Body, [&](const ir::Stmt &S, int) {
      if (S.K == ir::Stmt::Inst && Pred(S))
        Set[Index(S)] = true;
    });
  };
  auto Dst = [](const ir::Stmt &S) { return S.Dst; };
  Mark([&](const ir::Stmt &S) { return S.Opc == Op::Math && Grows(S.Fn); },
       Temp, Dst);
  Mark(
      [&](const ir::Stmt &S) {
        return S.Opc == Op::SetVar && S.Var >= 0 && !S.Args.empty() &&
               Temp[S.Args[0]];
      },
      Var, [](const ir::Stmt &S) { return S.Var; });
  Mark(
      [&](const ir::Stmt &S) {
        return S.Opc == Op::GetVar && S.Var >= 0 && Var[S.Var];
      },
      Temp, Dst);
  bool Found = false;
  ir::walk(Primal.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Opc == Op::Div)
      for (int A : S.Args)
        Found |= A >= 0 && Temp[A];
  });
  return Found;
}

bool Reverser::scalesSeed(int RetVar, int Seed) const {
  if (Seed < 0 || !actV(RetVar) || !ir::isFloat(P.RetTy) ||
      !G.Params[Seed].Member.empty())
    return false;
  int Rets = 0;
  for (const ir::Output &O : P.Outputs)
    Rets += O.Kind == ir::OutKind::Ret;
  if (Rets != 1)
    return false;
  for (const ir::Param &Q : P.Params)
    if (isDifferentiable(Q) && (Q.IsArray || Q.Ty != P.RetTy))
      return false;
  return dividesGrowth(P);
}

/// Whether |seed * out| \p Abs is tiny or huge (\p Huge: the latter).
static int scaleWhere(ir::Builder &B, Type T, int Abs, int &Huge) {
  ScaleRange SR = scaleRange(T);
  int Tiny = B.bin(Op::And,
                   B.cmp(Op::CmpLT, Abs, B.constF(T, std::ldexp(1.0, SR.Low))),
                   B.cmp(Op::CmpGT, Abs, B.constF(T, 0.0)));
  double Largest = T == Type::F32 ? (double)std::numeric_limits<float>::max()
                                  : std::numeric_limits<double>::max();
  Huge = B.bin(Op::And,
               B.cmp(Op::CmpGT, Abs, B.constF(T, std::ldexp(1.0, SR.High))),
               B.cmp(Op::CmpLE, Abs, B.constF(T, Largest)));
  return B.bin(Op::Or, Tiny, Huge);
}

/// k = To - ilogb|seed * out|, at most Max: 2^-k stays a normal number
/// (HighTo where it is huge: k < 0, 2^-k at most 2^(Max - 1)).
static int scaleExponent(ir::Builder &B, Type T, int Abs, int Huge) {
  ScaleRange SR = scaleRange(T);
  int To = B.select(Huge, B.constI(Type::I32, SR.HighTo),
                    B.constI(Type::I32, SR.To));
  int K = B.bin(Op::Sub, To, B.math(ir::MathFn::Ilogb, {Abs}));
  int Max = B.constI(Type::I32, SR.Max);
  return B.select(B.cmp(Op::CmpGT, K, Max), Max, K);
}

/// The seed, times 2^k in the lanes whose |seed * out| is tiny or huge (k < 0
/// there); sets SeedVar (the result) and Unscale (2^-k, 1 elsewhere).
int Reverser::scaledSeed(int RetVar, int Seed) {
  Type T = P.RetTy;
  int S = B.param(Seed);
  int Abs = B.math(ir::MathFn::Fabs, {B.mul(S, B.get(RetVar))});
  int Huge;
  int On = scaleWhere(B, T, Abs, Huge);
  SeedVar = G.newVar("seed", T);
  Unscale = G.newVar("seed_unscale", T);
  B.set(SeedVar, S);
  B.set(Unscale, B.constF(T, 1.0));
  ir::Stmt &If = B.ifStmt(On);
  If.Rare = true;
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  int K = scaleExponent(B, T, Abs, Huge);
  B.set(SeedVar, B.math(ir::MathFn::Scalbn, {S, K}));
  B.set(Unscale,
        B.math(ir::MathFn::Scalbn,
               {B.constF(T, 1.0), B.bin(Op::Sub, B.constI(Type::I32, 0), K)}));
  B.setBlock(Saved);
  return B.get(SeedVar);
}

bool Reverser::scalesOuts(std::vector<int> &Outs) const {
  // (A floating return value is scalesSeed's.)
  for (const ir::Output &O : P.Outputs)
    if (O.Kind == ir::OutKind::Ret &&
        ir::isFloat(O.Member.empty() ? P.RetTy : P.Vars[O.Var].Ty))
      return false;
  if (NeedParam.empty())
    return false;
  // Each element read or written at index 0 only (one per example), and
  // written: its shadow holds the cotangent of the value written.
  std::vector<bool> Zero(P.Temps.size()), Other(P.Params.size()),
      Stored(P.Params.size());
  ir::walk(P.Body, [&](const ir::Stmt &S, int) {
    if (S.K != ir::Stmt::Inst)
      return;
    if (S.Opc == Op::ConstI && S.Dst >= 0 && S.IVal == 0)
      Zero[S.Dst] = true;
    if ((S.Opc == Op::LoadArg || S.Opc == Op::StoreArg) && S.IVal >= 0 &&
        S.IVal < (int64_t)P.Params.size()) {
      Other[S.IVal] = Other[S.IVal] || !Zero[S.Args[0]];
      if (S.Opc == Op::StoreArg)
        Stored[S.IVal] = true;
    }
  });
  std::optional<Type> T;
  for (size_t I = 0; I < P.Params.size(); ++I) {
    const ir::Param &Q = P.Params[I];
    if (!isDifferentiable(Q) || !Q.IsArray)
      continue;
    // (An input array's shadow is the caller's sum: not scaled in place.)
    if (Other[I] || !Stored[I] || NeedParam[I] < 0 || (T && *T != Q.Ty))
      return false;
    T = Q.Ty;
    Outs.push_back((int)I);
  }
  for (const ir::Param &Q : P.Params)
    if (isDifferentiable(Q) && !Q.IsArray && (!T || Q.Ty != *T))
      return false;
  return T && dividesGrowth(P);
}

/// Each of the ScaledOuts' cotangents (its shadow, where it has one; else
/// 0) into its OutShadow variable; where the largest |cotangent * value|
/// (the value the forward sweep wrote) is tiny or huge, those times 2^k,
/// and Unscale = 2^-k (1 elsewhere).
void Reverser::scaleOutSeeds() {
  Type T = P.Params[ScaledOuts[0]].Ty;
  int Zero = B.constI(Type::I32, 0);
  int MaxVar = G.newVar("seed_max", T);
  B.set(MaxVar, B.constF(T, 0.0));
  for (int I : ScaledOuts) {
    int Var = G.newVar("seed_" + P.Params[I].Name, T);
    OutShadow[I] = Var;
    B.set(Var, B.constF(T, 0.0));
    ir::Stmt &If = B.ifStmt(B.param(NeedParam[I]));
    ir::Block *Saved = B.block();
    B.setBlock(&If.Then);
    int V = G.newTemp(T), S = G.newTemp(T);
    B.push(Op::LoadArg, V, {Zero}).IVal = I;
    B.push(Op::ShadowLoad, S, {Zero}).IVal = I;
    B.set(Var, S);
    int Abs = B.math(ir::MathFn::Fabs, {B.mul(S, V)});
    B.set(MaxVar, B.math(ir::MathFn::Fmax, {B.get(MaxVar), Abs}));
    B.setBlock(Saved);
  }
  int Abs = B.get(MaxVar);
  int Huge;
  int On = scaleWhere(B, T, Abs, Huge);
  Unscale = G.newVar("seed_unscale", T);
  B.set(Unscale, B.constF(T, 1.0));
  ir::Stmt &If = B.ifStmt(On);
  If.Rare = true;
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  int K = scaleExponent(B, T, Abs, Huge);
  B.set(Unscale,
        B.math(ir::MathFn::Scalbn,
               {B.constF(T, 1.0), B.bin(Op::Sub, B.constI(Type::I32, 0), K)}));
  for (int I : ScaledOuts)
    B.set(OutShadow[I], B.math(ir::MathFn::Scalbn, {B.get(OutShadow[I]), K}));
  B.setBlock(Saved);
}

/// The ScaledOuts' shadows: what the sweep left in their variables (the
/// gradient in each value before the call), times 2^-k.
void Reverser::unscaleOuts() {
  if (OutShadow.empty())
    return;
  int Zero = B.constI(Type::I32, 0), U = B.get(Unscale);
  for (auto [I, Var] : OutShadow) {
    ir::Stmt &If = B.ifStmt(B.param(NeedParam[I]));
    ir::Block *Saved = B.block();
    B.setBlock(&If.Then);
    B.push(Op::ShadowStore, -1, {Zero, B.mul(B.get(Var), U)}).IVal = I;
    B.setBlock(Saved);
  }
}

/// The parameters' adjoints times 2^-k (1 where the seed was not scaled:
/// a product, cheaper than a second lane test).
void Reverser::unscaleAdjoints() {
  if (Unscale < 0)
    return;
  int U = B.get(Unscale);
  for (int D : DP)
    if (D >= 0)
      B.set(D, B.mul(B.get(D), U));
}

} // namespace reverse
} // namespace batchdiff
