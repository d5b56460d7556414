//===- LowerComplexMath.cpp - cexp, clog, csqrt of a complex value --------===//
//
// The scalar code calls glibc's cexp, clog and csqrt (and their float
// forms); the batched code computes what they compute, with the same
// formula and the same order of operations for the same inputs (glibc
// 2.36, math/s_cexp_template.c, s_clog_template.c, s_csqrt_template.c), in
// real operations the AD differentiates (the holomorphic derivatives
// follow: d cexp = cexp, d clog = 1 / z, d csqrt = 1 / (2 csqrt)):
//
// - ordinary finite inputs take the main formula in every lane: cexp is
//   (exp(x) cos(y), exp(x) sin(y)) (a tiny y is its own sine, with cosine
//   1), csqrt Moshier's (r, s) from hypot(x, y) and one square root, clog
//   log(hypot(x, y)), or log1p of x^2 + y^2 - 1 near the unit circle
//   (computed as glibc does: the real one as (|x| - 1)(|x| + 1) + y^2, or
//   exactly from the split squares, __x2y2m1), and atan2(y, x);
// - scaling (cexp's x > 709, near DBL_MAX, tiny parts), zero, infinite and
//   NaN parts are glibc's special cases, computed with selects in a rare
//   branch that runs where a lane needs one (as the product's recovery of
//   infinities does).
//
// The real functions are the runtime's (exp, sin, cos, log, log1p, hypot,
// atan2, sqrt: within their bounds, docs/runtime.md), so a part agrees with
// glibc's within a few ULP, and exactly where the runtime's function is
// exact (sqrt, fabs, products by powers of 2) or the case sets it.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerComplexMath.h"

#include <cfloat>
#include <cmath>
#include <string>

