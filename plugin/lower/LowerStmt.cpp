//===- LowerStmt.cpp - statements and control flow
//--------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "llvm/ADT/ScopeExit.h"

#include <functional>

namespace batchdiff {
namespace lowering {

static bool holdsLabel(const Stmt *S, bool InSwitch = false);

Ret Lowerer::stmtList(llvm::ArrayRef<const Stmt *> List) {
  // The rest of a list after a statement that may return is lowered as a
  // nested list (below, guardClause): thousands of `if (c) return v;` nest.
  if (!List.empty() && tooDeep(List.front()->getBeginLoc()))
    return Ret::Never;
  ++Depth;
  auto Leave = llvm::make_scope_exit([&] { --Depth; });
  if (!Entries.empty())
    if (auto R = enterList(List))
      return *R;
  if (hasNewTarget(List))
    return labeledList(List);
  Ret Acc = Ret::Never;
  for (size_t I = 0; I < List.size(); ++I) {
    // `if (c) return a; rest` lowers as `if (c) return a; else rest`, so
    // guard clauses need no return flag and the rest runs under the
    // complement mask.
    if (const auto *IS = dyn_cast<IfStmt>(List[I]);
        IS && I + 1 < List.size() && !entered(IS) && !constantIf(IS))
      if (auto R = guardClause(IS, List.drop_front(I + 1)))
        return *R;
    Ret R = stmt(List[I]);
    if (Failed)
      return Ret::Never;
    if (R == Ret::Always)
      return Ret::Always;
    // `if (!out) return v; *out = ...;` in a helper passed NULL: the rest
    // never runs, and is not lowered unless a label in it may be reached.
    if (FoldedReturn && FoldedReturn == List[I]) {
      FoldedReturn = nullptr;
      if (std::none_of(List.begin() + I + 1, List.end(),
                       [](const Stmt *S) { return holdsLabel(S); }))
        return Ret::Always;
    }
    if (R == Ret::Maybe && I + 1 < List.size()) {
      // The rest runs only where no return, break, continue or goto
      // happened.
      int Done = exitFlags(List[I]);
      ir::Stmt &If = B.ifStmt(B.un(Op::Not, Done));
      ir::Block *Saved = B.block();
      B.setBlock(&If.Then);
      Ret Rest = stmtList(List.drop_front(I + 1));
      B.setBlock(Saved);
      return Rest == Ret::Always ? Ret::Always : Ret::Maybe;
    }
    if (R == Ret::Maybe)
      Acc = Ret::Maybe;
  }
  return Acc;
}

Ret Lowerer::stmt(const Stmt *St) {
  if (!St || Failed || tooDeep(St->getBeginLoc()))
    return Ret::Never;
  ++Depth;
  auto Leave = llvm::make_scope_exit([&] { --Depth; });
  // A simple statement using a variable whose declaration failed would only
  // add follow-on errors: skip it.
  bool Simple = isa<Expr>(St) || isa<DeclStmt>(St) || isa<ReturnStmt>(St);
  Ret R = Ret::Never;
  if (Simple && usesPoisoned(St))
    Failed = true;
  else
    R = stmtKind(St);
  if (!Failed || Stopped)
    return R;
  // Its errors are reported: go on with the next statement, so that one
  // compile reports every unsupported construct (the IR is discarded).
  Failed = false;
  if (const auto *DS = dyn_cast<DeclStmt>(St))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        Poisoned.insert(VD);
  // So is a pointer whose assignment failed (p = malloc(...)).
  if (const auto *BO = dyn_cast<BinaryOperator>(St))
    if (BO->getOpcode() == BO_Assign && BO->getType()->isPointerType())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Poisoned.insert(VD);
  return R;
}

bool Lowerer::usesPoisoned(const Stmt *S) const {
  if (!S || Poisoned.empty())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return Poisoned.count(VD) && !Frames.back().Vars.count(VD) &&
             !Frames.back().Structs.count(VD);
  for (const Stmt *C : astChildren(S))
    if (usesPoisoned(C))
      return true;
  return false;
}

Ret Lowerer::stmtKind(const Stmt *St) {
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    std::vector<const Stmt *> List(CS->body_begin(), CS->body_end());
    return stmtList(List);
  }
  if (const auto *DS = dyn_cast<DeclStmt>(St))
    return declStmt(DS);
  if (const auto *IS = dyn_cast<IfStmt>(St))
    return ifStmt(IS);
  if (const auto *RS = dyn_cast<ReturnStmt>(St))
    return returnStmt(RS);
  if (isa<NullStmt>(St))
    return Ret::Never;
  if (const auto *AS = dyn_cast<AttributedStmt>(St))
    return stmt(AS->getSubStmt());
  if (const auto *E = dyn_cast<Expr>(St)) {
    expr(E);
    return Ret::Never;
  }
  if (isa<ForStmt>(St) || isa<WhileStmt>(St) || isa<DoStmt>(St)) {
    // Not the generated code's brackets (a kernel nests at most 128 blocks,
    // deeper ifs and loops are printed with gotos) but compile time: LLVM's
    // time on the generated code grows faster than the square of the depth
    // (at -O2 2 s for 100 loops, 13 s for 200, 122 s for 500; plain clang
    // 1.3 s for 500), and the plugin's passes are quadratic in it too.
    if (LoopDepth == MaxLoopDepth) {
      error(St->getBeginLoc(),
            "a loop inside " + std::to_string(MaxLoopDepth) +
                " enclosing loops (counting those of inlined helpers)",
            "nest at most " + std::to_string(MaxLoopDepth) + " loops");
      return Ret::Never;
    }
    ++LoopDepth;
    Ret R = anyLoop(St);
    --LoopDepth;
    return R;
  }
  if ((isa<BreakStmt>(St) || isa<ContinueStmt>(St)) && !Loops.empty())
    return jumpStmt(St);
  if (const auto *SS = dyn_cast<SwitchStmt>(St))
    return switchStmt(SS);
  if (const auto *GS = dyn_cast<GotoStmt>(St))
    return gotoStmt(GS);
  if (const auto *LS = dyn_cast<LabelStmt>(St)) {
    // An entered label: the lanes that jumped here have arrived.
    if (auto It = LabelFlag.find(LS->getDecl());
        It != LabelFlag.end() && Entries.count(LS->getDecl()))
      B.set(It->second, B.constB(false));
    // A label some goto names outside any statement list (`if (c) L: s;`)
    // is a list of one.
    if (Targets.count(LS->getDecl()) && !LabelFlag.count(LS->getDecl()))
      return stmtList(St);
    return stmt(LS->getSubStmt());
  }
  if (const auto *OD = dyn_cast<OMPExecutableDirective>(St))
    return ompDirective(OD);
  SourceLocation Loc = St->getBeginLoc();
  if (isa<IndirectGotoStmt>(St))
    error(Loc, "a computed 'goto'", "jump to a named label");
  else if (isa<AsmStmt>(St))
    error(Loc, "inline assembly", "write the computation in C");
  else if (isa<BreakStmt>(St) || isa<ContinueStmt>(St))
    error(Loc, "'break'/'continue' outside a loop", "use if/else");
  else
    error(Loc, describeStmt(St), "use assignments, if/else and return");
  return Ret::Never;
}

/// A for, while or do statement.
Ret Lowerer::anyLoop(const Stmt *St) {
  // `while (s)`, `for (; s != NULL;)` in a helper its call passed NULL: a
  // test of pointers that is false here (nullTest), so C never runs the
  // body, which may use s: not lowered, as the side of an if such a test
  // rules out (constantIf), unless a label in it can be jumped to.
  auto Never = [&](const Expr *Cond, const Stmt *Body) {
    std::optional<bool> V = Cond ? nullTest(Cond) : std::nullopt;
    return V && !*V && !holdsLabel(Body, false);
  };
  // (C has no declarations in loop conditions; they are C++.)
  if (const auto *FS = dyn_cast<ForStmt>(St)) {
    if (Never(FS->getCond(), FS->getBody())) {
      if (FS->getInit())
        stmt(FS->getInit());
      return Ret::Never;
    }
    if (std::optional<Ret> R = unrolledFor(FS))
      return *R;
    return loopStmt(FS->getInit(), FS->getCond(), FS->getInc(), FS->getBody(),
                    true);
  }
  if (const auto *WS = dyn_cast<WhileStmt>(St))
    return Never(WS->getCond(), WS->getBody())
               ? Ret::Never
               : loopStmt(nullptr, WS->getCond(), nullptr, WS->getBody(), true);
  const auto *DS = cast<DoStmt>(St);
  // `do { ... } while (0)`, as statement-like macros write it (fdlibm's
  // GET_HIGH_WORD), or `while (s)` of such a pointer: its body once, when
  // no break or continue leaves it.
  bool Once;
  std::optional<bool> Null = nullTest(DS->getCond());
  if (((Null && !*Null) ||
       (!DS->getCond()->isValueDependent() &&
        DS->getCond()->EvaluateAsBooleanCondition(Once, Ctx) && !Once &&
        !DS->getCond()->HasSideEffects(Ctx))) &&
      !escapes(DS->getBody(), true) && !escapes(DS->getBody(), false))
    return stmt(DS->getBody());
  return loopStmt(nullptr, DS->getCond(), nullptr, DS->getBody(), false);
}

/// OR of the exit flags \p St may have set (return, break, continue,
/// goto), false if none.
int Lowerer::exitFlags(const Stmt *St) {
  std::vector<int> Vars;
  exitVars(St, Vars);
  int Acc = anyOf(Vars);
  return Acc < 0 ? B.constB(false) : Acc;
}

Ret Lowerer::jumpStmt(const Stmt *St) {
  const LoopCtx &L = Loops.back();
  int Flag = isa<BreakStmt>(St) ? L.BrkVar : L.CntVar;
  B.set(Flag, B.constB(true));
  return Ret::Always;
}

/// for/while (CondFirst) and do/while as one rotated IR loop whose continue
/// condition is computed at the end of the body:
///   if (Cond) loop { cnt = 0; Body; if (!brk) Inc; c = Cond; }
///             while (c && !brk && !returned)
/// Rotation keeps the test out of the body, so the gradient's reverse sweep
/// needs no per-iteration record of it: an example's trip count says it all.
Ret Lowerer::loopStmt(const Stmt *Init, const Expr *Cond, const Expr *Inc,
                      const Stmt *Body, bool CondFirst) {
  if (Init)
    stmt(Init);
  if (Failed)
    return Ret::Never;
  LoopCtx L;
  if (escapes(Body, true)) {
    L.BrkVar = F.newVar("__break", Type::Bool);
    B.set(L.BrkVar, B.constB(false));
  }
  if (escapes(Body, false))
    L.CntVar = F.newVar("__continue", Type::Bool);
  bool Returns = returns(Body);
  std::vector<int> Jumps; // gotos out of the loop
  jumpVars(Body, Jumps);
  ir::Block *Saved = B.block();
  if (CondFirst && Cond) {
    int Go0 = cond(Cond);
    if (Go0 < 0)
      return Ret::Never;
    ir::Stmt &Guard = B.ifStmt(Go0);
    B.setBlock(&Guard.Then);
  }
  ir::Stmt &Loop = B.loop();
  B.setBlock(&Loop.Body);
  if (L.CntVar >= 0)
    B.set(L.CntVar, B.constB(false));
  Loops.push_back(L);
  LoopSeqs.push_back(PtrSeq);
  auto Left = [&]() { // broke or returned in this iteration
    int A = -1;
    if (L.BrkVar >= 0)
      A = B.get(L.BrkVar);
    if (Returns) {
      int R = B.get(Frames.back().RetFlag);
      A = A < 0 ? R : B.bin(Op::Or, A, R);
    }
    if (int J = anyOf(Jumps); J >= 0)
      A = A < 0 ? J : B.bin(Op::Or, A, J);
    return A;
  };
  stmt(Body);
  if (Inc && !Failed) {
    int Out = Left();
    if (Out >= 0) {
      ir::Stmt &IfInc = B.ifStmt(B.un(Op::Not, Out));
      B.setBlock(&IfInc.Then);
    }
    expr(Inc);
    B.setBlock(&Loop.Body);
  }
  int Go = -1, Out = -1;
  if (!Failed) {
    Out = Left();
    if (!Cond) {
      Go = B.constB(true);
    } else if (Out < 0 || pure(Cond)) {
      Go = cond(Cond);
    } else {
      // C evaluates the condition only if the body did not leave the loop.
      int V = F.newVar("__while", Type::Bool);
      B.set(V, B.constB(false));
      ir::Stmt &If = B.ifStmt(B.un(Op::Not, Out));
      B.setBlock(&If.Then);
      int C = cond(Cond);
      if (C >= 0)
        B.set(V, C);
      B.setBlock(&Loop.Body);
      Go = B.get(V);
    }
  }
  Loops.pop_back();
  LoopSeqs.pop_back();
  B.setBlock(Saved);
  if (Failed || Go < 0)
    return Ret::Never;
  B.setBlock(&Loop.Body);
  Loop.Cond = Out < 0 ? Go : B.bin(Op::And, Go, B.un(Op::Not, Out));
  B.setBlock(Saved);
  return Returns || !Jumps.empty() ? Ret::Maybe : Ret::Never;
}

Ret Lowerer::declStmt(const DeclStmt *DS) {
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD) {
      // A block-scope prototype (Numerical Recipes declares the routines
      // it calls: 'float gammln(float xx);') declares nothing to lower:
      // calls find the definition.
      if (isa<TypedefNameDecl>(D) || isa<TagDecl>(D) ||
          isa<StaticAssertDecl>(D) || isa<FunctionDecl>(D))
        continue;
      error(D->getLocation(), "this declaration", "declare scalar locals");
      continue;
    }
    // A table of functions (`static double (*const ops[])(double)`):
    // calls through its elements name it.
    if (const auto *AT = Ctx.getAsArrayType(VD->getType());
        AT && AT->getElementType()->isFunctionPointerType()) {
      funcTableDecl(VD);
      continue;
    }
    // One a block run once under a static local flag names: the generated
    // code's copy, a global (LowerInitOnce.cpp).
    if (VD->isStaticLocal() && onceCopy(VD))
      continue;
    // A static local written before every read (StaticScratch.cpp) is
    // observably an ordinary local, and lowered as one.
    if (VD->isStaticLocal() && !Scratch.Local.count(VD)) {
      staticLocal(VD);
      continue;
    }
    if (VD->isStaticLocal())
      ScratchDecls.push_back(VD);
    // A block-scope 'extern' declaration (cephes' 'extern double MACHEP;')
    // names a global: its uses are those of the global (fileScopeName).
    if (VD->hasExternalStorage())
      continue;
    QualType T = VD->getType();
    if (T.isVolatileQualified() && !plainVolatile(VD)) {
      error(VD->getLocation(), "a volatile variable", "remove 'volatile'");
      continue;
    }
    if (T->isRecordType()) {
      structDecl(VD);
      continue;
    }
    if (T->isFunctionPointerType()) {
      functionPointerDecl(VD);
      continue;
    }
    if (isStructPtr(T)) {
      structPtrDecl(VD);
      continue;
    }
    if (arrayDecl(VD))
      continue;
    if (const StringLocal *S = stringLocal(VD)) {
      stringDecl(VD, *S);
      continue;
    }
    if (T->isPointerType()) {
      pointerDecl(VD);
      continue;
    }
    if (complexDecl(VD))
      continue;
    auto IT = irType(T);
    if (!IT) {
      error(VD->getLocation(),
            "local variable '" + VD->getNameAsString() + "' of type '" +
                T.getAsString() + "'",
            T->isArrayType()
                ? "only one-dimensional arrays of constant size are supported"
                : "use float, double, integer or _Bool locals");
      continue;
    }
    if (T.isVolatileQualified() && !plainVolatile(VD)) {
      error(VD->getLocation(), "a volatile variable", "remove 'volatile'");
      continue;
    }
    int V = F.newVar(VD->getNameAsString(), *IT);
    Frames.back().Vars[VD] = V;
    int Init = VD->getInit() ? expr(VD->getInit()) : zeroOf(*IT);
    if (Init < 0)
      return Ret::Never;
    B.set(V, Init);
  }
  return Ret::Never;
}

