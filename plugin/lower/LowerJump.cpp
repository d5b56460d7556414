//===- LowerJump.cpp - goto and switch as structured control flow ---------===//
//
// Both lower to the flags returns and break/continue use (LowerStmt.cpp):
//
// - `goto L` sets a flag `__goto_L`; everything between the goto and the
//   label runs only where the flag is clear (loops it leaves stop, a switch
//   it leaves runs no more cases), and the flag is cleared where the label
//   is. A label that gotos later in its own statement list jump back to
//   starts a loop over the statements up to the last such goto, repeated
//   while the flag is set. The label must be in a statement list around the
//   goto (jumps into a block, loop or case cannot be structured this way).
// - `switch`: each run of statements between case labels runs where the
//   selector matched one of its labels or the previous run fell through.
//
// Every example takes its own path: flags are per-lane variables, so the
// batcher masks them and the reverse sweep follows each lane's jumps.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace batchdiff {
namespace lowering {

namespace {

void gotosIn(const Stmt *S, llvm::SmallVectorImpl<const GotoStmt *> &Out) {
  if (!S)
    return;
  if (const auto *GS = dyn_cast<GotoStmt>(S))
    Out.push_back(GS);
  for (const Stmt *C : astChildren(S))
    gotosIn(C, Out);
}

void labelStmtsIn(const Stmt *S, llvm::SmallPtrSetImpl<const Stmt *> &Out) {
  if (!S)
    return;
  if (isa<LabelStmt>(S))
    Out.insert(S);
  for (const Stmt *C : astChildren(S))
    labelStmtsIn(C, Out);
}

/// The labels written in front of \p S (`a: b: s`).
llvm::SmallVector<const LabelDecl *, 1> labelsAt(const Stmt *S) {
  llvm::SmallVector<const LabelDecl *, 1> Out;
  while (const auto *LS = dyn_cast_or_null<LabelStmt>(S)) {
    Out.push_back(LS->getDecl());
    S = LS->getSubStmt();
  }
  return Out;
}

/// A case or default label somewhere inside \p S, not of a nested switch.
const SwitchCase *nestedCase(const Stmt *S) {
  if (!S || isa<SwitchStmt>(S))
    return nullptr;
  if (const auto *SC = dyn_cast<SwitchCase>(S))
    return SC;
  for (const Stmt *C : astChildren(S))
    if (const SwitchCase *SC = nestedCase(C))
      return SC;
  return nullptr;
}

/// \p S always leaves by return or goto (a copy of it lowered where a
/// goto is always returns Ret::Always).
bool alwaysLeaves(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S))
    return true;
  if (const auto *LS = dyn_cast<LabelStmt>(S))
    return alwaysLeaves(LS->getSubStmt());
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(CS->body(), alwaysLeaves);
  if (const auto *IS = dyn_cast<IfStmt>(S))
    return alwaysLeaves(IS->getThen()) && alwaysLeaves(IS->getElse());
  return false;
}

void addUnique(std::vector<int> &Vars, int V) {
  if (V >= 0 && std::find(Vars.begin(), Vars.end(), V) == Vars.end())
    Vars.push_back(V);
}

} // namespace

namespace {

/// The parent of every statement under \p S, and the statement declaring
/// each local variable.
void parents(const Stmt *S, const Stmt *Parent,
             llvm::DenseMap<const Stmt *, const Stmt *> &Up,
             llvm::DenseMap<const VarDecl *, const Stmt *> &DeclAt) {
  if (!S)
    return;
  Up[S] = Parent;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        DeclAt[VD] = DS;
  for (const Stmt *C : astChildren(S))
    parents(C, S, Up, DeclAt);
}

bool under(const Stmt *S, const Stmt *Anc,
           const llvm::DenseMap<const Stmt *, const Stmt *> &Up) {
  for (; S; S = Up.lookup(S))
    if (S == Anc)
      return true;
  return false;
}

/// Local variables \p S reads or writes.
void varsIn(const Stmt *S, llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      if (VD->isLocalVarDecl())
        Out.insert(VD);
  for (const Stmt *C : astChildren(S))
    varsIn(C, Out);
}

/// Whether each of \p Vars (locals declared where a goto is not) is a
/// scalar that a statement of \p Tail assigns (`v = e;`, e not using v)
/// before any statement uses it; those in \p Fresh, in that order.
bool assignedFirst(llvm::ArrayRef<const Stmt *> Tail,
                   const llvm::SmallPtrSetImpl<const VarDecl *> &Vars,
                   std::vector<const VarDecl *> &Fresh) {
  llvm::SmallPtrSet<const VarDecl *, 4> Done;
  auto Used = [&](const Stmt *S) {
    llvm::SmallPtrSet<const VarDecl *, 8> In;
    varsIn(S, In);
    for (const VarDecl *VD : In)
      if (Vars.count(VD) && !Done.count(VD))
        return true;
    return false;
  };
  for (const Stmt *S : Tail) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    const auto *DRE = BO && BO->getOpcode() == BO_Assign
                          ? dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens())
                          : nullptr;
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && Vars.count(VD) && !Done.count(VD)) {
      if (Used(BO->getRHS()) || VD->isStaticLocal() || !irType(VD->getType()))
        return false;
      Done.insert(VD);
      Fresh.push_back(VD);
      continue;
    }
    if (Used(S))
      return false;
  }
  return true;
}

} // namespace

