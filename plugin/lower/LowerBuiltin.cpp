//===- LowerBuiltin.cpp - <math.h> classification, abs, assert ------------===//
//
// glibc's isnan, isinf, isfinite, signbit, fpclassify, isgreater, ... are
// macros over clang builtins (__builtin_isnan, __builtin_isinf_sign, ...);
// they lower to comparisons, which every lane computes exactly as the scalar
// code does. assert() is left out of the generated functions (as under
// NDEBUG): docs/subset.md says why. The branch hints __builtin_expect,
// __builtin_unreachable and __builtin_assume change no value.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

namespace batchdiff {
namespace lowering {

namespace {

enum class Builtin {
  IsNan,
  IsInf,
  IsInfSign,
  IsFinite,
  IsNormal,
  IsSubnormal,
  IsZero,
  FpClassify,
  SignBit,
  IsGreater,
  IsGreaterEqual,
  IsLess,
  IsLessEqual,
  IsLessGreater,
  IsUnordered,
  Abs,
  Expect,
  NoOp,
  Other
};

Builtin builtinOf(llvm::StringRef Name) {
  return llvm::StringSwitch<Builtin>(Name)
      .Case("isnan", Builtin::IsNan)
      .Case("isinf", Builtin::IsInf)
      .Case("isinf_sign", Builtin::IsInfSign)
      .Case("isfinite", Builtin::IsFinite)
      .Case("isnormal", Builtin::IsNormal)
      .Case("issubnormal", Builtin::IsSubnormal)
      .Case("iszero", Builtin::IsZero)
      .Case("fpclassify", Builtin::FpClassify)
      .Cases("signbit", "signbitf", Builtin::SignBit)
      .Case("isgreater", Builtin::IsGreater)
      .Case("isgreaterequal", Builtin::IsGreaterEqual)
      .Case("isless", Builtin::IsLess)
      .Case("islessequal", Builtin::IsLessEqual)
      .Case("islessgreater", Builtin::IsLessGreater)
      .Case("isunordered", Builtin::IsUnordered)
      .Cases("abs", "labs", "llabs", Builtin::Abs)
      .Cases("expect", "expect_with_probability", Builtin::Expect)
      .Cases("unreachable", "assume", Builtin::NoOp)
      .Default(Builtin::Other);
}

} // namespace

bool Lowerer::fromAssert(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (SourceLocation L = E->getBeginLoc(); L.isMacroID();
       L = SM.getImmediateMacroCallerLoc(L))
    if (Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts()) == "assert")
      return true;
  return false;
}

bool Lowerer::generatedCallee(const FunctionDecl *Callee) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *R : Callee->redecls()) {
    SourceLocation L = SM.getExpansionLoc(R->getLocation());
    if (L.isValid() && SM.getBufferName(L).starts_with("<batchdiff:"))
      return true;
  }
  return false;
}

