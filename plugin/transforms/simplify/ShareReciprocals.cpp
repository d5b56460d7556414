//===- ShareReciprocals.cpp - one reciprocal per tangent divisor ----------===//
#include "transforms/simplify/ShareReciprocals.h"

#include <map>
#include <memory>

namespace batchdiff {
namespace {

using ir::Op;

bool tangentDiv(const ir::Function &F, const ir::Stmt &S) {
  return S.K == ir::Stmt::Inst && S.Opc == Op::Div && S.IVal == 1 &&
         S.Dst >= 0 && ir::isFloat(F.Temps[S.Dst]);
}

std::unique_ptr<ir::Stmt> inst(ir::Function &F, Op O, ir::Type Ty,
                               std::vector<int> Args) {
  auto S = std::make_unique<ir::Stmt>();
  S->Opc = O;
  S->Dst = F.newTemp(Ty);
  S->Args = std::move(Args);
  return S;
}

struct Sharer {
  ir::Function &F;

  void block(ir::Block &B) {
    // 2 * d, as a square root's tangent divides (g / (2 sqrt x)): the
    // product of the tangent by 1/2 and the reciprocal of d.
    std::map<int, double> Const;
    std::map<int, int> Twice;
    auto Base = [&](int D) {
      auto It = Twice.find(D);
      return It == Twice.end() ? D : It->second;
    };
    std::map<int, int> Uses; // divisor -> tangent divisions by it here
    for (const auto &S : B) {
      if (S->K != ir::Stmt::Inst)
        continue;
      if (S->Opc == Op::ConstF)
        Const[S->Dst] = S->FVal;
      if (S->Opc == Op::Mul && ir::isFloat(F.Temps[S->Dst]))
        for (int K = 0; K < 2; ++K) {
          auto C = Const.find(S->Args[K]);
          if (C != Const.end() && C->second == 2.0)
            Twice[S->Dst] = S->Args[1 - K];
        }
      if (tangentDiv(F, *S))
        ++Uses[Base(S->Args[1])];
    }
    std::map<int, int> Recip; // divisor -> its reciprocal's temp
    int Half = -1;
    ir::Block Out;
    for (auto &SP : B) {
      ir::Stmt &S = *SP;
      int D = tangentDiv(F, S) ? Base(S.Args[1]) : -1;
      if (D >= 0 && Uses[D] >= 2) {
        ir::Type Ty = F.Temps[S.Dst];
        auto It = Recip.find(D);
        if (It == Recip.end()) {
          auto R = inst(F, Op::Recip, Ty, {D});
          It = Recip.emplace(D, R->Dst).first;
          Out.push_back(std::move(R));
        }
        int Num = S.Args[0];
        if (D != S.Args[1]) {
          if (Half < 0 || F.Temps[Half] != Ty) {
            auto H = inst(F, Op::ConstF, Ty, {});
            H->FVal = 0.5;
            Half = H->Dst;
            Out.push_back(std::move(H));
          }
          auto M = inst(F, Op::Mul, Ty, {Num, Half});
          Num = M->Dst;
          Out.push_back(std::move(M));
        }
        S.Opc = Op::DivR;
        S.Args = {Num, D, It->second};
        S.IVal = 0;
      }
      block(S.Then);
      block(S.Else);
      block(S.Body);
      Out.push_back(std::move(SP));
    }
    B = std::move(Out);
  }
};

} // namespace

void shareReciprocals(ir::Function &F) { Sharer{F}.block(F.Body); }

} // namespace batchdiff
