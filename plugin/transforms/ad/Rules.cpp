//===- Rules.cpp - derivative rules from the tables -----------------------===//
#include "transforms/ad/Rules.h"

namespace batchdiff {

// The tables' vocabulary, for the functions below: each defines B, S, Ty,
// Val and G (the rule's G) or G0 and G1 (the two tangents of a pair rule).
#define X0 Val(S.Args[0])
#define X1 Val(S.Args[1])
#define Y Val(S.Dst)
#define C(V) B.constF(Ty, V)
#define CI(V) B.constI(ir::Type::I32, V)
#define ZERO B.constF(Ty, 0.0)
#define ADD(L, R) B.add(L, R)
#define SUB(L, R) B.sub(L, R)
#define MUL(L, R) B.mul(L, R)
#define DIV(L, R) B.div(L, R)
#define NEG(X) B.neg(X)
#define SEL(Cnd, L, R) B.select(Cnd, L, R)
#define CMP(O, L, R) B.cmp(Op::O, L, R)
#define AND(L, R) B.bin(Op::And, L, R)
#define OR(L, R) B.bin(Op::Or, L, R)
#define CONVERT(V) B.cast(Into, V)
#define MATH(Fn, ...) Math(ir::MathFn::Fn, {__VA_ARGS__})
#define NORM_MIN C(Ty == ir::Type::F32 ? 0x1p-126 : 0x1p-1022)
#define FINITE_MAX                                                             \
  C(Ty == ir::Type::F32 ? 0x1.fffffep127 : 0x1.fffffffffffffp1023)
#define RARE(Cnd, L, R)                                                        \
  Rare([&] { return Cnd; }, [&] { return L; }, [&] { return R; })

int derivativeRule(ir::Builder &B, const ir::Stmt &S, unsigned K, int Gt,
                   ir::Type Into, const std::function<int(int)> &Val,
                   const MathReuse &Reuse) {
  using ir::Op;
  // A call the rule names twice is made once (log1pexp's exp(x)).
  std::vector<std::pair<std::pair<ir::MathFn, std::vector<int>>, int>> Made;
  bool InRare = false;
  auto Math = [&](ir::MathFn Fn, std::vector<int> Args) {
    for (auto &M : Made)
      if (M.first.first == Fn && M.first.second == Args)
        return M.second;
    int T = Reuse && !InRare ? Reuse(Fn, Args) : -1;
    if (T < 0)
      T = B.math(Fn, Args);
    Made.push_back({{Fn, std::move(Args)}, T});
    return T;
  };
  // RARE(cond, fast, slow): fast, and slow instead in the lanes where cond
  // holds or fast is not a finite number, in a branch taken only when some
  // lane needs it (Stmt::Rare). The slow side's calls are made there: not
  // reused (a call hoisted into the forward sweep would run in every lane),
  // not reused after it.
  auto Rare = [&](auto &&Cond, auto &&Fast, auto &&Slow) {
    int F = Fast();
    ir::Type FTy = B.func().Temps[F];
    double Max = FTy == ir::Type::F32 ? 0x1.fffffep127 : 0x1.fffffffffffffp1023;
    int Cd = B.bin(Op::Or, Cond(),
                   B.un(Op::Not, B.cmp(Op::CmpLE, B.math(ir::MathFn::Fabs, {F}),
                                       B.constF(FTy, Max))));
    int V = B.func().newVar("rule_rare", FTy);
    B.set(V, F);
    ir::Stmt &If = B.ifStmt(Cd);
    If.Rare = true;
    ir::Block *Saved = B.block();
    B.setBlock(&If.Then);
    size_t Known = Made.size();
    InRare = true;
    B.set(V, Slow());
    InRare = false;
    Made.resize(Known);
    B.setBlock(Saved);
    return B.get(V);
  };
  ir::Type Ty = B.func().Temps[S.Dst];
  bool IsMath = S.Opc == Op::Math;
  // Tie(v, a0, p0, a1, p1, ...): the partial in a_k is p_k (in a_k's type).
  // Gt is v's adjoint (reverse mode) or a_k's tangent (forward mode, in
  // a_k's type: a float parameter of a double callee), so both in v's.
  if (S.Opc == Op::Tie)
    return K % 2 == 1 && K + 1 < S.Args.size()
               ? B.cast(Into,
                        B.mul(B.cast(Ty, Gt), B.cast(Ty, Val(S.Args[K + 1]))))
               : -1;
#define G Gt
#define BD_OP_DERIV(O, I, E)                                                   \
  if (!IsMath && S.Opc == Op::O && K == I)                                     \
    return E;
#include "transforms/ad/Derivatives.def"
#define NA -1
#define BD_MATH(Name, NumArgs, CName, Sig, Deriv, D0, D1, D2)                  \
  case ir::MathFn::Name:                                                       \
    return K == 0 ? (D0) : K == 1 ? (D1) : K == 2 ? (D2) : -1;
  if (IsMath)
    switch (S.Fn) {
#include "ir/Math.def"
    }
#undef NA
#undef G
  (void)Into;
  return -1;
}

int tangentPairRule(ir::Builder &B, const ir::Stmt &S, int G0, int G1,
                    const std::function<int(int)> &Val) {
  using ir::Op;
  ir::Type Ty = B.func().Temps[S.Dst];
  (void)Ty;
#define BD_OP_TANGENT2(O, E)                                                   \
  if (S.Opc == Op::O && ir::isFloat(Ty))                                       \
    return E;
#include "transforms/ad/Derivatives.def"
  return -1;
}

bool mathSteep(ir::MathFn Fn) {
#define BD_MATH_STEEP(F)                                                       \
  if (Fn == ir::MathFn::F)                                                     \
    return true;
#include "transforms/ad/Derivatives.def"
  return false;
}

#undef X0
#undef X1
#undef Y
#undef C
#undef CI
#undef ZERO
#undef ADD
#undef SUB
#undef MUL
#undef DIV
#undef NEG
#undef SEL
#undef CMP
#undef AND
#undef OR
#undef CONVERT
#undef MATH
#undef NORM_MIN
#undef FINITE_MAX
#undef RARE

} // namespace batchdiff
