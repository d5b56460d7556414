//===- MinMaxTies.cpp - which zero fmin/fmax return on a tie --------------===//
//
// Mirrors what LLVM's x86 lowering of llvm.minnum/maxnum asks
// (SelectionDAG::isKnownNeverNaN, within one basic block): constants,
// integer-to-floating conversions, and fabs/neg/copysign/select/fmin/fmax
// of such values. An IR block stands for a basic block; a value defined in
// another block is unknown (a register copy in LLVM's view), except
// constants, which LLVM rematerialises where they are used.
//
//===----------------------------------------------------------------------===//
#include "transforms/simplify/MinMaxTies.h"

#include <cmath>
#include <unordered_map>

namespace batchdiff {
namespace {

using ir::Op;

struct Ties {
  ir::Function &F;
  struct Def {
    const ir::Stmt *S;
    const ir::Block *In;
  };
  std::unordered_map<int, Def> Defs;

  void collect(const ir::Block &B) {
    for (const auto &SP : B) {
      if (SP->K == ir::Stmt::Inst && SP->Dst >= 0)
        Defs[SP->Dst] = {SP.get(), &B};
      collect(SP->Then);
      collect(SP->Else);
      collect(SP->Body);
    }
  }

  /// Blocks inside a loop that leave it (a return or break sets its flag):
  /// LLVM merges what the iterations (unrolled, say) compute there into a
  /// phi at the loop's exit, so a converted loop counter is unknown there.
  std::unordered_map<const ir::Block *, bool> ExitPath;

  void exits(const ir::Block &B, int LoopDepth) {
    bool Leaves = false;
    for (const auto &SP : B) {
      if (SP->K == ir::Stmt::Inst && SP->Opc == Op::SetVar &&
          (F.Vars[SP->Var].Name == "__returned" ||
           F.Vars[SP->Var].Name == "__break"))
        Leaves = true;
      int D = LoopDepth + (SP->K == ir::Stmt::Loop ? 1 : 0);
      exits(SP->Then, D);
      exits(SP->Else, D);
      exits(SP->Body, D);
    }
    ExitPath[&B] = Leaves && LoopDepth > 0;
  }

  bool notNaN(int T, const ir::Block *At, int Depth = 0) const {
    auto It = Defs.find(T);
    if (It == Defs.end() || Depth > 8)
      return false;
    const ir::Stmt &S = *It->second.S;
    if (S.Opc == Op::ConstF)
      return !std::isnan(S.FVal);
    if (It->second.In != At)
      return false;
    auto Arg = [&](int I) { return notNaN(S.Args[I], At, Depth + 1); };
    switch (S.Opc) {
    case Op::Cast:
      if (ir::isFloat(F.Temps[S.Args[0]]))
        return Arg(0);
      return !ExitPath.count(At) || !ExitPath.at(At);
    case Op::Neg:
      return Arg(0);
    case Op::Select:
      return Arg(1) && Arg(2);
    case Op::Math:
      switch (S.Fn) {
      case ir::MathFn::Fabs:
      case ir::MathFn::Copysign:
        return Arg(0);
      case ir::MathFn::Fmin:
      case ir::MathFn::Fmax:
        return Arg(0) || Arg(1);
      default:
        return false;
      }
    default:
      return false;
    }
  }

  void mark(ir::Block &B) {
    for (auto &SP : B) {
      ir::Stmt &S = *SP;
      if (S.K == ir::Stmt::Inst && S.Opc == Op::Math &&
          (S.Fn == ir::MathFn::Fmin || S.Fn == ir::MathFn::Fmax))
        S.IVal = notNaN(S.Args[1], &B) ? 1 : 0;
      mark(S.Then);
      mark(S.Else);
      mark(S.Body);
    }
  }
};

} // namespace

void markMinMaxTies(ir::Function &F) {
  Ties T{F, {}, {}};
  T.collect(F.Body);
  T.exits(F.Body, 0);
  T.mark(F.Body);
}

} // namespace batchdiff
