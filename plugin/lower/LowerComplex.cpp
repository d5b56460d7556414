//===- LowerComplex.cpp - double complex and float complex locals ---------===//
//
// A complex local is two variables, its real and imaginary part; a
// complex-valued expression is two temps, computed operation for operation
// as clang's CGExprComplex computes it (clang 19), so the batched values are
// the scalar function's bits and the derivatives come from the real
// operations:
//
// - `x + z`, `x * z` with a real operand x: clang leaves x's imaginary part
//   out (not a zero): `x * z` is (x re, x im), `x - z` is (x - re, -im);
// - `z * w`: the naive product, and where both of its parts are NaN what
//   libgcc's __muldc3 (__mulsc3) returns, C Annex G's recovery of
//   infinities, computed in the IR (not under -fcx-limited-range,
//   -fcx-fortran-rules or -ffast-math, where clang does not call it);
// - `z / x` by a real x: each part divided; by a complex value (also
//   `x / z`), what libgcc's __divdc3 (__divsc3) computes, which clang calls
//   (LowerComplexDiv.cpp; an error under -fcx-limited-range and the like);
// - creal, cimag, conj, `__real__`, `__imag__`, `~z`: the parts; cabs(z) is
//   hypot(re, im) and carg(z) atan2(im, re), as in glibc, with the
//   runtime's hypot and atan2 (their bounds, docs/runtime.md);
// - `z == w`: both parts equal; `z != w`, `if (z)`: either differs;
// - `++z`, `z--`: +-1 added to the real part;
// - cexp, clog, csqrt: glibc's formulas (LowerComplexMath.cpp);
// - a helper's complex parameters and return value: pairs of variables
//   (complexParam, complexReturn; inlineBody sets CallComplex).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerComplexDiv.h"
#include "lower/LowerComplexMath.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ScopeExit.h"

#include <cmath>

