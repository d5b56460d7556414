//===- HoistInvariants.cpp - loop-invariant code motion -------------------===//
#include "transforms/simplify/HoistInvariants.h"

#include "analysis/ReadOnlyArgs.h"

#include <map>
#include <optional>
#include <set>

namespace batchdiff {
namespace {

using ir::Op;

struct Hoister {
  const ir::Function &F;
  std::vector<bool> ReadOnly;
  std::map<int, int64_t> IntConsts; // temp -> value of its ConstI

  /// A read of an element of a read-only array parameter that every
  /// example has (an index below the extent its declaration gives, which
  /// the caller must provide: abi.md), so reading it for a lane that does
  /// not reach the read is harmless, and its value is the same anywhere.
  /// Coefficients `c[k]` read in a loop are then read once (a gather per
  /// trip before), and the gradient adds their adjoints once.
  bool elementEveryExampleHas(const ir::Stmt &S) const {
    if (S.Opc != Op::LoadArg || S.IVal < 0 ||
        (size_t)S.IVal >= ReadOnly.size() || !ReadOnly[S.IVal] ||
        S.Args.size() != 1)
      return false;
    const ir::Param &P = F.Params[S.IVal];
    auto It = IntConsts.find(S.Args[0]);
    return P.Declared && P.StaticLen > 0 && P.Record < 0 && P.Per == 0 &&
           It != IntConsts.end() && It->second >= 0 && It->second < P.StaticLen;
  }

  /// A read at the top of a loop's body (not under an if) that every lane
  /// entering the loop makes on its first trip, at the same index on every
  /// trip: a read of a scalar variable the loop does not write, or of a
  /// read-only array parameter at such an index. Made once before the loop
  /// it has the same lanes and values (`a[i]` in `for (j ...)` nested in
  /// `for (i ...)`: a gather per outer trip instead of per inner trip).
  bool topInvariantRead(const ir::Stmt &S, const std::set<int> &Written,
                        bool Calls) const {
    if (S.Opc == Op::GetVar)
      return !Calls && S.Var >= 0 && (size_t)S.Var < F.Vars.size() &&
             F.Vars[S.Var].Len == 0 && !Written.count(S.Var);
    return S.Opc == Op::LoadArg && S.IVal >= 0 &&
           (size_t)S.IVal < ReadOnly.size() && ReadOnly[S.IVal] &&
           F.Params[S.IVal].Record < 0;
  }

  void extract(ir::Block &B, std::set<int> &Defined, ir::Block &Out,
               const std::set<int> *Written = nullptr, bool Calls = false);
  void hoist(ir::Block &B);
};

/// Moves invariant statements of \p B, and of the ifs inside it (they are
/// pure: vector code never traps and the emitter makes integer division
/// safe, so running them where the if would not is harmless), to \p Out.
/// \p Written: at the top of a loop's body, the variables the loop writes
/// (\p Calls: it calls functions of other files), for topInvariantRead;
/// null inside its ifs.
void Hoister::extract(ir::Block &B, std::set<int> &Defined, ir::Block &Out,
                      const std::set<int> *Written, bool Calls) {
  ir::Block Kept;
  for (auto &XP : B) {
    if (XP->K == ir::Stmt::If) {
      extract(XP->Then, Defined, Out);
      extract(XP->Else, Defined, Out);
    }
    bool Invariant = XP->K == ir::Stmt::Inst && XP->Dst >= 0 &&
                     (ir::opPure(XP->Opc) || elementEveryExampleHas(*XP) ||
                      (Written && topInvariantRead(*XP, *Written, Calls)));
    for (int A : XP->Args)
      Invariant = Invariant && !Defined.count(A);
    if (Invariant) {
      Defined.erase(XP->Dst);
      Out.push_back(std::move(XP));
    } else {
      Kept.push_back(std::move(XP));
    }
  }
  B = std::move(Kept);
}

void Hoister::hoist(ir::Block &B) {
  ir::Block Out;
  for (auto &SP : B) {
    ir::Stmt &S = *SP;
    hoist(S.Then);
    hoist(S.Else);
    hoist(S.Body); // inner loops first: their invariants land in this body
    if (S.K == ir::Stmt::Loop) {
      std::set<int> Defined, Written;
      bool Calls = false;
      ir::walk(S.Body, [&](const ir::Stmt &X, int) {
        if (X.K == ir::Stmt::Inst && X.Dst >= 0)
          Defined.insert(X.Dst);
        if (X.K == ir::Stmt::Inst && X.Var >= 0 && X.Opc != Op::GetVar)
          Written.insert(X.Var);
        Calls |= X.K == ir::Stmt::Inst && X.Opc == Op::Extern;
      });
      extract(S.Body, Defined, Out, &Written, Calls);
    }
    Out.push_back(std::move(SP));
  }
  B = std::move(Out);
}

} // namespace

void hoistInvariants(ir::Function &F) {
  Hoister H{F, readOnlyArgs(F), {}};
  // Integer temps of known value (indices such as `i * 3 + j` of a loop
  // lowered as copies of its body), small enough that C's arithmetic of
  // any integer type gives the same.
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K != ir::Stmt::Inst || S.Dst < 0)
      return;
    ir::Type T = F.Temps[S.Dst];
    if (T != ir::Type::I32 && T != ir::Type::I64 && T != ir::Type::U32 &&
        T != ir::Type::U64)
      return;
    auto Arg = [&](size_t K) -> std::optional<int64_t> {
      auto It =
          K < S.Args.size() ? H.IntConsts.find(S.Args[K]) : H.IntConsts.end();
      if (It == H.IntConsts.end())
        return std::nullopt;
      return It->second;
    };
    std::optional<int64_t> V, A = Arg(0), B = Arg(1);
    if (S.Opc == Op::ConstI)
      V = S.IVal;
    else if (S.Opc == Op::Cast && A)
      V = A;
    else if (A && B && S.Opc == Op::Add)
      V = *A + *B;
    else if (A && B && S.Opc == Op::Sub)
      V = *A - *B;
    else if (A && B && S.Opc == Op::Mul)
      V = *A * *B;
    bool Unsigned = T == ir::Type::U32 || T == ir::Type::U64;
    if (V && *V < (int64_t(1) << 31) && *V > (Unsigned ? -1 : -(1 << 30)))
      H.IntConsts[S.Dst] = *V;
  });
  H.hoist(F.Body);
}

} // namespace batchdiff
