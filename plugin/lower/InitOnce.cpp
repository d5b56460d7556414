//===- InitOnce.cpp - lazily initialised static tables --------------------===//
//
// The syntax of the init-once idiom (InitOnce.h). The block is checked as
// written (its own statements, and the bodies of the file's functions it
// calls): every name it uses is a constant, a global or one of its own
// locals (so it computes the same whichever example runs it first), every
// write goes to one of its locals or to a `static` global (other files
// cannot see the difference between one run and the scalar loop's), the
// flag is set to a nonzero constant by a statement of the block that every
// run reaches (so the test is false once it has run), and nothing leaves
// the block but its end (it runs as a function of its own).
//
//===----------------------------------------------------------------------===//
#include "lower/InitOnce.h"
#include "lower/OmpSimd.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;

namespace batchdiff {
namespace lowering {

namespace {

bool isZero(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  return E->getType()->isIntegerType() && !E->HasSideEffects(Ctx) &&
         E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
}

/// A nonzero integer constant (`1`, `true`, `-1`).
bool isNonZero(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  return !E->HasSideEffects(Ctx) && E->EvaluateAsInt(R, Ctx) &&
         R.Val.getInt() != 0;
}

const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getCanonicalDecl();
  return nullptr;
}

/// A static local, which only its function can name.
bool staticLocal(const VarDecl *VD) {
  return VD->hasGlobalStorage() && !VD->isFileVarDecl() &&
         !VD->hasExternalStorage();
}

/// The variable whose storage an lvalue is (`v`, `t[i]`, `m[i][j]`,
/// `s.a`), and whether it is reached through a pointer (`*p`, `p[i]`,
/// `q->a`): then the variable is the pointer.
struct Place {
  const VarDecl *Var = nullptr;
  bool Pointer = false;
};

Place placeOf(const Expr *E) {
  Place P;
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      // (An array's decay is stripped: a pointer's type is a pointer.)
      const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
      P.Pointer |= !Base->getType()->isArrayType();
      E = Base;
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      P.Pointer |= ME->isArrow();
      E = ME->getBase();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref) {
      P.Pointer = true;
      E = UO->getSubExpr();
    } else {
      break;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    P.Var = dyn_cast<VarDecl>(DRE->getDecl());
  return P;
}

/// Whether \p S, or a function of the file it calls, assigns \p Flag.
bool assigns(const Stmt *S, const VarDecl *Flag,
             llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!S)
    return false;
  const Expr *L = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    L = BO->getLHS();
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    L = UO->getSubExpr();
  if (L && varOf(L) == Flag)
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (const FunctionDecl *Def = FD->getDefinition();
          Def && Def->hasBody() && Seen.insert(Def).second &&
          assigns(Def->getBody(), Flag, Seen))
        return true;
  for (const Stmt *C : astChildren(S))
    if (assigns(C, Flag, Seen))
      return true;
  return false;
}

bool jumps(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<LabelStmt>(S))
    return true;
  for (const Stmt *C : astChildren(S))
    if (jumps(C))
      return true;
  return false;
}

struct Check {
  ASTContext &Ctx;
  const VarDecl *Flag;
  const StaticCopies &Copies;
  InitOnceBlock &Out;
  std::optional<InitOnceProblem> P;
  std::string N; // the flag's name
  /// The block's own locals.
  llvm::SmallPtrSet<const VarDecl *, 8> Own;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  /// In a function the block calls (its body is not copied), not in the
  /// block itself.
  bool Callee = false;
  /// Loops and switches around, inside the block.
  int Loops = 0;
  /// The flag is a static local of the function: the generated code runs
  /// the block again, on its copies (StaticCopies).
  bool LocalFlag = false;

  bool copied(const VarDecl *VD) const {
    return Copies.count(VD->getCanonicalDecl()) != 0;
  }
  /// Under a static local flag the block runs twice, the scalar function's
  /// and the generated code's, at different times: it may change only the
  /// copied static locals, and read only them and constants.
  void localFlagOnly(SourceLocation At, const VarDecl *VD, bool Write) {
    problem(At,
            std::string(Write ? "writing" : "reading") + " global '" +
                VD->getNameAsString() +
                "' in the block run once under static local '" + N + "'",
            "the generated code runs such a block again, on its own copies "
            "of the function's static locals, so it may " +
                std::string(Write ? "write only those"
                                  : "read only those and constants") +
                "; declare '" + N +
                "' (and what the block fills) at file "
                "scope, static");
  }

