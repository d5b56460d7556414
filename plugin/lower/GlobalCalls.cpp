//===- GlobalCalls.cpp - globals around calls that may use them -----------===//
//
// A global scalar the function writes is one variable per example
// (LowerGlobal.cpp); a function of another file, or a body of this file a
// call keeps out of line (a string literal argument), may read or write
// the global itself. Such a call made once per example (docs/calls.md,
// "Calls of outside functions"; on the calling thread, in example order)
// where every path of the example to it has written the global gets the
// example's value in the global and leaves its own: the lane's value is
// stored into the global before the lane's call, the global read back
// after it, and the global's previous value put back (so that what the
// batch leaves there afterwards is still the wrapper's store of the last
// example's value). The value read back keeps the variable's derivative
// where it has the same bits (the callee did not change it; a value a
// callee writes carries none). Where some paths only have written it, a
// flag per example, set by its writes, says which examples do that; the
// others, as where no path has, call with the global as the batch (or the
// calls before) left it and read nothing back: the previous example's
// value is not detected (docs/calls.md). A _Bool global is an error
// (global-call-bool).
//
// A call of another file's batch function goes through its NAME_batched /
// NAME_grad, for the lanes together: it cannot see one example's value of a
// global, and what it leaves in one is one value for the batch. So where
// the function has written a global another file can name on some path to
// such a call, or reads one after the call that the call may have changed
// (OutsideGlobals.cpp's refreshed() globals, read again after calls made
// once per example), the global is passed and read back as above
// (syncAround), and the emitted call (emit/BatchedCall.cpp) makes the
// lanes call together only where the callee's file defines
// batchdiff.uses-no-global:NAME (written before) or
// batchdiff.sets-no-global:NAME (read after): its generated functions
// neither read nor write such a global, or write none (globalEffects). It
// refers to them weakly; where they are missing, each lane calls alone
// with the globals synchronized, on the calling thread. A _Bool global
// written before such a call keeps a strong reference (a link error).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <set>
#include <tuple>

namespace batchdiff {
namespace lowering {

using ir::Op;

namespace {

/// Whether a body, or a function it calls, names \p G (or calls a function
/// without a body that may: \p G has external linkage).
struct Names {
  const VarDecl *G;
  const SourceManager &SM;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;

  bool function(const FunctionDecl *FD) {
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->hasBody())
      return !FD->getBuiltinID() && !SM.isInSystemHeader(FD->getLocation()) &&
             G->hasExternalFormalLinkage();
    if (!Seen.insert(Def).second)
      return false;
    return stmt(Def->getBody());
  }

  bool stmt(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->getCanonicalDecl() == G)
        return true;
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
          FD && function(FD))
        return true;
    }
    for (const Stmt *C : astChildren(S))
      if (stmt(C))
        return true;
    return false;
  }
};

/// Whether variable V has been assigned on every path (Must) and on some
/// path (May) to each Op::Extern, over every pass of the loops around it.
struct Reach {
  int V;
  std::map<const ir::Stmt *, std::pair<bool, bool>> At;

  void walk(const ir::Block &B, bool &Must, bool &May) {
    for (const auto &S : B) {
      if (S->K == ir::Stmt::Inst) {
        if (S->Opc == Op::Extern) {
          auto [It, New] = At.insert({S.get(), {Must, May}});
          if (!New) {
            It->second.first &= Must;
            It->second.second |= May;
          }
        }
        if (S->Opc == Op::SetVar && S->Var == V)
          Must = May = true;
      } else if (S->K == ir::Stmt::If) {
        bool M1 = Must, Y1 = May, M2 = Must, Y2 = May;
        walk(S->Then, M1, Y1);
        walk(S->Else, M2, Y2);
        Must = M1 && M2;
        May = Y1 || Y2;
      } else {
        // A body runs at least once (loops are rotated); a second pass
        // starts from what the first may have written.
        bool M1 = Must, Y1 = May;
        walk(S->Body, M1, Y1);
        bool M2 = M1, Y2 = Y1;
        walk(S->Body, M2, Y2);
        Must = M1;
        May = Y2;
      }
    }
  }
};

/// The calls of another file's batch functions (Externs indices in
/// \p Batched) after which some path reads variable V before a call made
/// once per example reads the global back into it (a SetVar of V).
struct Stale {
  int V;
  const std::set<int> &Batched;
  std::set<int> Read;