std::optional<Ret> Lowerer::guardClause(const IfStmt *IS,
                                        llvm::ArrayRef<const Stmt *> Rest) {
  bool ThenAlways = alwaysReturns(IS->getThen());
  bool ElseAlways = IS->getElse() && alwaysReturns(IS->getElse());
  // The side that gets the rest must fall through: no return, and no break
  // or continue leaving it.
  auto FallsThrough = [this](const Stmt *S) {
    std::vector<int> Jumps;
    jumpVars(S, Jumps);
    return !returns(S) && !escapes(S, true) && !escapes(S, false) &&
           Jumps.empty();
  };
  bool RestInElse = ThenAlways && FallsThrough(IS->getElse());
  bool RestInThen = ElseAlways && FallsThrough(IS->getThen());
  if (!RestInElse && !RestInThen)
    return std::nullopt;
  if (IS->isConsteval() || IS->hasInitStorage() || IS->hasVarStorage())
    return std::nullopt;
  int C = cond(IS->getCond());
  if (C < 0)
    return Ret::Never;
  ir::Stmt &If = B.ifStmt(C);
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  stmt(IS->getThen());
  if (RestInThen)
    stmtList(Rest);
  B.setBlock(&If.Else);
  stmt(IS->getElse());
  Ret R = Ret::Maybe;
  if (RestInElse)
    R = stmtList(Rest);
  B.setBlock(Saved);
  return R == Ret::Always ? Ret::Always : Ret::Maybe;
}

