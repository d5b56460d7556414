//===- ShareReciprocals.cpp - one reciprocal per derivative divisor -------===//
#include "transforms/simplify/ShareReciprocals.h"

#include "analysis/Uniformity.h"

#include <algorithm>
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

  // One walk in program order, numbering the statements. A division goes
  // with the outermost enclosing statement (within its loop body) that
  // starts after its divisor's definition: the reciprocal goes before it.
  struct Frame {
    ir::Block *B;
    size_t I;
    int Pre;
  };
  std::vector<Frame> Frames; // the statements enclosing the walk's place
  std::vector<int> DefAt;    // per temp, the number of its definition
  int Count = 0;
  struct Group {
    size_t First;
    std::vector<ir::Stmt *> Divs;
  };
  std::map<std::pair<ir::Block *, int>, Group> Groups;

  void walk(ir::Block &B, size_t Scope) {
    for (size_t I = 0; I < B.size(); ++I) {
      ir::Stmt &S = *B[I];
      int Pre = Count++;
      if (S.Dst >= 0 && S.Dst < (int)DefAt.size())
        DefAt[S.Dst] = Pre;
      Frames.push_back({&B, I, Pre});
      if (marked(S)) {
        int D = base(S.Args[1]);
        auto It = std::upper_bound(
            Frames.begin() + Scope, Frames.end(), DefAt[D],
            [](int V, const Frame &Fr) { return V < Fr.Pre; });
        if (It != Frames.end()) { // (S itself starts after its divisor)
          auto &G = Groups[{It->B, D}];
          G.First = G.Divs.empty() ? It->I : std::min(G.First, It->I);
          G.Divs.push_back(&S);
        }
      }
      walk(S.Then, Scope);
      walk(S.Else, Scope);
      walk(S.Body, Frames.size());
      Frames.pop_back();
    }
  }

  /// Statements to insert: before a block's statement I (a reciprocal and
  /// its constant 1/2), and before a division (its numerator halved).
  std::map<ir::Block *, std::map<size_t, ir::Block>> AtIndex;
  std::map<const ir::Stmt *, ir::Block> BeforeDiv;

  void share(ir::Block *B, int D, Group &G) {
    // A divisor of one quotient keeps its division (the same quotient
    // twice, as reverse mode's two rules of a / b make it, counts once),
    // but a uniform divisor's reciprocal is one scalar division per call.
    std::set<std::pair<int, int>> Nums;
    for (ir::Stmt *S : G.Divs)
      Nums.insert({S->Args[0], S->Args[1]});
    bool Uniform = D < (int)U.VaryingTemp.size() && !U.VaryingTemp[D];
    if (Nums.size() < 2 && !Uniform)
      return;
    ir::Block &Ins = AtIndex[B][G.First];
    int H = -1;
    auto R = inst(F, Op::Recip, F.Temps[D], {D});
    for (ir::Stmt *S : G.Divs) {
      int Num = S->Args[0];
      if (S->Args[1] != D) {
        if (H < 0) {
          auto C = inst(F, Op::ConstF, F.Temps[D], {});
          C->FVal = 0.5;
          H = C->Dst;
          Ins.push_back(std::move(C));
        }
        auto M = inst(F, Op::Mul, F.Temps[S->Dst], {Num, H});
        Num = M->Dst;
        BeforeDiv[S].push_back(std::move(M));
      }
      S->Opc = Op::DivR;
      S->Args = {Num, D, R->Dst};
      S->IVal = 0;
    }
    Ins.push_back(std::move(R));
  }

  void insert(ir::Block &B) {
    auto At = AtIndex.find(&B);
    bool Any = At != AtIndex.end();
    for (auto &S : B)
      Any |= BeforeDiv.count(S.get()) > 0;
    if (Any) {
      ir::Block Out;
      for (size_t I = 0; I < B.size(); ++I) {
        if (At != AtIndex.end() && At->second.count(I))
          for (auto &X : At->second[I])
            Out.push_back(std::move(X));
        auto Bd = BeforeDiv.find(B[I].get());
        if (Bd != BeforeDiv.end())
          for (auto &X : Bd->second)
            Out.push_back(std::move(X));
        Out.push_back(std::move(B[I]));
      }
      B = std::move(Out);
    }
    for (auto &S : B) {
      insert(S->Then);
      insert(S->Else);
      insert(S->Body);
    }
  }

  void run() {
    findTwice();
    DefAt.assign(F.Temps.size(), -1);
    walk(F.Body, 0);
    for (auto &KV : Groups)
      share(KV.first.first, KV.first.second, KV.second);
    insert(F.Body);
  }
};

} // namespace

void shareReciprocals(ir::Function &F, int Mark) {
  Uniformity U = analyzeUniformity(F);
  Sharer S{F, Mark, U, {}, {}, {}, 0, {}, {}, {}};
  S.run();
}

} // namespace batchdiff