  void walk(const ir::Block &B, std::set<int> &Since) {
    for (const auto &S : B) {
      if (S->K == ir::Stmt::Inst) {
        if (S->Opc == Op::GetVar && S->Var == V)
          Read.insert(Since.begin(), Since.end());
        if (S->Opc == Op::SetVar && S->Var == V)
          Since.clear();
        if (S->Opc == Op::Extern && Batched.count((int)S->IVal))
          Since.insert((int)S->IVal);
      } else if (S->K == ir::Stmt::If) {
        std::set<int> E = Since;
        walk(S->Then, Since);
        walk(S->Else, E);
        Since.insert(E.begin(), E.end());
      } else {
        walk(S->Body, Since);
        walk(S->Body, Since);
      }
    }
  }
};

/// The block holding \p S and its index there.
bool find(ir::Block &B, const ir::Stmt *S, ir::Block *&In, size_t &At) {
  for (size_t I = 0; I < B.size(); ++I) {
    if (B[I].get() == S) {
      In = &B;
      At = I;
      return true;
    }
    if (find(B[I]->Then, S, In, At) || find(B[I]->Else, S, In, At) ||
        find(B[I]->Body, S, In, At))
      return true;
  }
  return false;
}

} // namespace

bool Lowerer::mayUse(const FunctionDecl *Callee, const VarDecl *G) const {
  Names N{G->getCanonicalDecl(), Ctx.getSourceManager(), {}};
  return N.function(Callee);
}

void Lowerer::syncAround(const ir::Stmt *Call, const VarDecl *VD, int V,
                         int Flag, bool Before) {
  ir::Block *In = nullptr;
  size_t At = 0;
  if (!find(F.Body, Call, In, At))
    return;
  ir::Stmt &E = *(*In)[At];
  ir::ExternCall &X = F.Externs[E.IVal];
  Type T = F.Vars[V].Ty;
  ir::Block Pre, Post;
  ir::Builder PB(F, &Pre), QB(F, &Post);
  int Old = PB.get(V);
  if (Flag >= 0 || !Before) // (not global-carried's reads)
    SyncGets.insert(Pre.back().get());
  ir::ExternCall::Out O;
  E.Args.push_back(Old);
  O.Arg = (int)E.Args.size() - 1;
  int Set = -1;
  if (Flag >= 0) {
    Set = PB.get(Flag);
    E.Args.push_back(Set);
    O.Cond = (int)E.Args.size() - 1;
  }
  O.CType = VD->getType().getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
  O.Name = O.After = VD->getNameAsString();
  O.Before = Before;
  int R = F.newTemp(T);
  ir::Stmt &RS = QB.push(Op::ExternOut, R, {E.Dst});
  RS.IVal = (int64_t)X.Outs.size();
  RS.Site = E.Site;
  X.Outs.push_back(std::move(O));
  // (Where the example has not written it, its variable stays unwritten:
  // a read after the call is still global-carried's error.)
  if (Set >= 0)
    QB.setBlock(&QB.ifStmt(Set).Then);
  int New = R;
  if (ir::isFloat(T)) {
    Type IT = T == Type::F32 ? Type::I32 : Type::I64;
    int Same = QB.cmp(Op::CmpEQ, QB.bitcast(IT, R), QB.bitcast(IT, Old));
    New = QB.select(Same, Old, R);
  }
  QB.set(V, New);
  for (auto &N : llvm::reverse(Post))
    In->insert(In->begin() + (long)At + 1, std::move(N));
  for (auto &N : llvm::reverse(Pre))
    In->insert(In->begin() + (long)At, std::move(N));
}