/// Whether \p S holds a label a jump could enter it by: a label, or a case
/// label of a switch around it (clang's CodeGenFunction::ContainsLabel).
static bool holdsLabel(const Stmt *S, bool InSwitch) {
  if (!S)
    return false;
  if (isa<LabelStmt>(S) || (!InSwitch && isa<SwitchCase>(S)))
    return true;
  InSwitch |= isa<SwitchStmt>(S);
  for (const Stmt *C : astChildren(S))
    if (holdsLabel(C, InSwitch))
      return true;
  return false;
}

/// nmath's ML_WARNING(ME_DOMAIN, "dnorm") is `{ if (ME_DOMAIN > ME_DOMAIN)
/// { char *msg = ""; switch ... printf(msg, s); } }`: code that never runs,
/// which clang does not emit either, need not be supported.
///
/// So is the side a helper's test of a pointer its call passed NULL rules
/// out (R's lgammafn_sign(x, NULL): `if (sgn != NULL) *sgn = 1;`, `if (sgn
/// != NULL && x < 0 && ...) *sgn = -1;`), or that of a pointer at a local.
std::optional<bool> Lowerer::constantIf(const IfStmt *IS) const {
  bool Value;
  const Expr *C = IS->getCond();
  if (IS->isConsteval() || IS->hasInitStorage() || IS->hasVarStorage() ||
      C->isValueDependent())
    return std::nullopt;
  if (!C->EvaluateAsBooleanCondition(Value, Ctx) || C->HasSideEffects(Ctx)) {
    std::optional<bool> N = nullTest(C);
    if (!N)
      return std::nullopt;
    Value = *N;
  }
  if (holdsLabel(Value ? IS->getElse() : IS->getThen()))
    return std::nullopt;
  return Value;
}