void Lowerer::collectTargets(const Stmt *Body) {
  llvm::SmallVector<const GotoStmt *, 4> Gotos;
  gotosIn(Body, Gotos);
  llvm::SmallPtrSet<const LabelDecl *, 4> Into; // some goto enters a block
  llvm::DenseMap<const Stmt *, const Stmt *> Up;
  llvm::DenseMap<const VarDecl *, const Stmt *> DeclAt;
  if (!Gotos.empty())
    parents(Body, nullptr, Up, DeclAt);
  for (const GotoStmt *GS : Gotos) {
    // The label's statement (the outermost of `a: b: s`) and its list.
    const Stmt *LS = GS->getLabel()->getStmt();
    while (LS && isa_and_nonnull<LabelStmt>(Up.lookup(LS)))
      LS = Up.lookup(LS);
    const Stmt *List = LS ? Up.lookup(LS) : nullptr;
    if (!LS || !List || under(GS, List, Up)) {
      Targets.insert(GS->getLabel()); // a flag (jumpSeq), or the error
      continue;
    }
    Into.insert(GS->getLabel());
    // Into a block: the statements from the label to the end of its list
    // can stand in for the goto if they leave only by return or by a goto
    // that could be made where this one is (cephes' `under: mtherr(...);
    // x = 0.0; goto done;`), use no variable declared where the goto is
    // not, and hold no label and no other jump.
    std::vector<const Stmt *> Tail;
    const Stmt *First = LS;
    while (const auto *L = dyn_cast<LabelStmt>(First))
      First = L->getSubStmt();
    Tail.push_back(First);
    if (const auto *CS = dyn_cast<CompoundStmt>(List)) {
      auto It = std::find(CS->body_begin(), CS->body_end(), LS);
      if (It != CS->body_end())
        for (++It; It != CS->body_end(); ++It)
          Tail.push_back(*It);
    }
    bool Ok = true;
    llvm::SmallPtrSet<const VarDecl *, 8> Vars;
    for (const Stmt *S : Tail) {
      llvm::SmallVector<const GotoStmt *, 2> Inner;
      llvm::SmallPtrSet<const Stmt *, 2> Labels;
      gotosIn(S, Inner);
      labelStmtsIn(S, Labels);
      Ok &= Labels.empty() && !escapes(S, true) && !escapes(S, false) &&
            !nestedCase(S);
      for (const GotoStmt *IG : Inner) {
        const Stmt *IL = IG->getLabel()->getStmt();
        while (IL && isa_and_nonnull<LabelStmt>(Up.lookup(IL)))
          IL = Up.lookup(IL);
        const Stmt *IList = IL ? Up.lookup(IL) : nullptr;
        Ok &= IList && under(GS, IList, Up) && under(IG, IList, Up);
      }
      varsIn(S, Vars);
    }
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::SmallPtrSet<const VarDecl *, 4> Unseen;
    for (const VarDecl *VD : Vars) {
      const Stmt *DS = DeclAt.lookup(VD);
      bool InTail = false;
      for (const Stmt *S : Tail)
        InTail |= DS && under(DS, S, Up);
      bool Seen =
          DS && under(GS, Up.lookup(DS), Up) &&
          SM.isBeforeInTranslationUnit(DS->getBeginLoc(), GS->getBeginLoc());
      if (!InTail && !Seen)
        Unseen.insert(VD);
    }
    std::vector<const VarDecl *> Fresh;
    Ok &= assignedFirst(Tail, Unseen, Fresh);
    if (Ok) {
      Tails[GS] = std::move(Tail);
      if (!Fresh.empty())
        TailLocals[GS] = std::move(Fresh);
    } else {
      Targets.insert(GS->getLabel());
    }
  }
  // A label some goto can reach only by entering blocks: entered through
  // the ifs around it when every goto to it is a forward one from the list
  // that holds them (cephes round.c's `goto rndup;`).
  llvm::SmallPtrSet<const LabelDecl *, 4> Done;
  for (const GotoStmt *GS : Gotos) {
    const LabelDecl *L = GS->getLabel();
    if (!Into.count(L) || !Done.insert(L).second)
      continue;
    llvm::SmallVector<const GotoStmt *, 4> Mine;
    bool Copies = true; // every goto a copy of statements that leave
    for (const GotoStmt *G : Gotos)
      if (G->getLabel() == L) {
        Mine.push_back(G);
        auto T = Tails.find(G);
        Copies &= T != Tails.end() && llvm::any_of(T->second, alwaysLeaves);
      }
    if (Copies)
      continue;
    Entry E;
    if (!enterable(L, Mine, Up, DeclAt, E))
      continue;
    for (const GotoStmt *G : Mine)
      Tails.erase(G);
    Targets.insert(L);
    Entries[L] = std::move(E);
  }
}