namespace batchdiff {
namespace lowering {

namespace {

/// The IR type of complex type \p T's parts, if float or double.
std::optional<Type> partType(QualType T) {
  const auto *CT = T->getAs<ComplexType>();
  if (!CT)
    return std::nullopt;
  auto IT = irType(CT->getElementType());
  if (!IT || !ir::isFloat(*IT))
    return std::nullopt;
  return IT;
}

const char *const WhatWorks =
    "use double complex or float complex locals and +, -, *, /, ==, !=, "
    "creal, cimag, conj, cabs, carg, cexp, clog, csqrt";

} // namespace

std::string Lowerer::complexLibrary(const CallExpr *CE) const {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return "";
  const FunctionDecl *Def = Callee->getDefinition();
  const SourceManager &SM = Ctx.getSourceManager();
  if (Def && !SM.isInSystemHeader(Def->getLocation()))
    return "";
  // (A function of this file or another, declared here: a helper.)
  if (!Def && !Callee->getBuiltinID() &&
      !SM.isInSystemHeader(Callee->getLocation()))
    return "";
  llvm::StringRef N = Callee->getName();
  N.consume_front("__builtin_");
  return N.str();
}

bool Lowerer::complexDecl(const VarDecl *VD) {
  QualType T = VD->getType();
  if (!T->isAnyComplexType())
    return false;
  auto PT = partType(T);
  if (!PT) {
    error(VD->getLocation(),
          "local variable '" + VD->getNameAsString() + "' of type '" +
              T.getAsString() + "'",
          "use double complex or float complex locals");
    return true;
  }
  CVal Init;
  if (const Expr *I = VD->getInit()) {
    if (!complexValue(I, Init))
      return true;
    Init = complexConvert(Init, *PT);
    if (Init.Im < 0)
      Init.Im = zeroOf(*PT);
  } else {
    Init = {zeroOf(*PT), zeroOf(*PT), *PT};
  }
  std::string N = VD->getNameAsString();
  int Re = F.newVar(N + "_re", *PT), Im = F.newVar(N + "_im", *PT);
  ComplexVars[{Frames.size(), VD}] = {Re, Im};
  B.set(Re, Init.Re);
  B.set(Im, Init.Im);
  return true;
}

Lowerer::CVal Lowerer::complexConvert(const CVal &V, Type To) {
  CVal R;
  R.Ty = To;
  R.Re = B.cast(To, V.Re);
  R.Im = V.Im < 0 ? -1 : B.cast(To, V.Im);
  return R;
}

bool Lowerer::complexValue(const Expr *E, CVal &Out) {
  if (Failed || tooDeep(E->getBeginLoc()))
    return false;
  ++Depth;
  auto Leave = llvm::make_scope_exit([&] { --Depth; });
  E = E->IgnoreParens();
  Where = E;
  QualType T = E->getType();
  if (!T->isAnyComplexType()) { // a real operand
    int R = expr(E);
    if (R < 0)
      return false;
    if (!ir::isFloat(F.Temps[R])) {
      error(E->getBeginLoc(), "an integer operand of a complex operator",
            "convert it to double");
      return false;
    }
    Out = {R, -1, F.Temps[R]};
    return true;
  }
  auto PT = partType(T);
  if (!PT) {
    if (const auto *CE = dyn_cast<CastExpr>(E))
      error(CE->getBeginLoc(),
            describeConversion(CE->getSubExpr()->getType(), T),
            "use conversions between arithmetic types");
    else
      error(E->getBeginLoc(), "a value of type '" + T.getAsString() + "'",
            WhatWorks);
    return false;
  }
  Out.Ty = *PT;
  if (const auto *IL = dyn_cast<ImaginaryLiteral>(E)) {
    Expr::EvalResult R;
    if (IL->getSubExpr()->EvaluateAsRValue(R, Ctx)) {
      double V = R.Val.isFloat() ? R.Val.getFloat().convertToDouble()
                 : R.Val.isInt() ? (double)R.Val.getInt().getSExtValue()
                                 : NAN;
      if (!std::isnan(V)) {
        Out = {B.constF(*PT, 0.0), B.constF(*PT, V), *PT};
        return true;
      }
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    CVal V;
    switch (UO->getOpcode()) {
    case UO_Extension:
    case UO_Plus:
      return complexValue(UO->getSubExpr(), Out) &&
             (Out = complexConvert(Out, *PT), true);
    case UO_Minus:
    case UO_Not: // GNU: ~z is conj(z)
      if (!complexValue(UO->getSubExpr(), V))
        return false;
      V = complexConvert(V, *PT);
      Out.Re = UO->getOpcode() == UO_Minus ? B.neg(V.Re) : V.Re;
      Out.Im = B.neg(V.Im);
      return true;
    case UO_PreInc:
    case UO_PostInc:
    case UO_PreDec:
    case UO_PostDec:
      return complexIncDec(UO, Out);
    default:
      error(UO->getOperatorLoc(),
            "'" + UnaryOperator::getOpcodeStr(UO->getOpcode()).str() +
                "' of a complex value",
            WhatWorks);
      return false;
    }
  }
  if (isa<DeclRefExpr>(E))
    return complexRef(E, Out);
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return complexCast(CE, Out);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return complexBinary(BO, Out);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return complexChoice(CO, Out);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return complexCall(CE, Out);
  error(E->getBeginLoc(), describeExpr(E) + " of complex type", WhatWorks);
  return false;
}

const std::pair<int, int> *Lowerer::complexVars(const Expr *E,
                                                const VarDecl **Decl) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (Decl)
    *Decl = VD;
  auto It = VD ? ComplexVars.find({Frames.size(), VD}) : ComplexVars.end();
  return It == ComplexVars.end() ? nullptr : &It->second;
}

bool Lowerer::complexRef(const Expr *E, CVal &Out) {
  const VarDecl *VD;
  if (const auto *V = complexVars(E, &VD)) {
    Out.Re = B.get(V->first);
    Out.Im = B.get(V->second);
    Out.Ty = F.Temps[Out.Re];
    return true;
  }
  if (VD && Poisoned.count(VD)) {
    fail(); // its declaration's error is reported
    return false;
  }
  error(E->getBeginLoc(),
        VD ? "complex " +
                 std::string(isa<ParmVarDecl>(VD)     ? "parameter '"
                             : VD->hasGlobalStorage() ? "global '"
                                                      : "variable '") +
                 VD->getNameAsString() + "'"
           : describeExpr(E) + " of complex type",
        "pass and keep complex numbers as their real and imaginary parts "
        "(two doubles), and use double complex or float complex locals");
  return false;
}

bool Lowerer::complexCast(const CastExpr *CE, CVal &Out) {
  const Expr *Sub = CE->getSubExpr();
  Type PT = *partType(CE->getType());
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    return complexValue(Sub, Out);
  case CK_FloatingRealToComplex: {
    // CodeGen converts the real value to the part type, imaginary part 0.
    int R = expr(Sub);
    if (R < 0)
      return false;
    Out = {B.cast(PT, R), zeroOf(PT), PT};
    return true;
  }
  case CK_FloatingComplexCast:
    if (!complexValue(Sub, Out))
      return false;
    Out = complexConvert(Out, PT);
    return true;
  default:
    error(CE->getBeginLoc(), describeConversion(Sub->getType(), CE->getType()),
          "use conversions between float, double and their complex types");
    return false;
  }
}

bool Lowerer::complexBinary(const BinaryOperator *BO, CVal &Out) {
  BinaryOperatorKind K = BO->getOpcode();
  if (const auto *CAO = dyn_cast<CompoundAssignOperator>(BO))
    return complexAssign(CAO, BinaryOperator::getOpForCompoundAssignment(K),
                         CAO->getComputationLHSType(), Out);
  if (K == BO_Assign)
    return complexAssign(BO, BO_Assign, QualType(), Out);
  if (K == BO_Comma) {
    if (expr(BO->getLHS()) < 0)
      return false;
    return complexValue(BO->getRHS(), Out);
  }
  if (K != BO_Add && K != BO_Sub && K != BO_Mul && K != BO_Div) {
    error(BO->getOperatorLoc(),
          "'" + BO->getOpcodeStr().str() + "' of complex values", WhatWorks);
    return false;
  }
  Type PT = *partType(BO->getType());
  CVal L, R;
  if (!complexValue(BO->getLHS(), L) || !complexValue(BO->getRHS(), R))
    return false;
  return complexArith(K, complexConvert(L, PT), complexConvert(R, PT), BO, Out);
}

bool Lowerer::complexAssign(const BinaryOperator *BO, BinaryOperatorKind Op,
                            QualType CompTy, CVal &Out) {
  const Expr *LHS = BO->getLHS(), *RHS = BO->getRHS();
  const auto *Vars = complexVars(LHS);
  if (!Vars) {
    CVal Unused;
    if (LHS->getType()->isAnyComplexType() && !complexRef(LHS, Unused))
      return false;
    error(LHS->getBeginLoc(), "writing this complex value", WhatWorks);
    return false;
  }
  auto [ReV, ImV] = *Vars;
  Type LT = F.Vars[ReV].Ty;
  // As CodeGen: the right side first, then the left side's parts.
  CVal R;
  if (!complexValue(RHS, R))
    return false;
  CVal V;
  if (Op == BO_Assign) {
    V = complexConvert(R, LT);
  } else {
    Type CT = *partType(CompTy);
    CVal L{B.get(ReV), B.get(ImV), LT};
    if (!complexArith(Op, complexConvert(L, CT), complexConvert(R, CT), BO, V))
      return false;
    V = complexConvert(V, LT);
  }
  if (V.Im < 0)
    V.Im = zeroOf(LT);
  B.set(ReV, V.Re);
  B.set(ImV, V.Im);
  Out = V;
  return true;
}

bool Lowerer::complexArith(BinaryOperatorKind Op, const CVal &L, const CVal &R,
                           const Expr *At, CVal &Out) {
  Out.Ty = L.Ty;
  bool Both = L.Im >= 0 && R.Im >= 0;
  // -fcx-limited-range, -fcx-fortran-rules, -ffast-math: clang calls no
  // library function for * and /.
  LangOptions::ComplexRangeKind Range = Ctx.getLangOpts().getComplexRange();
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(At))
    Range = BO->getFPFeaturesInEffect(Ctx.getLangOpts()).getComplexRange();
  bool NoLibcall = Range == LangOptions::CX_Basic ||
                   Range == LangOptions::CX_Improved ||
                   Range == LangOptions::CX_Promoted;
  switch (Op) {
  case BO_Add:
    Out.Re = B.add(L.Re, R.Re);
    Out.Im = Both ? B.add(L.Im, R.Im) : L.Im >= 0 ? L.Im : R.Im;
    return true;
  case BO_Sub:
    Out.Re = B.sub(L.Re, R.Re);
    Out.Im = Both ? B.sub(L.Im, R.Im) : L.Im >= 0 ? L.Im : B.neg(R.Im);
    return true;
  case BO_Mul: {
    if (!Both) {
      Out.Re = B.mul(L.Re, R.Re);
      Out.Im = L.Im >= 0 ? B.mul(L.Im, R.Re) : B.mul(L.Re, R.Im);
      return true;
    }
    if (NoLibcall) {
      Out.Re = B.sub(B.mul(L.Re, R.Re), B.mul(L.Im, R.Im));
      Out.Im = B.add(B.mul(L.Re, R.Im), B.mul(L.Im, R.Re));
      return true;
    }
    Out = complexMul(L, R);
    return true;
  }
  case BO_Div:
    if (R.Im < 0) {
      Out.Re = B.div(L.Re, R.Re);
      Out.Im = B.div(L.Im, R.Re);
      return true;
    }
    if (NoLibcall) {
      error(At ? At->getExprLoc() : SourceLocation(),
            "division by a complex value under -fcx-limited-range, "
            "-fcx-fortran-rules or -ffast-math",
            "compile without them (clang then divides in libgcc's __divdc3, "
            "which the batched code computes), or divide by a real number");
      return false;
    }
    std::tie(Out.Re, Out.Im) = complexQuotient(
        B, L.Ty, L.Re, L.Im < 0 ? zeroOf(L.Ty) : L.Im, R.Re, R.Im);
    return true;
  default:
    return false;
  }
}