std::optional<int> Lowerer::builtinCall(const CallExpr *CE,
                                        llvm::StringRef Name) {
  Builtin K = builtinOf(Name);
  if (K == Builtin::Other)
    return std::nullopt;
  // Hints about the scalar code's paths: a lane reaching
  // __builtin_unreachable() is undefined behaviour in C, so its other lanes
  // go on; __builtin_assume does not evaluate its argument.
  if (K == Builtin::NoOp)
    return B.constB(false);
  std::vector<int> Args;
  for (const Expr *A : CE->arguments()) {
    int T = expr(A);
    if (T < 0)
      return -1;
    Args.push_back(T);
  }
  if (K == Builtin::Expect) // the value; the expected value is a hint
    return Args[0];
  if (K == Builtin::Abs) {
    int X = Args[0];
    Type T = F.Temps[X];
    int R = B.select(B.cmp(Op::CmpLT, X, zeroOf(T)), B.neg(X), X);
    return convert(R, CE->getArg(0)->getType(), CE->getType());
  }
  int X = Args.back(); // the classified value (fpclassify's last argument)
  Type T = F.Temps[X];
  if (!ir::isFloat(T)) {
    error(CE->getBeginLoc(), "this classification of a non-floating value",
          "pass a float or double");
    return -1;
  }
  auto Abs = [&] { return B.math(ir::MathFn::Fabs, {X}); };
  int Inf = B.constF(T, HUGE_VAL);
  int MinNormal = B.constF(T, T == Type::F32 ? 0x1p-126 : 0x1p-1022);
  auto IsNormal = [&] {
    int A = Abs();
    return B.bin(Op::And, B.cmp(Op::CmpGE, A, MinNormal),
                 B.cmp(Op::CmpLT, A, Inf));
  };
  auto IsSubnormal = [&] {
    int A = Abs();
    return B.bin(Op::And, B.cmp(Op::CmpLT, A, MinNormal),
                 B.cmp(Op::CmpNE, A, zeroOf(T)));
  };
  int C; // a Bool, converted to the call's type below
  switch (K) {
  case Builtin::IsNan:
    C = B.cmp(Op::CmpNE, X, X);
    break;
  case Builtin::IsInf:
    C = B.cmp(Op::CmpEQ, Abs(), Inf);
    break;
  case Builtin::IsInfSign: {
    Type RT = Type::I32;
    int Sign = B.select(B.cmp(Op::CmpGT, X, zeroOf(T)), B.constI(RT, 1),
                        B.constI(RT, -1));
    int R = B.select(B.cmp(Op::CmpEQ, Abs(), Inf), Sign, B.constI(RT, 0));
    return convert(R, Ctx.IntTy, CE->getType());
  }
  case Builtin::IsFinite:
    C = B.cmp(Op::CmpLT, Abs(), Inf);
    break;
  case Builtin::IsNormal:
    C = IsNormal();
    break;
  case Builtin::IsSubnormal:
    C = IsSubnormal();
    break;
  case Builtin::IsZero:
    C = B.cmp(Op::CmpEQ, X, zeroOf(T));
    break;
  case Builtin::FpClassify: {
    // fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
    int R = B.cast(Type::I32, Args[4]);
    R = B.select(IsSubnormal(), B.cast(Type::I32, Args[3]), R);
    R = B.select(IsNormal(), B.cast(Type::I32, Args[2]), R);
    R = B.select(B.cmp(Op::CmpEQ, Abs(), Inf), B.cast(Type::I32, Args[1]), R);
    R = B.select(B.cmp(Op::CmpNE, X, X), B.cast(Type::I32, Args[0]), R);
    return convert(R, Ctx.IntTy, CE->getType());
  }
  case Builtin::SignBit:
    // The sign bit, also of -0 and of NaNs: copysign copies it exactly.
    C = B.cmp(Op::CmpLT, B.math(ir::MathFn::Copysign, {B.constF(T, 1.0), X}),
              zeroOf(T));
    break;
  case Builtin::IsGreater:
  case Builtin::IsGreaterEqual:
  case Builtin::IsLess:
  case Builtin::IsLessEqual: {
    // Quiet comparisons: the same result as the operators.
    Op O = K == Builtin::IsGreater        ? Op::CmpGT
           : K == Builtin::IsGreaterEqual ? Op::CmpGE
           : K == Builtin::IsLess         ? Op::CmpLT
                                          : Op::CmpLE;
    C = B.cmp(O, Args[0], Args[1]);
    break;
  }
  case Builtin::IsLessGreater:
    C = B.bin(Op::Or, B.cmp(Op::CmpLT, Args[0], Args[1]),
              B.cmp(Op::CmpGT, Args[0], Args[1]));
    break;
  case Builtin::IsUnordered:
    C = B.bin(Op::Or, B.cmp(Op::CmpNE, Args[0], Args[0]),
              B.cmp(Op::CmpNE, Args[1], Args[1]));
    break;
  default:
    return std::nullopt;
  }
  return convert(C, Ctx.BoolTy, CE->getType());
}

} // namespace lowering
} // namespace batchdiff