  std::string rule() const {
    return "a block run once under a static flag (`if (!" + N + ") { ...; " +
           N +
           " = 1; }`) may use constants, globals and its own locals, and "
           "write only 'static' globals";
  }
  void problem(SourceLocation At, std::string What, std::string Instead) {
    if (!P)
      P = InitOnceProblem{At, std::move(What), std::move(Instead)};
  }
  void global(const VarDecl *VD, bool Write) {
    VD = VD->getCanonicalDecl();
    auto &List = Write ? Out.Writes : Out.Reads;
    if (std::find(List.begin(), List.end(), VD) == List.end())
      List.push_back(VD);
  }

  void write(const Expr *LHS, const Expr *RHS, SourceLocation At) {
    Place Pl = placeOf(LHS);
    const VarDecl *VD = Pl.Var;
    if (Pl.Pointer || !VD) {
      if (!Callee)
        problem(At,
                "writing through a pointer in the block run once under '" + N +
                    "'",
                rule() + "; index the global table itself");
      return;
    }
    if (!VD->hasGlobalStorage()) {
      if (!Callee && !Own.count(VD))
        problem(At,
                "writing '" + VD->getNameAsString() +
                    "', a local of the function, in the block run once "
                    "under '" +
                    N + "'",
                rule() + "; write it outside the block");
      return;
    }
    if (staticLocal(VD) && !copied(VD))
      return; // (a callee's own: the block cannot name the function's)
    if (LocalFlag && !copied(VD)) {
      localFlagOnly(At, VD, true);
      return;
    }
    if (VD->hasExternalFormalLinkage()) {
      problem(At,
              "writing global '" + VD->getNameAsString() +
                  "', which other files can name, in the block run once "
                  "under '" +
                  N + "'",
              rule() + "; declare '" + VD->getNameAsString() + "' static");
      return;
    }
    // Numbers and tables of numbers: the function reads those as global
    // parameters, which checkInitReads follows (not structs, unions).
    if (!Ctx.getBaseElementType(VD->getType())->isArithmeticType() ||
        Ctx.getBaseElementType(VD->getType())->isAnyComplexType()) {
      problem(At,
              "writing global '" + VD->getNameAsString() + "' of type '" +
                  VD->getType().getAsString() +
                  "' in the block run once under '" + N + "'",
              "a block run once may fill 'static' globals of numbers and "
              "tables of numbers; keep the records in a table per member");
      return;
    }
    global(VD, true);
    if (VD->getCanonicalDecl() == Flag && !(RHS && isNonZero(RHS, Ctx)))
      problem(At, "setting '" + N + "' to anything but a nonzero constant",
              "the block it guards must set it so that the test is false "
              "afterwards (`" +
                  N + " = 1;`)");
  }