/// Whether gotos \p Gotos can enter the blocks around label \p L: the
/// label lies in statement Outer of a list that holds every goto in a
/// statement before Outer, down a path of blocks, ifs and labels only;
/// the statements that path skips declare nothing read after them and
/// hold no label or goto. Fills \p E.
bool Lowerer::enterable(
    const LabelDecl *L, llvm::ArrayRef<const GotoStmt *> Gotos,
    const llvm::DenseMap<const Stmt *, const Stmt *> &Up,
    const llvm::DenseMap<const VarDecl *, const Stmt *> &DeclAt, Entry &E) {
  const Stmt *A = L->getStmt();
  const CompoundStmt *List = nullptr;
  std::vector<const Stmt *> Skipped;
  while (A) {
    E.Path.insert(A);
    const Stmt *P = Up.lookup(A);
    const auto *CS = dyn_cast_or_null<CompoundStmt>(P);
    if (CS && llvm::all_of(
                  Gotos, [&](const GotoStmt *G) { return under(G, CS, Up); })) {
      List = CS;
      break;
    }
    if (const auto *IS = dyn_cast_or_null<IfStmt>(P)) {
      if (A != IS->getThen() && A != IS->getElse())
        return false;
    } else if (CS) {
      for (const Stmt *S : CS->body()) {
        if (S == A)
          break;
        Skipped.push_back(S);
        if (isa<DeclStmt>(S))
          return false;
      }
    } else if (!isa_and_nonnull<LabelStmt>(P)) {
      return false; // a loop, a switch or a case: not entered this way
    }
    A = P;
  }
  if (!List || isa_and_nonnull<SwitchStmt>(Up.lookup(List)))
    return false;
  E.Outer = A;
  auto Pos = [&](const Stmt *S) {
    while (Up.lookup(S) != List)
      S = Up.lookup(S);
    return std::find(List->body_begin(), List->body_end(), S) -
           List->body_begin();
  };
  auto J = Pos(A);
  auto First = J;
  for (const GotoStmt *G : Gotos) {
    if (Pos(G) >= J)
      return false; // only forward gotos from before the label's statement
    First = std::min(First, Pos(G));
  }
  // Statements of the list between the first goto and Outer: skipped by
  // the flag as usual; they must declare nothing read from Outer on.
  llvm::SmallPtrSet<const VarDecl *, 8> After;
  for (auto I = J; I < (long)List->size(); ++I)
    varsIn(List->body_begin()[I], After);
  for (const VarDecl *VD : After)
    for (auto I = First + 1; I < J; ++I)
      if (const Stmt *DS = DeclAt.lookup(VD);
          DS && under(DS, List->body_begin()[I], Up))
        return false;
  // Statements before the path inside Outer: skipped by the entering lanes.
  for (const Stmt *S : Skipped) {
    llvm::SmallVector<const GotoStmt *, 2> In;
    llvm::SmallPtrSet<const Stmt *, 2> Labels;
    gotosIn(S, In);
    labelStmtsIn(S, Labels);
    if (!In.empty() || !Labels.empty() || nestedCase(S))
      return false;
  }
  return true;
}

bool Lowerer::returns(const Stmt *S) const {
  if (mayReturn(S))
    return true;
  if (Tails.empty())
    return false;
  llvm::SmallVector<const GotoStmt *, 4> Gotos;
  gotosIn(S, Gotos);
  for (const GotoStmt *GS : Gotos)
    if (Tails.count(GS))
      return true;
  return false;
}