Lowerer::CVal Lowerer::complexMul(const CVal &L, const CVal &R) {
  Type T = L.Ty;
  int A = L.Re, Bi = L.Im, C = R.Re, D = R.Im;
  int AC = B.mul(A, C), BD = B.mul(Bi, D), AD = B.mul(A, D), BC = B.mul(Bi, C);
  int X = B.sub(AC, BD), Y = B.add(AD, BC);
  RareParts RP(B, T, "__cmul", X, Y);
  RP.openBothNan();
  auto IsNan = [&](int V) { return B.cmp(Op::CmpNE, V, V); };
  // libgcc2.c's __muldc3, branch-free: "box" an infinite factor (its
  // infinite parts to +-1, finite ones to +-0) and change NaNs in the
  // other to 0; else, where a product overflowed, change every NaN to 0;
  // then recompute each part times infinity.
  int Zero = B.constF(T, 0.0), One = B.constF(T, 1.0),
      Inf = B.constF(T, INFINITY);
  auto IsInf = [&](int V) {
    return B.cmp(Op::CmpEQ, B.math(ir::MathFn::Fabs, {V}), Inf);
  };
  auto Box = [&](int When, int V) {
    int Boxed =
        B.math(ir::MathFn::Copysign, {B.select(IsInf(V), One, Zero), V});
    return B.select(When, Boxed, V);
  };
  auto Zap = [&](int When, int V) {
    return B.select(B.bin(Op::And, When, IsNan(V)),
                    B.math(ir::MathFn::Copysign, {Zero, V}), V);
  };
  int ZInf = B.bin(Op::Or, IsInf(A), IsInf(Bi));
  A = Box(ZInf, A);
  Bi = Box(ZInf, Bi);
  C = Zap(ZInf, C);
  D = Zap(ZInf, D);
  int WInf = B.bin(Op::Or, IsInf(C), IsInf(D));
  C = Box(WInf, C);
  D = Box(WInf, D);
  A = Zap(WInf, A);
  Bi = Zap(WInf, Bi);
  int Recalc = B.bin(Op::Or, ZInf, WInf);
  int Ovf = B.bin(Op::And, B.un(Op::Not, Recalc),
                  B.bin(Op::Or, B.bin(Op::Or, IsInf(AC), IsInf(BD)),
                        B.bin(Op::Or, IsInf(AD), IsInf(BC))));
  A = Zap(Ovf, A);
  Bi = Zap(Ovf, Bi);
  C = Zap(Ovf, C);
  D = Zap(Ovf, D);
  Recalc = B.bin(Op::Or, Recalc, Ovf);
  int NX = B.mul(Inf, B.sub(B.mul(A, C), B.mul(Bi, D)));
  int NY = B.mul(Inf, B.add(B.mul(A, D), B.mul(Bi, C)));
  auto [Re, Im] = RP.close(B.select(Recalc, NX, X), B.select(Recalc, NY, Y));
  return {Re, Im, T};
}