Ret Lowerer::ifStmt(const IfStmt *IS) {
  if (IS->isConsteval() || IS->hasInitStorage() || IS->hasVarStorage()) {
    error(IS->getBeginLoc(), "this form of 'if'", "use a plain if/else");
    return Ret::Never;
  }
  if (entered(IS)) {
    std::vector<int> ToThen, ToElse;
    for (const auto &[L, E] : Entries)
      if (auto It = LabelFlag.find(L); It != LabelFlag.end())
        if (E.Path.count(IS))
          (E.Path.count(IS->getThen()) ? ToThen : ToElse).push_back(It->second);
    return enterIf(IS, ToThen, ToElse);
  }
  // `if (!ready) init_table();` (LowerInitOnce.cpp).
  if (std::optional<Ret> R = initOnce(IS))
    return *R;
  if (std::optional<bool> Value = constantIf(IS)) {
    Ret R = stmt(*Value ? IS->getThen() : IS->getElse());
    // What follows is dead then, but may declare what a label after it
    // uses (`if (1) return; int t = 0; L: ... goto L;`): lower it too.
    // (After a test of a pointer known to be null or not, only if it holds
    // a label: stmtList.)
    bool Clang;
    if (R == Ret::Always &&
        (!IS->getCond()->EvaluateAsBooleanCondition(Clang, Ctx) ||
         IS->getCond()->HasSideEffects(Ctx)))
      FoldedReturn = IS;
    return R == Ret::Always ? Ret::Maybe : R;
  }
  int C = cond(IS->getCond());
  if (C < 0)
    return Ret::Never;
  return ifSides(IS, C);
}