void Lowerer::jumpVars(const Stmt *St, std::vector<int> &Out) {
  if (LabelFlag.empty())
    return;
  llvm::SmallVector<const GotoStmt *, 4> Gotos;
  jumpsIn(St, Gotos);
  if (Gotos.empty())
    return;
  llvm::SmallPtrSet<const Stmt *, 4> Inside;
  labelStmtsIn(St, Inside);
  // A goto to a label in front of St itself (`retry: { ... goto retry; }`)
  // jumps back to St's start: it leaves St like a jump out of it, and what
  // follows St must not run after it.
  for (const auto *LS = dyn_cast_or_null<LabelStmt>(St); LS;
       LS = dyn_cast_or_null<LabelStmt>(LS->getSubStmt()))
    Inside.erase(LS);
  for (const GotoStmt *GS : Gotos) {
    auto It = LabelFlag.find(GS->getLabel());
    if (It != LabelFlag.end() && !Inside.count(GS->getLabel()->getStmt()))
      addUnique(Out, It->second);
  }
}

void Lowerer::jumpsIn(const Stmt *S,
                      llvm::SmallVectorImpl<const GotoStmt *> &Out) const {
  size_t From = Out.size();
  gotosIn(S, Out);
  // A goto into a block lowered as a copy of the statements from its label
  // on makes their gotos where it is.
  for (size_t I = From, E = Out.size(); I < E; ++I)
    if (auto T = Tails.find(Out[I]); T != Tails.end())
      for (const Stmt *TS : T->second)
        gotosIn(TS, Out);
}

void Lowerer::exitVars(const Stmt *St, std::vector<int> &Out) {
  if (returns(St))
    addUnique(Out, Frames.back().RetFlag);
  if (!Loops.empty()) {
    if (escapes(St, true))
      addUnique(Out, Loops.back().BrkVar);
    if (escapes(St, false))
      addUnique(Out, Loops.back().CntVar);
  }
  jumpVars(St, Out);
}

int Lowerer::anyOf(const std::vector<int> &Vars) {
  int Acc = -1;
  for (int V : Vars) {
    int T = B.get(V);
    Acc = Acc < 0 ? T : B.bin(Op::Or, Acc, T);
  }
  return Acc;
}

bool Lowerer::hasNewTarget(llvm::ArrayRef<const Stmt *> List) {
  if (Targets.empty())
    return false;
  for (const Stmt *S : List) {
    for (const LabelDecl *L : labelsAt(S))
      if (Targets.count(L) && !LabelFlag.count(L))
        return true;
    for (const auto &[L, E] : Entries)
      if (E.Outer == S && !LabelFlag.count(L))
        return true;
  }
  return false;
}

void Lowerer::enteringFlags(const Stmt *S, std::vector<int> &Out) const {
  for (const auto &[L, E] : Entries)
    if (E.Path.count(S))
      if (auto It = LabelFlag.find(L); It != LabelFlag.end())
        addUnique(Out, It->second);
}

std::optional<Ret> Lowerer::enterList(llvm::ArrayRef<const Stmt *> List) {
  for (size_t K = 1; K < List.size(); ++K) {
    std::vector<int> Flags;
    enteringFlags(List[K], Flags);
    if (Flags.empty())
      continue;
    // The statements before the one on the way to the label run only where
    // no goto to it was taken; the rest where none of them left.
    ir::Block *Saved = B.block();
    ir::Stmt &If = B.ifStmt(B.un(Op::Not, anyOf(Flags)));
    B.setBlock(&If.Then);
    Ret R1 = stmtList(List.take_front(K));
    B.setBlock(Saved);
    if (Failed)
      return Ret::Never;
    std::vector<int> Exits;
    for (size_t I = 0; I < K; ++I)
      exitVars(List[I], Exits);
    int Out = R1 == Ret::Never ? -1 : anyOf(Exits);
    if (Out >= 0) {
      ir::Stmt &Rest = B.ifStmt(B.un(Op::Not, Out));
      B.setBlock(&Rest.Then);
    }
    Ret R2 = stmtList(List.drop_front(K));
    B.setBlock(Saved);
    if (R2 == Ret::Always)
      return Ret::Always;
    return R1 != Ret::Never || R2 != Ret::Never ? Ret::Maybe : Ret::Never;
  }
  return std::nullopt;
}

