//===- LowerComplexDiv.cpp - division by a complex value ------------------===//
//
// Clang divides by a complex value in libgcc's __divdc3 / __divsc3 (also a
// real by a complex one: __divdc3(x, 0, c, d)). The batched code computes
// what they compute, operation for operation (GCC 12's libgcc2.c, the
// version Debian 12 links), branch-free in the lanes:
//
// - __divdc3: Smith's method on the larger of |c| and |d|, with the
//   operands halved where that part is at least DBL_MAX / 2 and scaled up
//   by 2^52 where they are tiny, and the other order of operations where
//   the ratio is subnormal;
// - __divsc3: the naive quotient computed in double (x86-64 has double
//   hardware), rounded to float;
// - both: where both parts of the quotient are NaN, C Annex G's recovery
//   of infinities and zeros (x / 0, inf / finite, finite / inf).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerComplexDiv.h"
#include "lower/LowerComplexMath.h"

#include <cfloat>
#include <cmath>

namespace batchdiff {
namespace lowering {

using ir::Op;
using ir::Type;

namespace {

/// a, b, c, d of one branch of __divdc3.
struct Quad {
  int A, Bv, C, D;
};

} // namespace

std::pair<int, int> complexQuotient(ir::Builder &B, Type T, int A, int Bi,
                                    int C, int D) {
  auto K = [&](double V) { return B.constF(T, V); };
  auto Abs = [&](int V) { return B.math(ir::MathFn::Fabs, {V}); };
  auto Sel = [&](int C, const Quad &X, const Quad &Y) {
    return Quad{B.select(C, X.A, Y.A), B.select(C, X.Bv, Y.Bv),
                B.select(C, X.C, Y.C), B.select(C, X.D, Y.D)};
  };
  int X, Y;
  Quad S{A, Bi, C, D}; // the operands the recovery sees (scaled)
  if (T == Type::F32) {
    int AA = B.cast(Type::F64, A), BB = B.cast(Type::F64, Bi),
        CC = B.cast(Type::F64, C), DD = B.cast(Type::F64, D);
    int Den = B.add(B.mul(CC, CC), B.mul(DD, DD));
    X = B.cast(T, B.div(B.add(B.mul(AA, CC), B.mul(BB, DD)), Den));
    Y = B.cast(T, B.div(B.sub(B.mul(BB, CC), B.mul(AA, DD)), Den));
  } else {
    const double RBig = DBL_MAX / 2, RMin = DBL_MIN, RMin2 = DBL_EPSILON,
                 RMinScal = 1 / DBL_EPSILON, RMax2 = RBig * RMin2;
    // The scaling of __divdc3's branch whose larger part is \p Key (d in
    // the first, c in the second).
    auto Scale = [&](bool First) {
      Quad Q{A, Bi, C, D};
      auto KeyOf = [&](const Quad &V) { return Abs(First ? V.D : V.C); };
      int Two = K(2);
      Quad Half{B.div(Q.A, Two), B.div(Q.Bv, Two), B.div(Q.C, Two),
                B.div(Q.D, Two)};
      Q = Sel(B.cmp(Op::CmpGE, KeyOf(Q), K(RBig)), Half, Q);
      int AbsK = KeyOf(Q), AbsA = Abs(Q.A), AbsB = Abs(Q.Bv);
      auto Lt = [&](int V, double W) { return B.cmp(Op::CmpLT, V, K(W)); };
      auto And = [&](int P, int Q2) { return B.bin(Op::And, P, Q2); };
      int Tiny = B.bin(
          Op::Or, And(And(Lt(AbsA, RMin), Lt(AbsB, RMax2)), Lt(AbsK, RMax2)),
          And(And(Lt(AbsB, RMin), Lt(AbsA, RMax2)), Lt(AbsK, RMax2)));
      int Up = B.bin(Op::Or, Lt(AbsK, RMin2), Tiny);
      int M = K(RMinScal);
      Quad Big{B.mul(Q.A, M), B.mul(Q.Bv, M), B.mul(Q.C, M), B.mul(Q.D, M)};
      return Sel(Up, Big, Q);
    };
    Quad Q1 = Scale(true), Q2 = Scale(false);
    // |c| < |d|: ratio = c / d.
    int R1 = B.div(Q1.C, Q1.D);
    int Den1 = B.add(B.mul(Q1.C, R1), Q1.D);
    int Big1 = B.cmp(Op::CmpGT, Abs(R1), K(RMin));
    int X1 = B.select(Big1, B.add(B.mul(Q1.A, R1), Q1.Bv),
                      B.add(B.mul(Q1.C, B.div(Q1.A, Q1.D)), Q1.Bv));
    int Y1 = B.select(Big1, B.sub(B.mul(Q1.Bv, R1), Q1.A),
                      B.sub(B.mul(Q1.C, B.div(Q1.Bv, Q1.D)), Q1.A));
    // Else: ratio = d / c.
    int R2 = B.div(Q2.D, Q2.C);
    int Den2 = B.add(B.mul(Q2.D, R2), Q2.C);
    int Big2 = B.cmp(Op::CmpGT, Abs(R2), K(RMin));
    int X2 = B.select(Big2, B.add(B.mul(Q2.Bv, R2), Q2.A),
                      B.add(Q2.A, B.mul(Q2.D, B.div(Q2.Bv, Q2.C))));
    int Y2 = B.select(Big2, B.sub(Q2.Bv, B.mul(Q2.A, R2)),
                      B.sub(Q2.Bv, B.mul(Q2.D, B.div(Q2.A, Q2.C))));
    int First = B.cmp(Op::CmpLT, Abs(C), Abs(D));
    X = B.select(First, B.div(X1, Den1), B.div(X2, Den2));
    Y = B.select(First, B.div(Y1, Den1), B.div(Y2, Den2));
    S = Sel(First, Q1, Q2);
  }
  RareParts R(B, T, "__cdiv", X, Y);
  R.openBothNan();
  auto IsNan = [&](int V) { return B.cmp(Op::CmpNE, V, V); };
  int Zero = K(0.0), One = K(1.0), Inf = K(INFINITY);
  auto IsInf = [&](int V) { return B.cmp(Op::CmpEQ, Abs(V), Inf); };
  auto Finite = [&](int V) { return B.cmp(Op::CmpLT, Abs(V), Inf); };
  auto Box = [&](int V) {
    return B.math(ir::MathFn::Copysign, {B.select(IsInf(V), One, Zero), V});
  };
  auto Or = [&](int P, int Q) { return B.bin(Op::Or, P, Q); };
  auto And = [&](int P, int Q) { return B.bin(Op::And, P, Q); };
  // Nonzero / zero.
  int ByZero =
      And(And(B.cmp(Op::CmpEQ, S.C, Zero), B.cmp(Op::CmpEQ, S.D, Zero)),
          Or(B.un(Op::Not, IsNan(S.A)), B.un(Op::Not, IsNan(S.Bv))));
  int SInf = B.math(ir::MathFn::Copysign, {Inf, S.C});
  int XZ = B.mul(SInf, S.A), YZ = B.mul(SInf, S.Bv);
  // Infinite / finite.
  int InfNum = And(And(Or(IsInf(S.A), IsInf(S.Bv)), Finite(S.C)), Finite(S.D));
  int A1 = Box(S.A), B1 = Box(S.Bv);
  int XI = B.mul(Inf, B.add(B.mul(A1, S.C), B.mul(B1, S.D)));
  int YI = B.mul(Inf, B.sub(B.mul(B1, S.C), B.mul(A1, S.D)));
  // Finite / infinite.
  int InfDen = And(And(Or(IsInf(S.C), IsInf(S.D)), Finite(S.A)), Finite(S.Bv));
  int C1 = Box(S.C), D1 = Box(S.D);
  int XF = B.mul(Zero, B.add(B.mul(S.A, C1), B.mul(S.Bv, D1)));
  int YF = B.mul(Zero, B.sub(B.mul(S.Bv, C1), B.mul(S.A, D1)));
  return R.close(
      B.select(ByZero, XZ, B.select(InfNum, XI, B.select(InfDen, XF, X))),
      B.select(ByZero, YZ, B.select(InfNum, YI, B.select(InfDen, YF, Y))));
}

} // namespace lowering
} // namespace batchdiff
