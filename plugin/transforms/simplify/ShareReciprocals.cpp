//===- ShareReciprocals.cpp - one reciprocal per derivative divisor -------===//
#include "transforms/simplify/ShareReciprocals.h"

#include "analysis/Uniformity.h"

#include <map>
#include <memory>
#include <set>

namespace batchdiff {
namespace {

using ir::Op;

std::unique_ptr<ir::Stmt> inst(ir::Function &F, Op O, ir::Type Ty,
                               std::vector<int> Args) {
  auto S = std::make_unique<ir::Stmt>();
  S->Opc = O;
  S->Dst = F.newTemp(Ty);
  S->Args = std::move(Args);
  return S;
}

/// Calls \p Fn on each statement of \p B and of the ifs in it, not of
/// loops (a loop body is a scope of its own).
template <typename FnT> void walkNoLoops(ir::Block &B, FnT &&Fn) {
  for (auto &S : B) {
    Fn(*S);
    if (S->K == ir::Stmt::If) {
      walkNoLoops(S->Then, Fn);
      walkNoLoops(S->Else, Fn);
    }
  }
}

struct Sharer {
  ir::Function &F;
  int Mark;
  const Uniformity &U;
  // 2 * d, as a square root's derivative divides (g / (2 sqrt x)): the
  // product of g / 2 and the reciprocal of d.
  std::map<int, int> Twice;

  bool marked(const ir::Stmt &S) const {
    return S.K == ir::Stmt::Inst && S.Opc == Op::Div && S.IVal == Mark &&
           S.Dst >= 0 && ir::isFloat(F.Temps[S.Dst]);
  }
  int base(int D) const {
    auto It = Twice.find(D);
    return It == Twice.end() ? D : It->second;
  }

  void findTwice() {
    std::map<int, double> Const;
    ir::walk(F.Body, [&](const ir::Stmt &S, int) {
      if (S.K != ir::Stmt::Inst)
        return;
      if (S.Opc == Op::ConstF)
        Const[S.Dst] = S.FVal;
      if (S.Opc == Op::Mul && ir::isFloat(F.Temps[S.Dst]))
        for (int K = 0; K < 2; ++K) {
          auto C = Const.find(S.Args[K]);
          if (C != Const.end() && C->second == 2.0)
            Twice[S.Dst] = S.Args[1 - K];
        }
    });
  }

  /// The divisions of \p B's statement \p S (and of the ifs in it) whose
  /// divisor is defined before S, by divisor.
  void collect(ir::Stmt &S, std::map<int, std::vector<ir::Stmt *>> &By) {
    std::set<int> Defined;
    std::vector<ir::Stmt *> Divs;
    auto Visit = [&](ir::Stmt &X) {
      if (X.Dst >= 0)
        Defined.insert(X.Dst);
      if (marked(X))
        Divs.push_back(&X);
    };
    Visit(S);
    if (S.K == ir::Stmt::If) {
      walkNoLoops(S.Then, Visit);
      walkNoLoops(S.Else, Visit);
    }
    // (A divisor 2 * d defined in S is fine: the product by 1/d does not
    // read it.)
    for (ir::Stmt *D : Divs)
      if (!Defined.count(base(D->Args[1])))
        By[base(D->Args[1])].push_back(D);
  }

  /// S = Div(g, D) or Div(g, 2 D) becomes DivR(g or g * H, D, R); H is
  /// the constant 1/2.
  void rewrite(ir::Stmt &S, int D, int R, int H) {
    int Num = S.Args[0];
    if (D != S.Args[1]) {
      // Just before the division: in its block.
      auto M = inst(F, Op::Mul, F.Temps[S.Dst], {Num, H});
      Num = M->Dst;
      Pending[&S].push_back(std::move(M));
    }
    S.Opc = Op::DivR;
    S.Args = {Num, D, R};
    S.IVal = 0;
  }

  // Statements to insert before a rewritten division (its g / 2).
  std::map<const ir::Stmt *, std::vector<std::unique_ptr<ir::Stmt>>> Pending;

  void block(ir::Block &B) {
    // Per divisor, the divisions in this block and its ifs (not loops) by
    // it, and the statement of this block before which its reciprocal goes.
    std::map<int, std::vector<ir::Stmt *>> By;
    std::map<int, size_t> FirstAt;
    for (size_t I = 0; I < B.size(); ++I) {
      std::map<int, std::vector<ir::Stmt *>> Here;
      collect(*B[I], Here);
      for (auto &KV : Here) {
        FirstAt.emplace(KV.first, I);
        auto &V = By[KV.first];
        V.insert(V.end(), KV.second.begin(), KV.second.end());
      }
    }
    // A divisor of one quotient keeps its division (the same quotient
    // twice, as reverse mode's two rules of a / b make it, counts once),
    // but a uniform divisor's reciprocal is one scalar division per call.
    std::map<size_t, std::vector<int>> RecipAt;
    for (auto &KV : By) {
      std::set<std::pair<int, int>> Nums;
      for (ir::Stmt *S : KV.second)
        Nums.insert({S->Args[0], S->Args[1]});
      int D = KV.first;
      bool Uniform = D < (int)U.VaryingTemp.size() && !U.VaryingTemp[D];
      if (Nums.size() >= 2 || Uniform)
        RecipAt[FirstAt[D]].push_back(D);
    }
    ir::Block Out;
    for (size_t I = 0; I < B.size(); ++I) {
      for (int D : RecipAt[I]) {
        int H = -1;
        for (ir::Stmt *S : By[D])
          if (S->Args[1] != D && H < 0) {
            auto C = inst(F, Op::ConstF, F.Temps[D], {});
            C->FVal = 0.5;
            H = C->Dst;
            Out.push_back(std::move(C));
          }
        auto R = inst(F, Op::Recip, F.Temps[D], {D});
        for (ir::Stmt *S : By[D])
          rewrite(*S, D, R->Dst, H);
        Out.push_back(std::move(R));
      }
      Out.push_back(std::move(B[I]));
    }
    B = std::move(Out);
    for (auto &S : B) {
      block(S->Then);
      block(S->Else);
      block(S->Body);
    }
    // The halved numerators, each right before its division.
    if (Pending.empty())
      return;
    ir::Block Done;
    for (auto &S : B) {
      auto It = Pending.find(S.get());
      if (It != Pending.end()) {
        for (auto &M : It->second)
          Done.push_back(std::move(M));
        Pending.erase(It);
      }
      Done.push_back(std::move(S));
    }
    B = std::move(Done);
  }
};

} // namespace

void shareReciprocals(ir::Function &F, int Mark) {
  Uniformity U = analyzeUniformity(F);
  Sharer S{F, Mark, U, {}, {}};
  S.findTwice();
  S.block(F.Body);
}

} // namespace batchdiff