/// An if on the way to an entered label: lanes that took a goto to it take
/// the side that holds it without evaluating the condition.
Ret Lowerer::enterIf(const IfStmt *IS, const std::vector<int> &ToThen,
                     const std::vector<int> &ToElse) {
  std::vector<int> All = ToThen;
  for (int V : ToElse)
    addUnique(All, V);
  int CV = F.newVar("__enter", Type::Bool);
  B.set(CV, ToThen.empty() ? B.constB(false) : anyOf(ToThen));
  ir::Block *Saved = B.block();
  ir::Stmt &G = B.ifStmt(B.un(Op::Not, anyOf(All)));
  B.setBlock(&G.Then);
  int C = cond(IS->getCond());
  if (C >= 0)
    B.set(CV, C);
  B.setBlock(Saved);
  if (C < 0)
    return Ret::Never;
  return ifSides(IS, B.get(CV));
}

Ret Lowerer::gotoStmt(const GotoStmt *GS) {
  auto It = LabelFlag.find(GS->getLabel());
  // Into a block: a copy of the statements from the label on, which
  // return (lowered again here, as an inlined helper's body is each time).
  if (auto T = Tails.find(GS); It == LabelFlag.end() && T != Tails.end()) {
    // Locals the copy assigns before use but the goto does not see: the
    // copy's own (the block's declaration is lowered later, or was on
    // another path).
    llvm::SmallVector<std::pair<const VarDecl *, int>, 2> Saved;
    for (const VarDecl *VD : TailLocals.lookup(GS)) {
      auto &Vars = Frames.back().Vars;
      auto Old = Vars.find(VD);
      Saved.push_back({VD, Old == Vars.end() ? -1 : Old->second});
      Type IT = *irType(VD->getType());
      int V = F.newVar(VD->getNameAsString(), IT);
      B.set(V, zeroOf(IT));
      Vars[VD] = V;
    }
    Ret R = stmtList(T->second);
    for (auto [VD, Old] : Saved) {
      if (Old < 0)
        Frames.back().Vars.erase(VD);
      else
        Frames.back().Vars[VD] = Old;
    }
    if (R == Ret::Always || Failed)
      return R;
  }
  if (It == LabelFlag.end()) {
    error(GS->getGotoLoc(),
          "'goto " + GS->getLabel()->getNameAsString() +
              "' into a block, loop or case it is not in",
          "a goto may jump forward into ifs and blocks (not past a "
          "declaration used after the label), or to a label in its own "
          "block or one around it (forward: 'goto done;', backward: a "
          "retry loop)");
    return Ret::Never;
  }
  B.set(It->second, B.constB(true));
  return Ret::Always;
}

/// A statement list with labels some goto jumps to. The list is cut into
/// units (one statement, or a loop of statements a backward goto repeats)
/// and the units into segments that start where a forward goto lands; each
/// segment runs unless a flag set before it says control is elsewhere.
Ret Lowerer::labeledList(llvm::ArrayRef<const Stmt *> List) {
  JumpList JL;
  JL.List = List;
  JL.At.resize(List.size());
  std::vector<const LabelDecl *> Mine;
  for (size_t I = 0; I < List.size(); ++I) {
    llvm::SmallVector<const LabelDecl *, 2> Here = labelsAt(List[I]);
    for (const auto &[L, E] : Entries)
      if (E.Outer == List[I])
        Here.push_back(L);
    for (const LabelDecl *L : Here)
      if (Targets.count(L) && !LabelFlag.count(L)) {
        int V = F.newVar("__goto_" + L->getNameAsString(), Type::Bool);
        B.set(V, B.constB(false));
        LabelFlag[L] = V;
        Mine.push_back(L);
        JL.At[I].push_back(L);
        JL.Pos[L] = I;
      }
  }
  for (size_t I = 0; I < List.size(); ++I) {
    llvm::SmallVector<const GotoStmt *, 4> Gotos;
    jumpsIn(List[I], Gotos);
    for (const GotoStmt *GS : Gotos) {
      auto It = JL.Pos.find(GS->getLabel());
      if (It == JL.Pos.end())
        continue;
      if (I >= It->second)
        JL.Back[GS->getLabel()] = std::max(JL.Back[GS->getLabel()], I + 1);
      else if (!JL.FirstFrom.count(GS->getLabel()))
        JL.FirstFrom[GS->getLabel()] = I;
    }
  }
  Ret R = jumpSeq(JL, 0, List.size(), false);
  for (const LabelDecl *L : Mine)
    LabelFlag.erase(L);
  return R;
}