bool Lowerer::complexIncDec(const UnaryOperator *UO, CVal &Out) {
  // CodeGen adds +-1 to the real part and keeps the imaginary part; the
  // value is the new one (prefix) or the old one (postfix).
  const auto *Vars = complexVars(UO->getSubExpr());
  if (!Vars) {
    CVal Unused;
    if (complexRef(UO->getSubExpr(), Unused))
      error(UO->getOperatorLoc(), "writing this complex value", WhatWorks);
    return false;
  }
  auto [ReV, ImV] = *Vars;
  Type T = F.Vars[ReV].Ty;
  CVal Old{B.get(ReV), B.get(ImV), T};
  bool Inc = UO->isIncrementOp();
  int New = B.add(Old.Re, B.constF(T, Inc ? 1.0 : -1.0));
  B.set(ReV, New);
  Out = Old;
  if (UO->isPrefix())
    Out.Re = New;
  return true;
}

void Lowerer::complexParam(const ParmVarDecl *P, std::pair<int, int> Arg) {
  Type PT = *partType(P->getType());
  CVal V = complexConvert({Arg.first, Arg.second, F.Temps[Arg.first]}, PT);
  std::string N = P->getNameAsString();
  int Re = F.newVar(N + "_re", PT), Im = F.newVar(N + "_im", PT);
  // (Its body runs in the frame pushed next, one deeper.)
  ComplexVars[{Frames.size() + 1, P}] = {Re, Im};
  B.set(Re, V.Re);
  B.set(Im, V.Im);
}