Ret Lowerer::ifSides(const IfStmt *IS, int C) {
  ir::Stmt &If = B.ifStmt(C);
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  Ret RT = stmt(IS->getThen());
  B.setBlock(&If.Else);
  Ret RE = stmt(IS->getElse());
  B.setBlock(Saved);
  if (RT == Ret::Always && RE == Ret::Always)
    return Ret::Always;
  if (RT == Ret::Never && RE == Ret::Never)
    return Ret::Never;
  return Ret::Maybe;
}

Ret Lowerer::returnStmt(const ReturnStmt *RS) {
  Frame &Fr = Frames.back();
  if (const Expr *V = RS->getRetValue(); V && !Fr.RetStruct.empty()) {
    std::vector<int> Src;
    if (!structLeaves(V, Src))
      return Ret::Never;
    copyStruct(Frames.back().RetStruct, Src);
  } else if (V && Fr.RetComplex.first >= 0) {
    if (!complexReturn(V, Fr.RetComplex))
      return Ret::Never;
  } else if (V) {
    int T = expr(V);
    if (T < 0)
      return Ret::Never;
    if (Fr.RetVar >= 0)
      B.set(Fr.RetVar, T);
  }
  B.set(Fr.RetFlag, B.constB(true));
  return Ret::Always;
}