/// The end (exclusive) of the loop a backward goto makes at \p I, or 0.
size_t Lowerer::loopEnd(const JumpList &JL, size_t I) {
  size_t End = 0;
  for (const LabelDecl *L : JL.At[I])
    if (auto It = JL.Back.find(L); It != JL.Back.end())
      End = std::max(End, It->second);
  return End;
}

Ret Lowerer::jumpSeq(const JumpList &JL, size_t Lo, size_t Hi, bool HeadDone) {
  struct Unit {
    size_t Begin, End;
    bool Loop;
  };
  std::vector<Unit> Units;
  for (size_t I = Lo; I < Hi;) {
    size_t End = (I == Lo && HeadDone) ? 0 : loopEnd(JL, I);
    if (End == 0) {
      Units.push_back({I, I + 1, false});
      ++I;
      continue;
    }
    // A backward goto from beyond this loop to a label inside it would
    // enter the loop in the middle (Hi: the same, for the loop around).
    for (size_t J = I + 1; J < End; ++J)
      if (loopEnd(JL, J) > End || End > Hi) {
        error(JL.List[J]->getBeginLoc(),
              "a label that a backward 'goto' jumps to from beyond the loop "
              "another backward 'goto' forms",
              "nest the jumps: a backward goto may jump only within the "
              "statements an enclosing one repeats");
        return Ret::Never;
      }
    Units.push_back({I, End, true});
    I = End;
  }
  // Heads of the loop being lowered are landed on by the back edge, after
  // this list: a flag for one of them must skip everything to the end.
  llvm::SmallPtrSet<const LabelDecl *, 4> Heads;
  if (HeadDone)
    for (const LabelDecl *L : JL.At[Lo])
      Heads.insert(L);
  auto LandsForward = [&](const Unit &U) {
    for (size_t I = U.Begin; I < U.End; ++I)
      for (const LabelDecl *L : JL.At[I])
        if (JL.FirstFrom.count(L) && !(HeadDone && I == Lo))
          return true;
    return false;
  };
  // Segments: [SegBegin[s], SegBegin[s+1]) in units.
  std::vector<size_t> SegBegin;
  for (size_t U = 0; U < Units.size(); ++U)
    if (U == 0 || Units[U].Loop || Units[U - 1].Loop || LandsForward(Units[U]))
      SegBegin.push_back(U);
  SegBegin.push_back(Units.size());
  // The segment each label of this range lands in.
  llvm::DenseMap<const LabelDecl *, size_t> SegOf;
  for (size_t S = 0; S + 1 < SegBegin.size(); ++S)
    for (size_t U = SegBegin[S]; U < SegBegin[S + 1]; ++U)
      for (size_t I = Units[U].Begin; I < Units[U].End; ++I)
        for (const LabelDecl *L : JL.At[I])
          SegOf[L] = S;
  // Flags set before this range (a forward goto into the loop being
  // lowered) for labels inside it.
  std::vector<int> Entry;
  for (size_t I = Lo; I < Hi; ++I)
    for (const LabelDecl *L : JL.At[I])
      if (auto It = JL.FirstFrom.find(L);
          !Heads.count(L) && It != JL.FirstFrom.end() && It->second < Lo)
        addUnique(Entry, LabelFlag[L]);
  Ret Last = Ret::Never;
  for (size_t S = 0; S + 1 < SegBegin.size() && !Failed; ++S) {
    const Unit &First = Units[SegBegin[S]];
    size_t Begin = First.Begin, End = Units[SegBegin[S + 1] - 1].End;
    // Landing here: a goto to a label at this point is done.
    if (!First.Loop && !(HeadDone && Begin == Lo))
      for (const LabelDecl *L : JL.At[Begin])
        if (!Entries.count(L)) // (cleared at the label, inside)
          B.set(LabelFlag[L], B.constB(false));
    std::vector<int> Set = Entry;
    for (size_t I = Lo; I < Begin; ++I)
      exitVars(JL.List[I], Set);
    std::vector<int> Guard;
    for (int V : Set) {
      bool Landed = false;
      for (auto &[L, Seg] : SegOf)
        if (LabelFlag[L] == V && Seg <= S && !Heads.count(L))
          Landed = true;
      if (!Landed)
        Guard.push_back(V);
    }
    ir::Block *Saved = B.block();
    if (int G = anyOf(Guard); G >= 0) {
      ir::Stmt &If = B.ifStmt(B.un(Op::Not, G));
      B.setBlock(&If.Then);
    }
    if (First.Loop)
      Last = jumpLoop(JL, Begin, End);
    else
      Last = stmtList(JL.List.slice(Begin, End - Begin));
    B.setBlock(Saved);
  }
  if (Failed)
    return Ret::Never;
  if (Last == Ret::Always)
    return Ret::Always;
  return leavesRange(JL, Lo, Hi) ? Ret::Maybe : Ret::Never;
}