namespace batchdiff {
namespace lowering {

using ir::MathFn;
using ir::Op;
using ir::Type;

RareParts::RareParts(ir::Builder &B, Type T, const char *Name, int Re, int Im)
    : B(B), Re0(Re), Im0(Im) {
  ReV = B.func().newVar(std::string(Name) + "_re", T);
  ImV = B.func().newVar(std::string(Name) + "_im", T);
  B.set(ReV, Re);
  B.set(ImV, Im);
}

void RareParts::open(int Cond) {
  ir::Stmt &If = B.ifStmt(Cond);
  If.Rare = true;
  Saved = B.block();
  B.setBlock(&If.Then);
}

void RareParts::openBothNan() {
  open(B.bin(Op::And, B.cmp(Op::CmpNE, Re0, Re0), B.cmp(Op::CmpNE, Im0, Im0)));
}

std::pair<int, int> RareParts::close(int Re, int Im) {
  B.set(ReV, Re);
  B.set(ImV, Im);
  B.setBlock(Saved);
  return {B.get(ReV), B.get(ImV)};
}

namespace {

/// Shorthands over a Builder for one part type.
struct Ops {
  ir::Builder &B;
  Type T;
  bool Dbl() const { return T == Type::F64; }
  int k(double V) { return B.constF(T, V); }
  int fn(MathFn F, int A) { return B.math(F, {A}); }
  int fn(MathFn F, int A, int C) { return B.math(F, {A, C}); }
  int abs(int V) { return fn(MathFn::Fabs, V); }
  int sign(int Mag, int S) { return fn(MathFn::Copysign, Mag, S); }
  int sel(int C, int A, int D) { return B.select(C, A, D); }
  int lt(int A, int C) { return B.cmp(Op::CmpLT, A, C); }
  int le(int A, int C) { return B.cmp(Op::CmpLE, A, C); }
  int gt(int A, int C) { return B.cmp(Op::CmpGT, A, C); }
  int ge(int A, int C) { return B.cmp(Op::CmpGE, A, C); }
  int eq(int A, int C) { return B.cmp(Op::CmpEQ, A, C); }
  int isNan(int V) { return B.cmp(Op::CmpNE, V, V); }
  int no(int C) { return B.un(Op::Not, C); }
  int both(int A, int C) { return B.bin(Op::And, A, C); }
  int either(int A, int C) { return B.bin(Op::Or, A, C); }
  double max() const { return Dbl() ? DBL_MAX : FLT_MAX; }
  double min() const { return Dbl() ? DBL_MIN : FLT_MIN; }
  double eps() const { return Dbl() ? DBL_EPSILON : FLT_EPSILON; }
  int mantDig() const { return Dbl() ? DBL_MANT_DIG : FLT_MANT_DIG; }
};

} // namespace

std::pair<int, int> complexExp(ir::Builder &B, Type T, int X, int Y) {
  Ops O{B, T};
  // (int) ((MAX_EXP - 1) * ln 2): exp(t) is finite.
  const int Tl = O.Dbl() ? 709 : 88;
  int AY = O.abs(Y);
  int Tiny = O.no(O.gt(AY, O.k(O.min()))); // its own sine, cosine 1
  int S = O.sel(Tiny, Y, O.fn(MathFn::Sin, Y));
  int C = O.sel(Tiny, O.k(1), O.fn(MathFn::Cos, Y));
  int E = O.fn(MathFn::Exp, X);
  RareParts R(B, T, "__cexp", B.mul(E, C), B.mul(E, S));
  // x > t or NaN; y infinite or NaN. (x = -inf: exp is 0, the parts
  // copysign(0, cos y), copysign(0, sin y), as glibc's case.)
  int YFin = O.le(AY, O.k(O.max()));
  R.open(O.either(O.no(O.le(X, O.k(Tl))), O.no(YFin)));
  // x > t: the parts scaled by exp(t) once or twice; beyond 3t, MAX times
  // them (overflow).
  double ExpT = O.Dbl() ? std::exp((double)Tl) : (double)std::exp((float)Tl);
  int X1 = X, S1 = S, C1 = C;
  for (int I = 0; I < 2; ++I) {
    int Big = O.gt(X1, O.k(Tl));
    X1 = O.sel(Big, B.sub(X1, O.k(Tl)), X1);
    S1 = O.sel(Big, B.mul(S1, O.k(ExpT)), S1);
    C1 = O.sel(Big, B.mul(C1, O.k(ExpT)), C1);
  }
  int Ovf = O.gt(X1, O.k(Tl));
  int E1 = O.fn(MathFn::Exp, X1);
  int Re = O.sel(Ovf, B.mul(O.k(O.max()), C1), B.mul(E1, C1));
  int Im = O.sel(Ovf, B.mul(O.k(O.max()), S1), B.mul(E1, S1));
  // Infinite and NaN parts.
  int Inf = O.k(INFINITY), Nan = O.k(NAN), Zero = O.k(0);
  int YZero = O.eq(Y, Zero), XNan = O.isNan(X);
  int XPInf = O.eq(X, Inf), XMInf = O.eq(X, O.k(-INFINITY));
  // x = +inf: (inf, y) for y = 0, (copysign(inf, cos y), copysign(inf,
  // sin y)) for other finite y, else (inf, y - y).
  int PRe = O.sel(O.both(YFin, O.no(YZero)), O.sign(Inf, C), Inf);
  int PIm = O.sel(YFin, O.sel(YZero, Y, O.sign(Inf, S)), B.sub(Y, Y));
  // x = -inf: (copysign(0, cos y), copysign(0, sin y)) for finite y (y = 0:
  // (0, y)), else (0, copysign(0, y)).
  int MRe = O.sel(YFin, O.sign(Zero, C), Zero);
  int MIm = O.sel(YFin, O.sign(Zero, S), O.sign(Zero, Y));
  // x NaN: (NaN, y) for y = 0, else NaN; finite x, y infinite or NaN: NaN.
  Re = O.sel(XPInf, PRe,
             O.sel(XMInf, MRe, O.sel(O.either(XNan, O.no(YFin)), Nan, Re)));
  Im = O.sel(
      XPInf, PIm,
      O.sel(XMInf, MIm,
            O.sel(XNan, O.sel(YZero, Y, Nan), O.sel(O.no(YFin), Nan, Im))));
  return R.close(Re, Im);
}

std::pair<int, int> complexSqrt(ir::Builder &B, Type T, int X, int Y) {
  Ops O{B, T};
  int AX = O.abs(X), AY = O.abs(Y), Half = O.k(0.5);
  // d = |z|; r = sqrt((d + x) / 2), s = y / (2 r) for x > 0, else s =
  // sqrt((d - x) / 2), r = |y / (2 s)|. (For y = 0 this is glibc's (sqrt(x),
  // 0) and (0, sqrt(-x)), the same bits: hypot(x, 0) is |x|.)
  int D = O.fn(MathFn::Hypot, X, Y);
  int Pos = O.gt(X, O.k(0));
  int Q = O.fn(MathFn::Sqrt, B.mul(Half, B.add(D, O.sel(Pos, X, B.neg(X)))));
  int Other = B.mul(Half, B.div(Y, Q));
  RareParts R(B, T, "__csqrt", O.sel(Pos, Q, O.abs(Other)),
              O.sign(O.sel(Pos, Other, Q), Y));
  // Scaling near MAX and for tiny parts, x = 0, infinite and NaN parts.
  double Max4 = O.max() / 4, Min2 = 2 * O.min();
  int Rare =
      O.either(O.either(O.no(O.le(AX, O.k(Max4))), O.no(O.le(AY, O.k(Max4)))),
               O.either(O.eq(AX, O.k(0)),
                        O.both(O.lt(AX, O.k(Min2)), O.lt(AY, O.k(Min2)))));
  R.open(Rare);
  // Finite: scaled by 1/4 (a part beyond MAX / 4; x to 0 if below 4 MIN
  // when only y is) or by 2^(2h), h = (MANT_DIG + 1) / 2 (both below
  // 2 MIN), the result scaled back.
  int BigX = O.gt(AX, O.k(Max4));
  int BigY = O.both(O.no(BigX), O.gt(AY, O.k(Max4)));
  int Up = O.either(BigX, BigY);
  int Small =
      O.both(O.no(Up), O.both(O.lt(AX, O.k(Min2)), O.lt(AY, O.k(Min2))));
  int H = (O.mantDig() + 1) / 2;
  int Quarter = O.k(0.25), UpK = O.k(std::ldexp(1.0, 2 * H));
  int X1 = O.sel(Up,
                 O.sel(O.both(BigY, O.lt(AX, O.k(4 * O.min()))), O.k(0),
                       B.mul(X, Quarter)),
                 O.sel(Small, B.mul(X, UpK), X));
  int Y1 = O.sel(Up, B.mul(Y, Quarter), O.sel(Small, B.mul(Y, UpK), Y));
  int D1 = O.fn(MathFn::Hypot, X1, Y1);
  int Pos1 = O.gt(X1, O.k(0));
  int Q1 =
      O.fn(MathFn::Sqrt, B.mul(Half, B.add(D1, O.sel(Pos1, X1, B.neg(X1)))));
  // (Scaled down, y below 1: y / r unhalved, and r doubled, to avoid an
  // intermediate underflow.)
  int Fix = O.both(Up, O.lt(O.abs(Y1), O.k(1)));
  int Ratio = B.div(Y1, Q1);
  int Oth = O.sel(Fix, Ratio, B.mul(Half, Ratio));
  int Q2 = O.sel(Fix, B.mul(Q1, O.k(2)), Q1);
  int Back = O.sel(O.both(Up, O.no(Fix)), O.k(2),
                   O.sel(Small, O.k(std::ldexp(1.0, -H)), O.k(1)));
  int GRe = B.mul(O.sel(Pos1, Q2, O.abs(Oth)), Back);
  int GIm = O.sign(B.mul(O.sel(Pos1, Oth, Q2), Back), Y);
  // y = 0: (|sqrt(x)|, copysign(0, y)) for x >= 0, (0, copysign(sqrt(-x),
  // y)) for x < 0.
  int Zero = O.k(0), Neg = O.lt(X, Zero);
  int ZRe = O.sel(Neg, Zero, O.abs(O.fn(MathFn::Sqrt, X)));
  int ZIm = O.sign(O.sel(Neg, O.fn(MathFn::Sqrt, B.neg(X)), Zero), Y);
  // x = 0: r = s = sqrt(|y| / 2) (0.5 sqrt(2 |y|) for |y| below 2 MIN),
  // written as sqrt((d + x) / 2) and sqrt((d - x) / 2), the same bits, for
  // the derivatives in x.
  int TinyY = O.lt(AY, O.k(Min2));
  int R0 = O.sel(TinyY, B.mul(Half, O.fn(MathFn::Sqrt, B.mul(O.k(2), AY))),
                 O.fn(MathFn::Sqrt, B.mul(Half, B.add(D, X))));
  int S0 = O.sel(TinyY, R0, O.fn(MathFn::Sqrt, B.mul(Half, B.sub(D, X))));
  int Re = O.sel(O.eq(Y, Zero), ZRe, O.sel(O.eq(X, Zero), R0, GRe));
  int Im = O.sel(O.eq(Y, Zero), ZIm, O.sel(O.eq(X, Zero), O.sign(S0, Y), GIm));
  // Infinite and NaN parts: y infinite: (inf, y); x infinite: (NaN or 0,
  // copysign(inf, y)) for x < 0, (x, NaN or copysign(0, y)) for x > 0;
  // else (NaN, NaN).
  int Inf = O.k(INFINITY), Nan = O.k(NAN);
  int YInf = O.eq(AY, Inf), XInf = O.eq(AX, Inf), YNan = O.isNan(Y);
  int NonFin =
      O.either(O.no(O.le(AX, O.k(O.max()))), O.no(O.le(AY, O.k(O.max()))));
  int IRe =
      O.sel(YInf, Inf, O.sel(XInf, O.sel(Neg, O.sel(YNan, Nan, Zero), X), Nan));
  int IIm = O.sel(
      YInf, Y,
      O.sel(XInf, O.sel(Neg, O.sign(Inf, Y), O.sel(YNan, Nan, O.sign(Zero, Y))),
            Nan));
  return R.close(O.sel(NonFin, IRe, Re), O.sel(NonFin, IIm, Im));
}

namespace {

/// x^2 + y^2 - 1 for 1 > x >= y >= EPSILON / 2 and x^2 + y^2 >= 1/2, as
/// glibc's __x2y2m1 computes it: the two squares split exactly into high
/// and low parts, the five terms sorted by magnitude (its qsort is stable:
/// the sorts here are odd-even transposition networks, stable too), each
/// added exactly into the next larger one and the rest sorted again, then
/// summed from the largest. In float: in double, rounded once.
int x2y2m1(Ops &O, int X, int Y) {
  ir::Builder &B = O.B;
  if (!O.Dbl()) {
    int DX = B.cast(Type::F64, X), DY = B.cast(Type::F64, Y);
    int One = B.constF(Type::F64, 1);
    return B.cast(Type::F32,
                  B.add(B.mul(B.sub(DX, One), B.add(DX, One)), B.mul(DY, DY)));
  }
  int V[5];
  V[1] = B.mul(X, X);
  V[0] = B.math(MathFn::Fma, {X, X, B.neg(V[1])});
  V[3] = B.mul(Y, Y);
  V[2] = B.math(MathFn::Fma, {Y, Y, B.neg(V[3])});
  V[4] = O.k(-1);
  auto Sort = [&](int From) {
    int N = 5 - From;
    for (int Round = 0; Round < N; ++Round)
      for (int I = From + Round % 2; I + 1 < 5; I += 2) {
        int Swap = O.lt(O.abs(V[I + 1]), O.abs(V[I]));
        int A = V[I];
        V[I] = O.sel(Swap, V[I + 1], A);
        V[I + 1] = O.sel(Swap, A, V[I + 1]);
      }
  };
  Sort(0);
  for (int I = 0; I <= 3; ++I) {
    int Hi = B.add(V[I + 1], V[I]);
    V[I] = B.add(B.sub(V[I + 1], Hi), V[I]);
    V[I + 1] = Hi;
    Sort(I + 1);
  }
  return B.add(B.add(B.add(B.add(V[4], V[3]), V[2]), V[1]), V[0]);
}

} // namespace

std::pair<int, int> complexLog(ir::Builder &B, Type T, int X, int Y) {
  Ops O{B, T};
  int AX0 = O.abs(X), AY0 = O.abs(Y);
  int Swap = O.lt(AX0, AY0);
  int AX = O.sel(Swap, AY0, AX0), AY = O.sel(Swap, AX0, AY0); // AX >= AY
  int One = O.k(1), Half = O.k(0.5);
  // log1p(d) / 2 of d = |z|^2 - 1 near the unit circle: |x| = 1 exactly;
  // 1 < |x| < 2 and |y| < 1; 1/2 <= |x| < 1 and |y| tiny; 1/2 <= |x| < 1
  // and |z|^2 >= 1/2 (__x2y2m1). Else log(hypot(x, y)).
  int C1 = O.eq(AX, One);
  int C2 = O.both(O.both(O.gt(AX, One), O.lt(AX, O.k(2))), O.lt(AY, One));
  int Below = O.both(O.lt(AX, One), O.ge(AX, Half));
  int C3 = O.both(Below, O.lt(AY, O.k(O.eps() / 2)));
  int C4 = O.both(O.both(Below, O.no(C3)),
                  O.ge(B.add(B.mul(AX, AX), B.mul(AY, AY)), Half));
  int M = B.mul(B.sub(AX, One), B.add(AX, One)), AY2 = B.mul(AY, AY);
  int DV = B.func().newVar("__clog_d2m1", T);
  B.set(DV,
        O.sel(C1, AY2,
              O.sel(C2, O.sel(O.ge(AY, O.k(O.eps())), B.add(M, AY2), M), M)));
  {
    ir::Stmt &If = B.ifStmt(C4);
    ir::Block *Saved = B.block();
    B.setBlock(&If.Then);
    B.set(DV, x2y2m1(O, AX, AY));
    B.setBlock(Saved);
  }
  int Near = O.either(O.either(C1, C2), O.either(C3, C4));
  int L1 = B.div(O.fn(MathFn::Log1p, B.get(DV)), O.k(2));
  int L2 = O.fn(MathFn::Log, O.fn(MathFn::Hypot, AX, AY));
  int Arg = O.fn(MathFn::Atan2, Y, X);
  RareParts R(B, T, "__clog", O.sel(Near, L1, L2), Arg);
  // |x| beyond MAX / 2 (infinite too), both parts below MIN (zero too),
  // NaN parts.
  double Min = O.min();
  int Big = O.no(O.le(AX, O.k(O.max() / 2)));
  int Tiny = O.both(O.lt(AX, O.k(Min)), O.lt(AY, O.k(Min)));
  R.open(O.either(O.either(Big, Tiny), O.either(O.isNan(X), O.isNan(Y))));
  // Scaled by 1/2 (y to 0 below 2 MIN) or by 2^MANT_DIG: log(hypot) - scale
  // ln 2 (scale * ln 2 rounded once, as glibc's int times FLOAT).
  int SX =
      O.sel(Big, B.mul(AX, Half), B.mul(AX, O.k(std::ldexp(1.0, O.mantDig()))));
  int SY = O.sel(Big, O.sel(O.ge(AY, O.k(2 * Min)), B.mul(AY, Half), O.k(0)),
                 B.mul(AY, O.k(std::ldexp(1.0, O.mantDig()))));
  double Ln2S = O.Dbl() ? O.mantDig() * M_LN2
                        : (double)((float)O.mantDig() * (float)M_LN2);
  int Re = B.sub(O.fn(MathFn::Log, O.fn(MathFn::Hypot, SX, SY)),
                 O.sel(Big, O.k(-M_LN2), O.k(Ln2S)));
  // Both zero: (-1 / |x|, copysign(pi or 0, y) by x's sign); NaN: (inf if
  // a part is infinite, else NaN; NaN).
  int Zero = O.k(0), Nan = O.k(NAN), Inf = O.k(INFINITY);
  int Zeros = O.both(O.eq(X, Zero), O.eq(Y, Zero));
  int XNeg = O.lt(O.sign(One, X), Zero);
  int ZIm = O.sign(O.sel(XNeg, O.k(M_PI), Zero), Y);
  int AnyNan = O.either(O.isNan(X), O.isNan(Y));
  int AnyInf = O.either(O.eq(AX0, Inf), O.eq(AY0, Inf));
  Re = O.sel(AnyNan, O.sel(AnyInf, Inf, Nan),
             O.sel(Zeros, B.div(O.k(-1), AX0), Re));
  int Im = O.sel(AnyNan, Nan, O.sel(Zeros, ZIm, Arg));
  return R.close(Re, Im);
}

} // namespace lowering
} // namespace batchdiff