/// `T a[N]` (constant N), `T a[R][C]` or `T a[P][R][C]` (flat, row-major:
/// a[i][j] is element i * C + j, a[p][i][j] element (p * R + i) * C + j)
/// with an optional initializer list; elements not initialised are zero, as
/// for static storage.
bool Lowerer::arrayDecl(const VarDecl *VD) {
  const auto *CAT = Ctx.getAsConstantArrayType(VD->getType());
  const auto *VAT = Ctx.getAsVariableArrayType(VD->getType());
  // `const int n = 4; double k[n];` is a VLA in C, but of a size clang can
  // fold: an array of that size (a size known only at run time is not).
  Expr::EvalResult Size;
  if (!CAT &&
      !(VAT && VAT->getSizeExpr() && !VAT->getElementType()->isArrayType() &&
        VAT->getSizeExpr()->EvaluateAsInt(Size, Ctx) &&
        Size.Val.getInt().isStrictlyPositive()))
    return VAT && vlaDecl(VD, VAT);
  QualType ElT = CAT ? CAT->getElementType() : VAT->getElementType();
  uint64_t N =
      CAT ? CAT->getSize().getZExtValue() : Size.Val.getInt().getLimitedValue();
  if (auto Flat = CAT ? flatArray(Ctx, VD->getType()) : std::nullopt) {
    ElT = Flat->first;
    N = Flat->second;
  }
  auto ET = irType(ElT);
  // Arrays of structs of any number of dimensions: N records, row-major.
  for (const auto *Row = Ctx.getAsConstantArrayType(ElT);
       Row && Ctx.getBaseElementType(ElT)->isRecordType();
       Row = Ctx.getAsConstantArrayType(ElT)) {
    N *= Row->getSize().getZExtValue();
    ElT = Row->getElementType();
  }
  if (ElT->isRecordType() && N > 0) {
    structArrayDecl(VD, ElT, N);
    return true;
  }
  // `double *row[3]`: pointers into one array (LowerPtrArrays.cpp).
  if (!ET && CAT && ElT->isPointerType() && !ElT->isFunctionPointerType() &&
      N > 0)
    return ptrArrayDecl(VD, N);
  if (!ET || N == 0 || N > 65536) {
    error(VD->getLocation(),
          "local array '" + VD->getNameAsString() + "' of type '" +
              VD->getType().getAsString() + "'",
          Ctx.getBaseElementType(VD->getType())->isAnyComplexType()
              ? "use two arrays of doubles (or floats) for the real and "
                "imaginary parts (complex scalar locals are supported)"
              : "use an array of 1..65536 scalars");
    return true;
  }
  int V = F.newVar(VD->getNameAsString(), *ET);
  F.Vars[V].Len = (int)N;
  Frames.back().Vars[VD] = V;
  B.zeroArr(V);
  const Expr *Init = VD->getInit();
  if (!Init)
    return true;
  const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreParens());
  if (!IL) {
    error(Init->getBeginLoc(), "this array initializer",
          "initialise with a brace list of values");
    return true;
  }
  // The elements from \p E, an initializer of type \p T starting at flat
  // element \p K (rows and planes: nested lists).
  std::function<bool(const Expr *, QualType, uint64_t)> Put =
      [&](const Expr *E, QualType T, uint64_t K) {
        if (isa<ImplicitValueInitExpr>(E))
          return true;
        const auto *AT = Ctx.getAsConstantArrayType(T);
        if (!AT) {
          int Val = expr(E);
          if (Val < 0)
            return false;
          B.storeElem(V, B.constI(Type::I32, (int64_t)K), Val);
          return true;
        }
        const auto *L = dyn_cast<InitListExpr>(E->IgnoreParens());
        if (!L) {
          error(E->getBeginLoc(), "this array initializer",
                "initialise with a brace list of values");
          return false;
        }
        QualType Sub = AT->getElementType();
        auto Flat = flatArray(Ctx, Sub);
        uint64_t Per = Flat ? Flat->second : 1;
        for (unsigned I = 0;
             I < L->getNumInits() && I < AT->getSize().getZExtValue(); ++I)
          if (!Put(L->getInit(I), Sub, K + I * Per))
            return false;
        return true;
      };
  QualType Sub = CAT ? CAT->getElementType() : VAT->getElementType();
  uint64_t Count = CAT ? CAT->getSize().getZExtValue() : N;
  auto Flat = flatArray(Ctx, Sub);
  for (unsigned I = 0; I < IL->getNumInits() && I < Count; ++I)
    if (!Put(IL->getInit(I), Sub, I * (Flat ? Flat->second : 1)))
      break;
  return true;
}

} // namespace lowering
} // namespace batchdiff