/// Whether control may leave statements [Lo, Hi) other than at their end:
/// return, break, continue, or a goto to a label outside them.
bool Lowerer::leavesRange(const JumpList &JL, size_t Lo, size_t Hi) {
  llvm::SmallPtrSet<const Stmt *, 8> Inside;
  for (size_t I = Lo; I < Hi; ++I)
    labelStmtsIn(JL.List[I], Inside);
  for (size_t I = Lo; I < Hi; ++I) {
    const Stmt *St = JL.List[I];
    if (returns(St) || escapes(St, true) || escapes(St, false))
      return true;
    llvm::SmallVector<const GotoStmt *, 4> Gotos;
    gotosIn(St, Gotos);
    for (const GotoStmt *GS : Gotos)
      if (!Inside.count(GS->getLabel()->getStmt()))
        return true;
  }
  return false;
}

/// Statements [Begin, End) repeated while a goto back to their first
/// statement's labels was taken.
Ret Lowerer::jumpLoop(const JumpList &JL, size_t Begin, size_t End) {
  std::vector<int> Heads;
  for (const LabelDecl *L : JL.At[Begin])
    if (JL.Back.count(L))
      Heads.push_back(LabelFlag[L]);
  ir::Stmt &Loop = B.loop();
  ir::Block *Saved = B.block();
  B.setBlock(&Loop.Body);
  for (const LabelDecl *L : JL.At[Begin])
    B.set(LabelFlag[L], B.constB(false));
  LoopSeqs.push_back(PtrSeq);
  jumpSeq(JL, Begin, End, true);
  LoopSeqs.pop_back();
  if (!Failed)
    Loop.Cond = anyOf(Heads);
  B.setBlock(Saved);
  if (Failed)
    return Ret::Never;
  return leavesRange(JL, Begin, End) ? Ret::Maybe : Ret::Never;
}

/// switch: the selector once into a variable, then each run of statements
/// between case labels under "matched here, or fell through from the run
/// before and nothing left the switch".
Ret Lowerer::switchStmt(const SwitchStmt *SS) {
  if (SS->getInit() || SS->getConditionVariable()) {
    error(SS->getBeginLoc(), "this form of 'switch'",
          "declare the selector before the switch");
    return Ret::Never;
  }
  const Expr *CondE = SS->getCond();
  auto ST = irType(CondE->getType());
  if (!ST || !ir::isInt(*ST)) {
    error(CondE->getBeginLoc(), "a 'switch' on this type",
          "switch on an integer");
    return Ret::Never;
  }
  int Sel = expr(CondE);
  if (Sel < 0)
    return Ret::Never;
  int SelVar = F.newVar("__switch", *ST);
  B.set(SelVar, Sel);

  std::vector<SwitchSeg> Segs(1);
  bool HasDefault = false;
  if (!switchSegments(SS, Segs, HasDefault))
    return Ret::Never;
  int NoneVar = HasDefault ? switchDefault(Segs, SelVar, *ST) : -1;

  const Stmt *Body = SS->getBody();
  LoopCtx L;
  if (escapes(Body, true)) {
    L.BrkVar = F.newVar("__break", Type::Bool);
    B.set(L.BrkVar, B.constB(false));
  }
  L.CntVar = Loops.empty() ? -1 : Loops.back().CntVar;
  Loops.push_back(L);
  Ret Last = switchRuns(Segs, SelVar, *ST, NoneVar);
  Loops.pop_back();
  if (Failed)
    return Ret::Never;
  std::vector<int> Leave;
  jumpVars(Body, Leave);
  bool MayLeave = returns(Body) || escapes(Body, false) || !Leave.empty();
  if (HasDefault && L.BrkVar < 0 && Last == Ret::Always && MayLeave)
    return Ret::Always;
  return MayLeave ? Ret::Maybe : Ret::Never;
}