bool Lowerer::complexReturn(const Expr *V, std::pair<int, int> Vars) {
  CVal R;
  if (!complexValue(V, R))
    return false;
  Type PT = F.Vars[Vars.first].Ty;
  R = complexConvert(R, PT);
  B.set(Vars.first, R.Re);
  B.set(Vars.second, R.Im < 0 ? zeroOf(PT) : R.Im);
  return true;
}

bool Lowerer::complexChoice(const ConditionalOperator *CO, CVal &Out) {
  Type PT = *partType(CO->getType());
  int C = cond(CO->getCond());
  if (C < 0)
    return false;
  int ReV = F.newVar("__cond_re", PT), ImV = F.newVar("__cond_im", PT);
  ir::Stmt &If = B.ifStmt(C);
  ir::Block *Saved = B.block();
  bool Ok = true;
  for (int Side = 0; Side < 2 && Ok; ++Side) {
    B.setBlock(Side == 0 ? &If.Then : &If.Else);
    CVal V;
    Ok = complexValue(Side == 0 ? CO->getTrueExpr() : CO->getFalseExpr(), V);
    if (Ok) {
      V = complexConvert(V, PT);
      B.set(ReV, V.Re);
      B.set(ImV, V.Im < 0 ? zeroOf(PT) : V.Im);
    }
  }
  B.setBlock(Saved);
  if (!Ok)
    return false;
  Out = {B.get(ReV), B.get(ImV), PT};
  return true;
}

bool Lowerer::complexCall(const CallExpr *CE, CVal &Out) {
  std::string N = complexLibrary(CE);
  Type PT = *partType(CE->getType());
  if ((N == "conj" || N == "conjf") && CE->getNumArgs() == 1) {
    CVal V;
    if (!complexValue(CE->getArg(0), V))
      return false;
    V = complexConvert(V, PT);
    Out = {V.Re, B.neg(V.Im), PT};
    return true;
  }
  if (N == "complex" && CE->getNumArgs() == 2) { // CMPLX(x, y)
    int Re = expr(CE->getArg(0)), Im = expr(CE->getArg(1));
    if (Re < 0 || Im < 0)
      return false;
    Out = {B.cast(PT, Re), B.cast(PT, Im), PT};
    return true;
  }
  if (N.empty()) { // a helper: inlined (inlineBody sets CallComplex)
    CallComplex = {};
    if (call(CE) < 0)
      return false;
    if (CallComplex.Re < 0) {
      error(CE->getBeginLoc(),
            "this call of a function returning a complex value",
            "call a helper of this file that returns it by name (it is "
            "inlined), or return its real and imaginary parts");
      return false;
    }
    Out = complexConvert(CallComplex, PT);
    return true;
  }
  llvm::StringRef S(N);
  S.consume_back("f");
  if ((S == "cexp" || S == "clog" || S == "csqrt") && CE->getNumArgs() == 1) {
    if (!CE->getDirectCallee()->getDefinition())
      LibraryCalls.push_back(
          {CE->getDirectCallee()->getCanonicalDecl(), CE->getBeginLoc()});
    CVal V;
    if (!complexValue(CE->getArg(0), V))
      return false;
    V = complexConvert(V, PT);
    int Im = V.Im < 0 ? zeroOf(PT) : V.Im;
    auto Fn = S == "cexp" ? complexExp : S == "clog" ? complexLog : complexSqrt;
    std::tie(Out.Re, Out.Im) = Fn(B, PT, V.Re, Im);
    Out.Ty = PT;
    return true;
  }
  error(CE->getBeginLoc(), "the complex function '" + N + "'",
        "it has no batched version yet: compute it from the parts with real "
        "math; " +
            std::string(WhatWorks));
  return false;
}