bool Lowerer::globalCalls() {
  if (UsingCalls.empty() && RecursionCalls.empty())
    return true;
  // Written globals, in the order first written.
  std::vector<std::pair<const VarDecl *, int>> Written;
  for (const ir::Output &O : GlobalOuts)
    for (const auto &[VD, V] : GlobalVars)
      if (V == O.Var)
        Written.push_back({VD, V});
  recursionGlobals(Written);
  if (UsingCalls.empty())
    return !Failed;
  struct Sync {
    const ir::Stmt *Call;
    const VarDecl *VD;
    int V, Order;
    bool Must;
  };
  std::vector<Sync> Syncs;
  std::vector<std::tuple<const ir::Stmt *, const VarDecl *, int>> Unwritten;
  for (const auto &[VD, V] : Written) {
    Reach R{V, {}};
    bool Must = false, May = false;
    R.walk(F.Body, Must, May);
    // (In the order the calls were lowered.)
    std::vector<std::pair<const ir::Stmt *, std::pair<bool, bool>>> Calls(
        R.At.begin(), R.At.end());
    std::sort(Calls.begin(), Calls.end(), [](const auto &A, const auto &B) {
      return A.first->IVal < B.first->IVal;
    });
    unwrittenReads(Calls, VD, V, Unwritten);
    for (const auto &[S, MM] : Calls) {
      auto It = UsingCalls.find((int)S->IVal);
      if (It == UsingCalls.end() || !MM.second || !mayUse(It->second, VD))
        continue;
      ir::ExternCall &X = F.Externs[S->IVal];
      // (A _Bool global around another file's batch function: its file
      // must say it leaves such globals alone, else a link error.)
      if (X.Batched && F.Vars[V].Ty == Type::Bool) {
        X.Batched->NoUses = true;
        continue;
      }
      if (F.Vars[V].Ty == Type::Bool) {
        error(Sites[S->Site],
              "a call of '" + X.Name + "', which may use _Bool global '" +
                  VD->getNameAsString() + "' the function writes,",
              "use an int global, or pass the value as an argument");
        continue;
      }
      Syncs.push_back({S, VD, V, (int)Syncs.size(), MM.first});
    }
  }
  // Written on some paths to a call: a flag per example, set by its writes.
  std::map<int, int> Flags;
  for (const Sync &Y : Syncs)
    if (!Y.Must && !Flags.count(Y.V)) {
      int Flag = F.newVar(F.Vars[Y.V].Name + "_set", Type::Bool);
      flagWrites(F, F.Body, Y.V, Flag);
      ir::Builder PB(F, &Prologue);
      PB.set(Flag, PB.constB(false));
      Flags[Y.V] = Flag;
    }
  // In the order of the calls' lowering, then of the globals'.
  std::sort(Syncs.begin(), Syncs.end(), [](const Sync &A, const Sync &B) {
    return std::make_pair(A.Call->IVal, A.Order) <
           std::make_pair(B.Call->IVal, B.Order);
  });
  for (const Sync &Y : Syncs)
    syncAround(Y.Call, Y.VD, Y.V, Y.Must ? -1 : Flags[Y.V], true);
  for (const auto &[Call, VD, V] : Unwritten)
    syncAround(Call, VD, V, -1, false);
  // Globals read only, read after another file's batch function: read back
  // after the call (where its file does not say that it writes none, the
  // lanes call one at a time: emit/BatchedCall.cpp).
  if (Refreshed) {
    std::set<int> Batched;
    for (const auto &[K, FD] : UsingCalls)
      if (F.Externs[K].Batched)
        Batched.insert(K);
    std::map<int, const ir::Stmt *> CallAt;
    ir::walk(F.Body, [&](const ir::Stmt &S, int) {
      if (S.K == ir::Stmt::Inst && S.Opc == Op::Extern &&
          Batched.count((int)S.IVal))
        CallAt[(int)S.IVal] = &S;
    });
    for (const auto &[VD, V] : *Refreshed) {
      Stale S{V, Batched, {}};
      std::set<int> Since;
      S.walk(F.Body, Since);
      for (int K : S.Read)
        if (CallAt.count(K) && mayUse(UsingCalls[K], VD))
          syncAround(CallAt[K], VD, V, -1, false);
    }
  }
  return !Failed;
}

void Lowerer::unwrittenReads(
    const std::vector<std::pair<const ir::Stmt *, std::pair<bool, bool>>>
        &Calls,
    const VarDecl *VD, int V,
    std::vector<std::tuple<const ir::Stmt *, const VarDecl *, int>> &Out) {
  // Another file's batch functions reached by no write of V.
  std::set<int> Batched;
  std::map<int, const ir::Stmt *> At;
  for (const auto &[S, MM] : Calls) {
    auto It = UsingCalls.find((int)S->IVal);
    const ir::ExternCall &X = F.Externs[S->IVal];
    if (!MM.second && It != UsingCalls.end() && X.Batched &&
        F.Vars[V].Ty != Type::Bool && mayUse(It->second, VD)) {
      Batched.insert((int)S->IVal);
      At[(int)S->IVal] = S;
    }
  }
  if (Batched.empty())
    return;
  // Those after which V is read before it is written: what the call left,
  // read back, from a callee whose file says it sets the global on every
  // path (else a link error naming the symbol).
  Stale St{V, Batched, {}};
  std::set<int> Since;
  St.walk(F.Body, Since);
  for (int K : St.Read) {
    F.Externs[K].Batched->Sets.push_back(VD->getNameAsString());
    Out.push_back({At[K], VD, V});
  }
}