/// The switch's body as runs of statements after case labels (Segs[0]:
/// those before the first label, only declarations without initializers,
/// which are declared here); false after an error.
bool Lowerer::switchSegments(const SwitchStmt *SS, std::vector<SwitchSeg> &Segs,
                             bool &HasDefault) {
  const Stmt *Body = SS->getBody();
  std::vector<const Stmt *> Items;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Items.assign(CS->body_begin(), CS->body_end());
  else
    Items.push_back(Body);
  for (const Stmt *St : Items) {
    std::vector<const SwitchCase *> Ls;
    while (const auto *SC = dyn_cast<SwitchCase>(St)) {
      Ls.push_back(SC);
      HasDefault |= isa<DefaultStmt>(SC);
      St = SC->getSubStmt();
    }
    if (!Ls.empty())
      Segs.push_back({Ls, {}});
    Segs.back().Stmts.push_back(St);
    if (const SwitchCase *SC = nestedCase(St)) {
      error(SC->getKeywordLoc(),
            "a case label inside a statement nested in the 'switch'",
            "write every case label directly in the switch's braces");
      return false;
    }
  }
  for (const Stmt *St : Segs[0].Stmts) {
    const auto *DS = dyn_cast<DeclStmt>(St);
    bool Plain = DS && llvm::all_of(DS->decls(), [](const Decl *D) {
                   const auto *VD = dyn_cast<VarDecl>(D);
                   return !VD || !VD->hasInit();
                 });
    if (!Plain) {
      error(St->getBeginLoc(), "a statement before the first case label",
            "it never runs; move it before the switch");
      return false;
    }
    declStmt(DS);
  }
  return true;
}

/// Case value \p E in the selector's type \p ST.
int Lowerer::caseValue(const Expr *E, Type ST) {
  llvm::APSInt V = E->EvaluateKnownConstInt(Ctx);
  V = V.extOrTrunc(ir::bitWidth(ST));
  V.setIsSigned(ir::isSigned(ST));
  return B.constI(ST,
                  V.isSigned() ? V.getSExtValue() : (int64_t)V.getZExtValue());
}

/// Whether the selector (variable \p SelVar) matches case \p CS.
int Lowerer::caseMatch(const CaseStmt *CS, int SelVar, Type ST) {
  int S = B.get(SelVar);
  if (!CS->caseStmtIsGNURange())
    return B.cmp(Op::CmpEQ, S, caseValue(CS->getLHS(), ST));
  return B.bin(Op::And, B.cmp(Op::CmpGE, S, caseValue(CS->getLHS(), ST)),
               B.cmp(Op::CmpLE, S, caseValue(CS->getRHS(), ST)));
}

/// The variable "default: none of the cases matched".
int Lowerer::switchDefault(const std::vector<SwitchSeg> &Segs, int SelVar,
                           Type ST) {
  int Any = -1;
  for (const SwitchSeg &S : Segs)
    for (const SwitchCase *SC : S.Labels)
      if (const auto *CS = dyn_cast<CaseStmt>(SC)) {
        int M = caseMatch(CS, SelVar, ST);
        Any = Any < 0 ? M : B.bin(Op::Or, Any, M);
      }
  int NoneVar = F.newVar("__default", Type::Bool);
  B.set(NoneVar, Any < 0 ? B.constB(true) : B.un(Op::Not, Any));
  return NoneVar;
}

/// The runs after case labels, each under "matched here, or fell through
/// from the run before and nothing left the switch"; the last run's Ret.
Ret Lowerer::switchRuns(const std::vector<SwitchSeg> &Segs, int SelVar, Type ST,
                        int NoneVar) {
  int FallVar = F.newVar("__case", Type::Bool);
  bool PrevFalls = false;
  std::vector<int> Exits; // set by the runs control may fall through from
  Ret Last = Ret::Never;
  for (size_t K = 1; K < Segs.size() && !Failed; ++K) {
    int M = -1;
    for (const SwitchCase *SC : Segs[K].Labels) {
      int T = isa<CaseStmt>(SC) ? caseMatch(cast<CaseStmt>(SC), SelVar, ST)
                                : B.get(NoneVar);
      M = M < 0 ? T : B.bin(Op::Or, M, T);
    }
    int Run = M;
    if (PrevFalls) {
      Run = B.bin(Op::Or, B.get(FallVar), M);
      if (int Out = anyOf(Exits); Out >= 0)
        Run = B.bin(Op::And, Run, B.un(Op::Not, Out));
    } else {
      Exits.clear();
    }
    if (K + 1 < Segs.size())
      B.set(FallVar, Run);
    ir::Stmt &If = B.ifStmt(Run);
    ir::Block *Saved = B.block();
    B.setBlock(&If.Then);
    Last = stmtList(Segs[K].Stmts);
    B.setBlock(Saved);
    PrevFalls = Last != Ret::Always;
    for (const Stmt *St : Segs[K].Stmts)
      exitVars(St, Exits);
  }
  return Last;
}

} // namespace lowering
} // namespace batchdiff
