//===- FuseMath.cpp - log1p(exp(a)) as one math call ----------------------===//
#include "transforms/simplify/FuseMath.h"

#include <map>

namespace batchdiff {
namespace {

using ir::MathFn;
using ir::Op;

bool isFloatMath(const ir::Function &F, const ir::Stmt &S, MathFn Fn) {
  return S.K == ir::Stmt::Inst && S.Opc == Op::Math && S.Fn == Fn &&
         S.Dst >= 0 && F.Temps[S.Dst] == ir::Type::F32;
}

struct Fuser {
  ir::Function &F;
  std::vector<int> Uses;
  std::map<int, int> ExpArg; // a single-use exp's result -> its argument
  std::vector<bool> Gone;    // the exps folded into a log1p

  void count(const ir::Block &B) {
    ir::walk(B, [&](const ir::Stmt &S, int) {
      for (int A : S.Args)
        if (A >= 0)
          ++Uses[A];
      for (int T : {S.Mask, S.Cond, S.Aux})
        if (T >= 0)
          ++Uses[T];
    });
    ir::walk(B, [&](const ir::Stmt &S, int) {
      if (isFloatMath(F, S, MathFn::Exp) && Uses[S.Dst] == 1)
        ExpArg[S.Dst] = S.Args[0];
    });
  }

  void fuse(ir::Block &B) {
    for (auto &S : B) {
      fuse(S->Then);
      fuse(S->Else);
      fuse(S->Body);
      if (!isFloatMath(F, *S, MathFn::Log1p))
        continue;
      auto It = ExpArg.find(S->Args[0]);
      if (It == ExpArg.end())
        continue;
      Gone[It->first] = true;
      S->Fn = MathFn::Log1pexp;
      S->Args[0] = It->second;
    }
  }

  void drop(ir::Block &B) {
    ir::Block Kept;
    for (auto &S : B) {
      drop(S->Then);
      drop(S->Else);
      drop(S->Body);
      if (!(S->K == ir::Stmt::Inst && S->Dst >= 0 && Gone[S->Dst]))
        Kept.push_back(std::move(S));
    }
    B = std::move(Kept);
  }
};

} // namespace

void fuseMath(ir::Function &F) {
  Fuser U{F,
          std::vector<int>(F.Temps.size()),
          {},
          std::vector<bool>(F.Temps.size())};
  U.count(F.Body);
  if (U.ExpArg.empty())
    return;
  U.fuse(F.Body);
  U.drop(F.Body);
}

} // namespace batchdiff