  void call(const CallExpr *CE) {
    // A global array (or a global's address) passed on may be written
    // there (`fill(table, 64)`, memset): as a write here.
    for (const Expr *A : CE->arguments()) {
      if (!A->getType()->isPointerType())
        continue;
      const Expr *E = A->IgnoreParenCasts();
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && BO->isAdditiveOp())
        E = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                      : BO->getRHS())
                ->IgnoreParenCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(E);
          UO && UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr();
      Place Pl = placeOf(E);
      if (Pl.Var && !Pl.Pointer && Pl.Var->hasGlobalStorage() &&
          !Ctx.getBaseElementType(Pl.Var->getType()).isConstQualified())
        write(E, nullptr, A->getBeginLoc());
    }
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD) {
      problem(CE->getBeginLoc(),
              "a call through a function pointer in the block run once "
              "under '" +
                  N + "'",
              rule() + "; call the function by its name");
      return;
    }
    const SourceManager &SM = Ctx.getSourceManager();
    if (FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation()))
      return;
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->hasBody()) {
      problem(CE->getBeginLoc(),
              "a call of '" + FD->getNameAsString() +
                  "', which this file does not define, in the block run "
                  "once under '" +
                  N + "'",
              rule() + "; batchdiff must see what it writes: define it in "
                       "this file");
      return;
    }
    if (!Seen.insert(Def).second)
      return;
    bool Was = Callee;
    int WasLoops = Loops;
    Callee = true;
    walk(Def->getBody());
    Callee = Was;
    Loops = WasLoops;
  }

  void ref(const DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return;
    if (!VD->hasGlobalStorage()) {
      if (!Callee && !Own.count(VD))
        problem(DRE->getBeginLoc(),
                "using '" + VD->getNameAsString() +
                    "', a value of the example, in the block run once under "
                    "'" +
                    N + "'",
                rule() +
                    " (the first example to reach it would decide for all); "
                    "compute what depends on the example outside the block");
      return;
    }
    if (copied(VD)) {
      global(VD, false);
      return;
    }
    if (staticLocal(VD)) {
      if (!Callee)
        problem(DRE->getBeginLoc(),
                "static local '" + VD->getNameAsString() +
                    "' in the block run once under '" + N + "'",
                "batchdiff runs the block as a function of its own, which "
                "cannot name a function's static locals; declare '" +
                    VD->getNameAsString() + "' at file scope, static");
      return;
    }
    if (LocalFlag && !Ctx.getBaseElementType(VD->getType()).isConstQualified())
      localFlagOnly(DRE->getBeginLoc(), VD, false);
    global(VD, false);
  }

  void walk(const Stmt *S) {
    if (!S || P)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && !Callee)
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (VD->hasGlobalStorage())
            problem(VD->getLocation(),
                    "a static or extern declaration in the block run once "
                    "under '" +
                        N + "'",
                    "declare '" + VD->getNameAsString() + "' at file scope");
          Own.insert(VD);
        }
    if (!Callee &&
        (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
         isa<LabelStmt>(S) ||
         (Loops == 0 && (isa<BreakStmt>(S) || isa<ContinueStmt>(S)))))
      problem(S->getBeginLoc(),
              "leaving the block run once under '" + N +
                  "' other than at its end",
              "batchdiff runs the block as a function of its own; let it "
              "end normally");
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      write(BO->getLHS(), BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr,
            BO->getBeginLoc());
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp())
      write(UO->getSubExpr(), nullptr, UO->getBeginLoc());
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *VD = placeOf(UO->getSubExpr()).Var;
          VD && VD->hasGlobalStorage() && VD->hasExternalFormalLinkage() &&
          !VD->getType().isConstQualified())
        problem(UO->getBeginLoc(),
                "the address of global '" + VD->getNameAsString() +
                    "', which other files can name, in the block run once "
                    "under '" +
                    N + "'",
                rule() + "; declare '" + VD->getNameAsString() + "' static");
    if (const auto *CE = dyn_cast<CallExpr>(S))
      call(CE);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      ref(DRE);
    bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
                isa<SwitchStmt>(S);
    Loops += Loop;
    for (const Stmt *C : astChildren(S))
      walk(C);
    Loops -= Loop;
  }

  /// Whether every run of \p S (the block, or the body of a function it
  /// calls) reaches a statement setting the flag to a nonzero constant.
  bool setsFlag(const Stmt *S,
                llvm::SmallPtrSetImpl<const FunctionDecl *> &In) {
    llvm::SmallVector<const Stmt *, 8> List;
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      List.append(CS->body_begin(), CS->body_end());
    else
      List.push_back(S);
    for (const Stmt *St : List) {
      const auto *E = dyn_cast<Expr>(St);
      E = E ? E->IgnoreParenCasts() : nullptr;
      if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
          BO && BO->getOpcode() == BO_Assign && varOf(BO->getLHS()) == Flag &&
          isNonZero(BO->getRHS(), Ctx))
        return true;
      if (const auto *CE = dyn_cast_or_null<CallExpr>(E))
        if (const FunctionDecl *FD = CE->getDirectCallee())
          if (const FunctionDecl *Def = FD->getDefinition();
              Def && Def->hasBody() && In.insert(Def).second &&
              setsFlag(Def->getBody(), In))
            return true;
      if (isa<CompoundStmt>(St) && setsFlag(St, In))
        return true;
      if (jumps(St))
        return false; // (a run may not reach what follows)
    }
    return false;
  }
};

} // namespace

const VarDecl *initOnceFlag(ASTContext &Ctx, const IfStmt *IS) {
  if (IS->getElse() || IS->isConsteval() || IS->hasInitStorage() ||
      IS->hasVarStorage())
    return nullptr;
  const Expr *C = IS->getCond()->IgnoreParenImpCasts();
  const Expr *V = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(C);
      UO && UO->getOpcode() == UO_LNot)
    V = UO->getSubExpr();
  if (const auto *BO = dyn_cast<BinaryOperator>(C);
      BO && BO->getOpcode() == BO_EQ)
    V = isZero(BO->getRHS()->IgnoreParenImpCasts(), Ctx)   ? BO->getLHS()
        : isZero(BO->getLHS()->IgnoreParenImpCasts(), Ctx) ? BO->getRHS()
                                                           : nullptr;
  const VarDecl *VD = V ? varOf(V) : nullptr;
  if (!VD || !VD->hasGlobalStorage())
    return nullptr;
  QualType T = VD->getType();
  if (T.isConstQualified() || T.isVolatileQualified() ||
      !(T->isIntegerType() || T->isBooleanType()))
    return nullptr;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return assigns(IS->getThen(), VD, Seen) ? VD : nullptr;
}

