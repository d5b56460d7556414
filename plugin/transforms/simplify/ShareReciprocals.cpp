//===- ShareReciprocals.cpp - one reciprocal per divisor ------------------===//
#include "transforms/simplify/ShareReciprocals.h"

#include "analysis/Uniformity.h"
#include "transforms/simplify/CommonSubexpr.h"

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
  std::set<int> Ones; // the constant 1: 1 / b is the reciprocal itself

  bool marked(const ir::Stmt &S) const {
    return Mark != 0 && S.K == ir::Stmt::Inst && S.Opc == Op::Div &&
           S.IVal == Mark && S.Dst >= 0 && ir::isFloat(F.Temps[S.Dst]);
  }
  // A quotient of the primal's values (or of NAME_grad's, in NAME_hvp):
  // it keeps its bits (DivX). A uniform one stays a scalar division.
  bool primal(const ir::Stmt &S) const {
    return S.K == ir::Stmt::Inst && S.Opc == Op::Div && S.IVal == 0 &&
           S.Dst >= 0 && ir::isFloat(F.Temps[S.Dst]) &&
           S.Dst < (int)U.VaryingTemp.size() && U.VaryingTemp[S.Dst];
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
      if (S.Opc == Op::ConstF && S.FVal == 1.0)
        Ones.insert(S.Dst);
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
    int Loops; // loops enclosing the statement, itself not counted
  };
  std::vector<Frame> Frames; // the statements enclosing the walk's place
  std::vector<int> DefAt;    // per temp, the number of its definition
  int Count = 0;
  struct Group {
    size_t First;
    std::vector<ir::Stmt *> Divs;
    bool InLoop = false; // a division repeated by a loop below First
    int Var = -1;        // the divisor is this variable, read before First
  };
  // Keyed by the divisor: a temp, or -2 - v for variable v.
  std::map<std::pair<ir::Block *, int>, Group> Groups;

  // A loop reads a variable it does not write (softmax's `e_i / s`) by a
  // GetVar per iteration: the variables each loop writes.
  std::vector<int> ReadsVar; // per temp, the variable its GetVar reads
  std::map<const ir::Stmt *, std::set<int>> LoopWrites;
  /// Fills ReadsVar and LoopWrites; adds to \p Out (if any) the variables
  /// \p B writes, its loops' included.
  void collectWrites(const ir::Block &B, std::set<int> *Out) {
    for (const auto &S : B) {
      if (Out && S->K == ir::Stmt::Inst && S->Var >= 0 && S->Opc != Op::GetVar)
        Out->insert(S->Var);
      if (S->K == ir::Stmt::Inst && S->Opc == Op::GetVar && S->Dst >= 0 &&
          S->Dst < (int)ReadsVar.size())
        ReadsVar[S->Dst] = S->Var;
      collectWrites(S->Then, Out);
      collectWrites(S->Else, Out);
      if (S->K == ir::Stmt::Loop || S->K == ir::Stmt::RevLoop) {
        std::set<int> &W = LoopWrites[S.get()];
        collectWrites(S->Body, &W);
        if (Out)
          Out->insert(W.begin(), W.end());
      } else {
        collectWrites(S->Body, Out);
      }
    }
  }
  std::vector<size_t> LoopFrames; // the indices of Frames that are loops
  /// The outermost loop among Frames[0, End) whose body does not write \p V.
  std::vector<Frame>::iterator
  loopNotWriting(int V, std::vector<Frame>::iterator End) {
    for (size_t I : LoopFrames) {
      auto It = Frames.begin() + I;
      if (It >= End)
        break;
      if (!LoopWrites[(*It->B)[It->I].get()].count(V))
        return It;
    }
    return End;
  }

  // A loop's division by a divisor defined before the loop gets its
  // reciprocal before the loop: one division instead of one per iteration.
  void walk(ir::Block &B, int Loops) {
    for (size_t I = 0; I < B.size(); ++I) {
      ir::Stmt &S = *B[I];
      int Pre = Count++;
      if (S.Dst >= 0 && S.Dst < (int)DefAt.size())
        DefAt[S.Dst] = Pre;
      Frames.push_back({&B, I, Pre, Loops});
      bool Primal = primal(S);
      if (Primal || marked(S)) {
        int D = Primal ? S.Args[1] : base(S.Args[1]);
        auto It =
            std::upper_bound(Frames.begin(), Frames.end(), DefAt[D],
                             [](int V, const Frame &Fr) { return V < Fr.Pre; });
        int Key = D, V = ReadsVar[D];
        if (V >= 0) { // a variable's value: before a loop not writing it
          auto L = loopNotWriting(V, It);
          if (L != It)
            It = L, Key = -2 - V;
        }
        if (It != Frames.end()) { // (S itself starts after its divisor)
          auto &G = Groups[{It->B, Key}];
          G.First = G.Divs.empty() ? It->I : std::min(G.First, It->I);
          G.Divs.push_back(&S);
          G.InLoop |= Loops > It->Loops;
          G.Var = Key < 0 ? V : -1;
        }
      }
      bool Loop = S.K == ir::Stmt::Loop || S.K == ir::Stmt::RevLoop;
      walk(S.Then, Loops);
      walk(S.Else, Loops);
      if (Loop)
        LoopFrames.push_back(Frames.size() - 1);
      walk(S.Body, Loops + Loop);
      if (Loop)
        LoopFrames.pop_back();
      Frames.pop_back();
    }
  }

  /// Statements to insert: before a block's statement I (a reciprocal and
  /// its constant 1/2), and before a division (its numerator halved).
  std::map<ir::Block *, std::map<size_t, ir::Block>> AtIndex;
  std::map<const ir::Stmt *, ir::Block> BeforeDiv;

  void share(ir::Block *B, Group &G) {
    // The primal's quotients take the reciprocal only where a derivative
    // divides by the same divisor (the reciprocal is there anyway: each
    // quotient trades a division for about ten other instructions), or in
    // a loop (one division per call instead of one per iteration). Loop-
    // free NAME_batched kernels keep their divisions: reproj_batched, its
    // sin and cos keeping the other ports busier than the divider, was 10%
    // slower with 5 divisions made 2, bs_call_batched 3% with S / K from a
    // scalar reciprocal (docs/performance.md).
    bool Derivative = false;
    for (ir::Stmt *S : G.Divs)
      Derivative |= S->IVal != 0;
    if (!Derivative && !G.InLoop)
      return;
    // A divisor of one quotient keeps its division (the same quotient
    // twice, as reverse mode's two rules of a / b make it, counts once),
    // but a uniform divisor's reciprocal is one scalar division per call.
    std::set<std::pair<int, int>> Nums;
    for (ir::Stmt *S : G.Divs)
      Nums.insert({S->Args[0], S->Args[1]});
    // (each division's own divisor: a variable's are its reads)
    auto divisor = [&](const ir::Stmt &S) {
      return S.IVal == 0 ? S.Args[1] : base(S.Args[1]);
    };
    int D = divisor(*G.Divs.front());
    bool Uniform = D < (int)U.VaryingTemp.size() && !U.VaryingTemp[D];
    if (Nums.size() < 2 && !Uniform && !G.InLoop)
      return;
    ir::Block &Ins = AtIndex[B][G.First];
    int Of = D;
    if (G.Var >= 0) {
      auto Get = inst(F, Op::GetVar, F.Temps[D], {});
      Get->Var = G.Var;
      Of = Get->Dst;
      Ins.push_back(std::move(Get));
    }
    int H = -1;
    auto R = inst(F, Op::Recip, F.Temps[D], {Of});
    for (ir::Stmt *S : G.Divs) {
      int Num = S->Args[0], Dm = divisor(*S);
      if (S->IVal == 0) { // the primal's: the same bits
        if (Ones.count(Num)) {
          S->Opc = Op::Mul;
          S->Args = {Num, R->Dst};
        } else {
          S->Opc = Op::DivX;
          S->Args = {Num, Dm, R->Dst};
        }
        continue;
      }
      if (S->Args[1] != Dm) {
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
      S->Args = {Num, Dm, R->Dst};
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
    ReadsVar.assign(F.Temps.size(), -1);
    collectWrites(F.Body, nullptr);
    walk(F.Body, 0);
    for (auto &KV : Groups)
      share(KV.first.first, KV.second);
    insert(F.Body);
  }
};

} // namespace

void shareReciprocals(ir::Function &F, int Mark) {
  Uniformity U = analyzeUniformity(F);
  Sharer S{F, Mark, U, {}, {}, {}, {}, 0, {}, {}, {}, {}, {}, {}};
  S.run();
  // Reverse mode's two rules of a / b divide the same adjoint by b (d_a +=
  // g / b, d_b -= (g / b) q): one DivR. LLVM merged two divisions, but not
  // two DivR, whose rare-lane branch it keeps twice (lognormal_nll_grad 46.5
  // -> 43.75 instructions per example at 32 bytes, 19.0 -> 18.25 at 64).
  commonSubexpr(F, [](Op O) { return O == Op::DivR || O == Op::Recip; });
}

} // namespace batchdiff