bool Lowerer::complexScalar(const Expr *E, int &Out) {
  E = E->IgnoreParens();
  CVal V;
  if (E->getType()->isAnyComplexType()) { // its side effects only
    Out = complexValue(E, V) ? B.constB(false) : -1;
    return true;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (CE->getNumArgs() != 1 || !CE->getArg(0)->getType()->isAnyComplexType())
      return false;
    std::string N = complexLibrary(CE);
    llvm::StringRef S(N);
    S.consume_back("f");
    if (S != "creal" && S != "cimag" && S != "cabs" && S != "carg")
      return false;
    if (!CE->getDirectCallee()->getDefinition())
      LibraryCalls.push_back(
          {CE->getDirectCallee()->getCanonicalDecl(), CE->getBeginLoc()});
    if (!complexValue(CE->getArg(0), V)) {
      Out = -1;
      return true;
    }
    if (S == "creal" || S == "cimag") {
      Out = S == "creal" ? V.Re : V.Im;
    } else {
      Out = S == "cabs" ? B.math(ir::MathFn::Hypot, {V.Re, V.Im})
                        : B.math(ir::MathFn::Atan2, {V.Im, V.Re});
      B.block()->back()->Site = (int)Sites.size();
      Sites.push_back(CE->getBeginLoc());
    }
    Out = B.cast(*irType(E->getType()), Out);
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if ((UO->getOpcode() != UO_Real && UO->getOpcode() != UO_Imag) ||
        !UO->getSubExpr()->getType()->isAnyComplexType())
      return false;
    Out = !complexValue(UO->getSubExpr(), V) ? -1
          : UO->getOpcode() == UO_Real       ? V.Re
                                             : V.Im;
    return true;
  }
  const auto *CE = dyn_cast<CastExpr>(E);
  if (!CE || !CE->getSubExpr()->getType()->isAnyComplexType())
    return false;
  if (CE->getCastKind() == CK_FloatingComplexToReal) {
    Out = complexValue(CE->getSubExpr(), V)
              ? B.cast(*irType(E->getType()), V.Re)
              : -1;
    return true;
  }
  if (CE->getCastKind() == CK_FloatingComplexToBoolean) {
    Out = complexTest(CE->getSubExpr());
    return true;
  }
  return false;
}

int Lowerer::complexTest(const Expr *E) {
  CVal V;
  if (!complexValue(E, V))
    return -1;
  int Z = zeroOf(V.Ty);
  return B.bin(Op::Or, B.cmp(Op::CmpNE, V.Re, Z), B.cmp(Op::CmpNE, V.Im, Z));
}

std::optional<int> Lowerer::complexCompare(const BinaryOperator *BO) {
  if (!BO->getLHS()->getType()->isAnyComplexType() &&
      !BO->getRHS()->getType()->isAnyComplexType())
    return std::nullopt;
  if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE) {
    error(BO->getOperatorLoc(),
          "'" + BO->getOpcodeStr().str() + "' of complex values",
          "compare complex values with == and != (or compare their parts)");
    return -1;
  }
  CVal L, R;
  if (!complexValue(BO->getLHS(), L) || !complexValue(BO->getRHS(), R))
    return -1;
  R = complexConvert(R, L.Ty);
  int LI = L.Im < 0 ? zeroOf(L.Ty) : L.Im, RI = R.Im < 0 ? zeroOf(L.Ty) : R.Im;
  if (BO->getOpcode() == BO_EQ)
    return B.bin(Op::And, B.cmp(Op::CmpEQ, L.Re, R.Re),
                 B.cmp(Op::CmpEQ, LI, RI));
  return B.bin(Op::Or, B.cmp(Op::CmpNE, L.Re, R.Re), B.cmp(Op::CmpNE, LI, RI));
}

bool Lowerer::complexPart(const UnaryOperator *UO, llvm::StringRef Action,
                          LValue &Out) {
  if ((UO->getOpcode() != UO_Real && UO->getOpcode() != UO_Imag) ||
      !UO->getSubExpr()->getType()->isAnyComplexType())
    return false;
  const auto *Vars = complexVars(UO->getSubExpr());
  if (!Vars) {
    CVal Unused;
    if (complexRef(UO->getSubExpr(), Unused))
      error(UO->getBeginLoc(),
            std::string(Action) + " a part of this complex value", WhatWorks);
    Out = {};
    return true;
  }
  Out = {UO->getOpcode() == UO_Real ? Vars->first : Vars->second, -1};
  return true;
}

} // namespace lowering
} // namespace batchdiff