std::optional<InitOnceProblem> checkInitOnce(ASTContext &Ctx, const IfStmt *IS,
                                             const VarDecl *Flag,
                                             const StaticCopies &Copies,
                                             InitOnceBlock &Out) {
  Out = InitOnceBlock();
  Out.Flag = Flag->getCanonicalDecl();
  Check C{Ctx, Out.Flag, Copies, Out, std::nullopt, Flag->getNameAsString(),
          {},  {},       false,  0};
  C.LocalFlag = C.copied(Flag);
  // The flag itself: named by the block's function too.
  if (staticLocal(Flag) && !C.LocalFlag)
    return InitOnceProblem{
        IS->getCond()->getBeginLoc(),
        "a block run once under static local '" + C.N + "'",
        "batchdiff runs the block as a function of its own, which cannot "
        "name a function's static locals; declare '" +
            C.N + "' (and what the block fills) at file scope, static"};
  C.walk(IS->getThen());
  if (C.P)
    return C.P;
  C.global(Flag, true); // (also where a helper sets it)
  llvm::SmallPtrSet<const FunctionDecl *, 8> In;
  if (!C.setsFlag(IS->getThen(), In))
    return InitOnceProblem{
        IS->getBeginLoc(),
        "a block guarded by '" + C.N +
            "' that some runs leave without setting it",
        "a block run once must set its flag to a nonzero constant in a "
        "statement every run reaches (`" +
            C.N + " = 1;` at its end, or in the helper it calls)"};
  if (Flag->hasExternalFormalLinkage())
    return InitOnceProblem{IS->getCond()->getBeginLoc(),
                           "a block run once under global '" + C.N +
                               "', which other files can name",
                           C.rule() + "; declare '" + C.N + "' static"};
  return std::nullopt;
}

namespace {
/// Prints the copies' names for the static locals they copy.
struct Renamer : PrinterHelper {
  const StaticCopies &Copies;
  explicit Renamer(const StaticCopies &C) : Copies(C) {}
  bool handledStmt(Stmt *E, raw_ostream &OS) override {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (auto It = Copies.find(VD->getCanonicalDecl()); It != Copies.end()) {
          OS << It->second;
          return true;
        }
    return false;
  }
};

/// The static locals of \p FD that \p S names.
void namedStatics(const Stmt *S, const FunctionDecl *FD,
                  llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isStaticLocal() && declFunction(VD) == FD &&
        std::find(Out.begin(), Out.end(), VD->getCanonicalDecl()) == Out.end())
      Out.push_back(VD->getCanonicalDecl());
  for (const Stmt *C : astChildren(S))
    namedStatics(C, FD, Out);
}

void onceIfs(ASTContext &Ctx, const Stmt *S, const FunctionDecl *FD,
             llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *IS = dyn_cast<IfStmt>(S))
    if (const VarDecl *Flag = initOnceFlag(Ctx, IS);
        Flag && Flag->isStaticLocal() && declFunction(Flag) == FD) {
      namedStatics(IS->getCond(), FD, Out);
      namedStatics(IS->getThen(), FD, Out);
    }
  for (const Stmt *C : astChildren(S))
    onceIfs(Ctx, C, FD, Out);
}
} // namespace

llvm::SmallVector<const VarDecl *, 4> onceStaticLocals(ASTContext &Ctx,
                                                       const FunctionDecl *FD) {
  llvm::SmallVector<const VarDecl *, 4> Out;
  if (FD && FD->hasBody())
    onceIfs(Ctx, FD->getBody(), FD, Out);
  return Out;
}

std::string initOnceFunction(ASTContext &Ctx, const IfStmt *IS,
                             llvm::StringRef Name, const StaticCopies &Copies) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "static void __attribute__((unused, noinline)) " << Name
     << "(void) {\n";
  PrintingPolicy PP = Ctx.getPrintingPolicy();
  Renamer R(Copies);
  IS->printPretty(OS, &R, PP, 1, "\n", &Ctx);
  OS << "}\n";
  OS.flush();
  return Text;
}

std::string initOnceTest(ASTContext &Ctx, const IfStmt *IS,
                         const StaticCopies &Copies) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "(";
  Renamer R(Copies);
  IS->getCond()->printPretty(OS, &R, Ctx.getPrintingPolicy(), 0, "\n", &Ctx);
  OS << ")";
  OS.flush();
  return Text;
}

} // namespace lowering
} // namespace batchdiff