void Lowerer::recursionGlobals(
    const std::vector<std::pair<const VarDecl *, int>> &Written) {
  for (const auto &[VD, V] : Written) {
    Reach R{V, {}};
    bool Must = false, May = false;
    R.walk(F.Body, Must, May); // (Must: the function writes it on every path)
    std::vector<std::pair<const ir::Stmt *, std::pair<bool, bool>>> Calls;
    for (const auto &[S, MM] : R.At)
      if (auto It = RecursionCalls.find((int)S->IVal);
          It != RecursionCalls.end() && mayUse(It->second, VD))
        Calls.push_back({S, MM});
    std::sort(Calls.begin(), Calls.end(), [](const auto &A, const auto &B) {
      return A.first->IVal < B.first->IVal;
    });
    for (const auto &[S, MM] : Calls) {
      const ir::ExternCall &X = F.Externs[S->IVal];
      const FunctionDecl *Callee = RecursionCalls[(int)S->IVal];
      // Written on every path to the call: the example's value in the
      // global for the call, what the call left read back. Written on
      // none, by a function that writes it on every path: what the call
      // (the function itself) left, read back.
      bool Self = Callee->getCanonicalDecl() == Top->getCanonicalDecl();
      bool Ok = MM.first || (!MM.second && Self && Must);
      if (Ok && F.Vars[V].Ty != Type::Bool) {
        syncAround(S, VD, V, -1, MM.first);
        continue;
      }
      error(Sites[S->Site],
            "a recursive call of '" + X.Name + "' in a function that writes " +
                (F.Vars[V].Ty == Type::Bool ? "_Bool " : "") + "global '" +
                VD->getNameAsString() +
                (Ok ? "'" : "', where an example may not have written it"),
            Ok ? "use an int global, or pass the value as an argument"
               : "the call's run uses the global, so each example's call "
                 "is made with the global as the example left it and reads "
                 "back what the call left, which needs the global written "
                 "on every path to the call (or on none, and on every path "
                 "through the function); write it before the recursive call "
                 "on every path");
    }
  }
}

void Lowerer::globalEffects(bool &Sets, bool &Uses) const {
  Sets = Uses = false;
  for (const ir::ExternCall &X : F.Externs) {
    if (X.Why == ir::ExternCall::Library ||
        X.Why == ir::ExternCall::Recursion ||
        (X.Batched && X.Batched->SameFile))
      continue;
    // A helper computing in long double, run as the scalar function: it
    // writes nothing when it may run on any thread; it may read globals.
    if (X.Why == ir::ExternCall::LongDouble && X.AnyThread) {
      Uses = true;
      continue;
    }
    // A block run once (LowerInitOnce.cpp) writes static globals only; it
    // may read others.
    // A call with the callee's NAME_grad (LaneGrad.cpp) references the
    // symbol of its file saying that its generated functions write no
    // global another file can name, which holds for its scalar function,
    // the same code (emit/ExternCall.cpp); it may read some.
    if (X.Grad) {
      Uses = true;
      continue;
    }
    if (X.Why == ir::ExternCall::InitOnce) {
      for (const auto &[K, Blk] : InitCalls)
        for (const VarDecl *G : Blk.Reads)
          Uses |=
              G->hasExternalFormalLinkage() && !G->getType().isConstQualified();
      continue;
    }
    Sets = Uses = true;
    return;
  }
  for (const auto &[VD, V] : GlobalVars)
    if (VD->hasExternalFormalLinkage())
      Sets = Uses = true;
  for (const auto &[VD, P] : GlobalParams) {
    QualType T = VD->getType();
    if (VD->hasExternalFormalLinkage() && !T.isConstQualified() &&
        T->isScalarType())
      Uses = true;
  }
}

} // namespace lowering
} // namespace batchdiff
