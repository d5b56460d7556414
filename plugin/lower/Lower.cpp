//===- Lower.cpp - clang AST to batchdiff IR ------------------------------===//
#include "lower/Lower.h"
#include "lower/ArrayParams.h"
#include "lower/Types.h"

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <map>
#include <optional>

using namespace clang;

namespace batchdiff {
namespace {

using ir::Op;
using ir::Type;

/// What a statement does to control flow, for the return-flag lowering.
enum class Ret { Never, Maybe, Always };

struct MathEntry {
  ir::MathFn Fn;
  Type Ty;
  int NArgs;
};

const llvm::StringMap<MathEntry> &mathTable() {
  static const llvm::StringMap<MathEntry> Table = [] {
    llvm::StringMap<MathEntry> T;
#define BD_MATH(Name, NumArgs, CName)                                          \
  T[CName] = {ir::MathFn::Name, Type::F64, NumArgs};                           \
  T[CName "f"] = {ir::MathFn::Name, Type::F32, NumArgs};
#include "ir/Math.def"
    return T;
  }();
  return Table;
}

/// Narrow integer types live in 32-bit lanes; a conversion to one of them
/// truncates and re-extends.
std::optional<Op> narrowing(QualType QT) {
  const auto *BT = QT.getCanonicalType()->getAs<BuiltinType>();
  if (!BT)
    return std::nullopt;
  switch (BT->getKind()) {
  case BuiltinType::Char_S:
  case BuiltinType::SChar:
    return Op::SExt8;
  case BuiltinType::Char_U:
  case BuiltinType::UChar:
    return Op::ZExt8;
  case BuiltinType::Short:
    return Op::SExt16;
  case BuiltinType::UShort:
    return Op::ZExt16;
  default:
    return std::nullopt;
  }
}

/// True if \p E reads no variables and calls nothing, so constant folding it
/// matches what clang's IRBuilder folds (and so its FMA contraction choices).
bool literalOnly(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return isa<EnumConstantDecl>(DRE->getDecl()) ||
           isa<FunctionDecl>(DRE->getDecl());
  // Builtins such as __builtin_inff() (INFINITY, NAN) fold to constants.
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (!CE->getBuiltinCallee())
      return false;
  if (isa<StmtExpr>(S))
    return false;
  if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(S))
    return !U->isArgumentType() || !U->getArgumentType()->isVariableArrayType();
  for (const Stmt *C : S->children())
    if (!literalOnly(C))
      return false;
  return true;
}

/// True if evaluating \p E has no side effects, so it may be evaluated in
/// lanes (or examples) where C would not evaluate it.
bool pure(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp())
      return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp())
      return false;
  for (const Stmt *C : S->children())
    if (!pure(C))
      return false;
  return true;
}

/// Whether \p S contains (or is) a node of class NodeT.
template <typename NodeT> bool contains(const Stmt *S) {
  if (!S)
    return false;
  if (isa<NodeT>(S))
    return true;
  for (const Stmt *C : S->children())
    if (contains<NodeT>(C))
      return true;
  return false;
}
bool hasCall(const Stmt *S) { return contains<CallExpr>(S); }
bool mayReturn(const Stmt *S) { return contains<ReturnStmt>(S); }

/// Syntactic, like the return-state the lowering computes.
bool alwaysReturns(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      if (alwaysReturns(C))
        return true;
    return false;
  }
  if (const auto *IS = dyn_cast<IfStmt>(S))
    return alwaysReturns(IS->getThen()) && alwaysReturns(IS->getElse());
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    return alwaysReturns(AS->getSubStmt());
  return false;
}

class Lowerer {
public:
  Lowerer(const FunctionDecl *Top, Sema &S, bool WantGrad, ir::Function &F)
      : Top(Top), Ctx(S.getASTContext()), Diags(S.getDiagnostics()),
        WantGrad(WantGrad), F(F), B(F, &F.Body) {}

  bool run();

private:
  struct Frame {
    const FunctionDecl *FD;
    llvm::DenseMap<const VarDecl *, int> Vars;
    int RetVar = -1;
    int RetFlag = -1;
  };
  /// break/continue lower to flags of the innermost loop; statements after
  /// one run under `if (!flag)`, exactly as after an early return.
  struct LoopCtx {
    int BrkVar = -1;
    int CntVar = -1;
  };

  void error(SourceLocation Loc, llvm::StringRef What, llvm::StringRef Instead);
  void error(SourceRange R, llvm::StringRef What, llvm::StringRef Instead) {
    error(R.getBegin(), What, Instead);
  }
  int fail() {
    Failed = true;
    return -1;
  }

  // Statements.
  Ret stmt(const Stmt *St);
  Ret stmtList(llvm::ArrayRef<const Stmt *> List);
  Ret declStmt(const DeclStmt *DS);
  Ret ifStmt(const IfStmt *IS);
  std::optional<Ret> guardClause(const IfStmt *IS,
                                 llvm::ArrayRef<const Stmt *> Rest);
  Ret returnStmt(const ReturnStmt *RS);
  Ret body(const FunctionDecl *FD, const Stmt *Body, Frame &Fr);
  Ret loopStmt(const Stmt *Init, const Expr *Cond, const Expr *Inc,
               const Stmt *Body, bool CondFirst);
  Ret jumpStmt(const Stmt *St);
  int exitFlags(const Stmt *St, bool Ret, bool Brk, bool Cnt);

  // Expressions. Each returns a temp, or -1 after an error.
  int expr(const Expr *E);
  int castExpr(const CastExpr *CE);
  int unary(const UnaryOperator *UO);
  int binary(const BinaryOperator *BO);
  int arith(const BinaryOperator *BO, int L, int R);
  int addSub(const BinaryOperator *BO, const Expr *LHS, const Expr *RHS,
             bool IsSub, int OldLHS);
  int compoundAssign(const CompoundAssignOperator *CAO);
  int conditional(const ConditionalOperator *CO);
  int logical(const BinaryOperator *BO);
  int call(const CallExpr *CE);
  int inlineCall(const CallExpr *CE, const FunctionDecl *Callee);
  int cond(const Expr *E);
  int compare(const BinaryOperator *BO);
  int readLValue(const Expr *E);
  int varOf(const Expr *LV, llvm::StringRef Action);
  /// A variable, or an element of a local array (Idx >= 0).
  struct LValue {
    int Var = -1;
    int Idx = -1;
    int Arg = -1; // element Idx of array parameter Arg
    bool ok() const { return Var >= 0 || Arg >= 0; }
  };
  LValue lvalue(const Expr *E, llvm::StringRef Action);
  int load(LValue L) {
    if (L.Arg >= 0)
      return B.loadArg(L.Arg, L.Idx);
    return L.Idx >= 0 ? B.loadElem(L.Var, L.Idx) : B.get(L.Var);
  }
  void store(LValue L, int V) {
    if (L.Arg >= 0)
      B.storeArg(L.Arg, L.Idx, V);
    else if (L.Idx >= 0)
      B.storeElem(L.Var, L.Idx, V);
    else
      B.set(L.Var, V);
  }
  int arrayParam(const Expr *Base);
  std::map<const ParmVarDecl *, int> ArgOf;
  bool arrayDecl(const VarDecl *VD);
  int convert(int T, QualType From, QualType To);
  int constant(const Expr *E);
  int zeroOf(Type T);

  const FunctionDecl *Top;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  bool WantGrad;
  ir::Function &F;
  ir::Builder B;
  /// A deque: inlining a call pushes a frame while references to the
  /// enclosing frames (and iterators into their Vars) are held, e.g. in
  /// lvalue() while lowering an index that calls a helper; a vector would
  /// copy the frames when it grows (DenseMap's move is not noexcept) and
  /// leave those dangling.
  std::deque<Frame> Frames;
  std::vector<LoopCtx> Loops;
  bool Failed = false;
  /// Where convert() reports an unsupported conversion: the expression
  /// being lowered (or the cast being applied).
  SourceLocation Where;
};

void Lowerer::error(SourceLocation Loc, llvm::StringRef What,
                    llvm::StringRef Instead) {
  Failed = true;
  report(Diags, DiagnosticsEngine::Error, Loc,
         "%0 is not supported in a batch/diff function; %1")
      << What << Instead;
}

int Lowerer::zeroOf(Type T) {
  if (T == Type::Bool)
    return B.constB(false);
  if (ir::isFloat(T))
    return B.constF(T, 0.0);
  return B.constI(T, 0);
}

bool Lowerer::run() {
  F.Name = Top->getNameAsString();
  QualType RT = Top->getReturnType();
  if (RT->isVoidType()) {
    F.RetTy = Type::Void;
  } else if (auto T = irType(RT)) {
    F.RetTy = *T;
    F.RetCType = RT.getUnqualifiedType().getAsString();
    F.RetNativeLayout = nativeLayout(Ctx, RT, *T);
  } else {
    error(Top->getReturnTypeSourceRange(),
          "returning type '" + RT.getAsString() + "'",
          "return a float, double, integer or _Bool scalar");
    return false;
  }
  if (Top->isVariadic())
    error(Top->getLocation(), "a variadic function",
          "give the function a fixed parameter list");

  Frame Fr;
  Fr.FD = Top;
  for (unsigned I = 0; I < Top->getNumParams(); ++I) {
    const ParmVarDecl *P = Top->getParamDecl(I);
    QualType PT = P->getType();
    auto T = irType(PT);
    ir::Param AP;
    if (!T && PT->isPointerType()) {
      if (!lowerArrayParam(Top, I, Ctx, Diags, AP))
        Failed = true;
      F.Params.push_back(AP);
      continue;
    }
    if (!T) {
      bool Ptr = PT->isPointerType() || PT->isArrayType();
      error(P->getLocation(),
            Ptr ? "pointer or array parameter '" + P->getNameAsString() + "'"
                : "parameter '" + P->getNameAsString() + "' of type '" +
                      PT.getAsString() + "'",
            Ptr ? "pointer and array parameters are not supported yet; pass "
                  "scalars"
                : "use float, double, integer or _Bool parameters");
      continue;
    }
    if (PT.isVolatileQualified())
      error(P->getLocation(), "a volatile parameter", "remove 'volatile'");
    ir::Param IP;
    IP.Name = P->getNameAsString();
    if (IP.Name.empty())
      IP.Name = "p" + std::to_string(I);
    IP.Ty = *T;
    IP.CType = PT.getUnqualifiedType().getAsString();
    IP.NativeLayout = nativeLayout(Ctx, PT, *T);
    IP.Uniform = isUniform(P);
    IP.NoDiff = isNoDiff(P) || !ir::isFloat(*T);
    F.Params.push_back(IP);
  }
  if (Failed)
    return false;
  bool Outputs = false;
  for (const ir::Param &P : F.Params)
    Outputs |= P.IsArray && P.Writable && ir::isFloat(P.Ty) && !P.NoDiff;
  if (WantGrad && F.RetTy == Type::Void && !Outputs)
    error(Top->getLocation(), "'diff' on a function returning void",
          "return the value to differentiate");
  if (WantGrad && !ir::isFloat(F.RetTy) && F.RetTy != Type::Void)
    error(Top->getReturnTypeSourceRange(),
          "'diff' on a function returning a non-floating type",
          "return float or double, or use only 'batch'");
  if (Failed)
    return false;
  for (unsigned I = 0; I < Top->getNumParams(); ++I) {
    const ParmVarDecl *P = Top->getParamDecl(I);
    if (F.Params[I].IsArray) {
      ArgOf[P] = (int)I;
      continue;
    }
    int V = F.newVar(F.Params[I].Name, F.Params[I].Ty);
    Fr.Vars[P] = V;
    B.set(V, B.param(I));
  }
  body(Top, Top->getBody(), Fr);
  if (Failed)
    return false;
  if (F.RetTy != Type::Void)
    F.Outputs.push_back({ir::OutKind::Ret, -1, Fr.RetVar});
  return true;
}

Ret Lowerer::body(const FunctionDecl *FD, const Stmt *Body, Frame &Fr) {
  if (FD->getReturnType()->isVoidType()) {
    Fr.RetVar = -1;
  } else {
    Type RT = *irType(FD->getReturnType());
    Fr.RetVar = F.newVar("__ret", RT);
    B.set(Fr.RetVar, zeroOf(RT));
  }
  Fr.RetFlag = F.newVar("__returned", Type::Bool);
  B.set(Fr.RetFlag, B.constB(false));
  Frames.push_back(std::move(Fr));
  Ret R = stmt(Body);
  Fr = std::move(Frames.back());
  Frames.pop_back();
  return R;
}

Ret Lowerer::stmtList(llvm::ArrayRef<const Stmt *> List) {
  Ret Acc = Ret::Never;
  for (size_t I = 0; I < List.size(); ++I) {
    // `if (c) return a; rest` lowers as `if (c) return a; else rest`, so
    // guard clauses need no return flag and the rest runs under the
    // complement mask.
    if (const auto *IS = dyn_cast<IfStmt>(List[I]); IS && I + 1 < List.size())
      if (auto R = guardClause(IS, List.drop_front(I + 1)))
        return *R;
    Ret R = stmt(List[I]);
    if (Failed)
      return Ret::Never;
    if (R == Ret::Always)
      return Ret::Always;
    if (R == Ret::Maybe && I + 1 < List.size()) {
      // The rest runs only where no return, break or continue happened.
      int Done = exitFlags(List[I], true, true, true);
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
  if (!St || Failed)
    return Ret::Never;
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
  if (const auto *FS = dyn_cast<ForStmt>(St)) {
    if (FS->getConditionVariable()) {
      error(FS->getBeginLoc(), "a declaration in a for condition",
            "declare the variable before the loop");
      return Ret::Never;
    }
    return loopStmt(FS->getInit(), FS->getCond(), FS->getInc(), FS->getBody(),
                    true);
  }
  if (const auto *WS = dyn_cast<WhileStmt>(St)) {
    if (WS->getConditionVariable()) {
      error(WS->getBeginLoc(), "a declaration in a while condition",
            "declare the variable before the loop");
      return Ret::Never;
    }
    return loopStmt(nullptr, WS->getCond(), nullptr, WS->getBody(), true);
  }
  if (const auto *DS = dyn_cast<DoStmt>(St))
    return loopStmt(nullptr, DS->getCond(), nullptr, DS->getBody(), false);
  if ((isa<BreakStmt>(St) || isa<ContinueStmt>(St)) && !Loops.empty())
    return jumpStmt(St);
  SourceLocation Loc = St->getBeginLoc();
  if (isa<GotoStmt>(St) || isa<IndirectGotoStmt>(St))
    error(Loc, "'goto'", "use if/else and early returns");
  else if (isa<LabelStmt>(St))
    error(Loc, "a label", "use if/else and early returns");
  else if (isa<SwitchStmt>(St))
    error(Loc, "'switch'", "use if/else");
  else if (isa<AsmStmt>(St))
    error(Loc, "inline assembly", "write the computation in C");
  else if (isa<BreakStmt>(St) || isa<ContinueStmt>(St))
    error(Loc, "'break'/'continue' outside a loop", "use if/else");
  else
    error(Loc, std::string("the statement '") + St->getStmtClassName() + "'",
          "use assignments, if/else and return");
  return Ret::Never;
}

/// Whether a break/continue in \p S leaves S (not caught by an inner loop).
bool escapes(const Stmt *S, bool Break) {
  if (!S)
    return false;
  if (Break ? isa<BreakStmt>(S) : isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S))
    return false;
  if (Break && isa<SwitchStmt>(S))
    return false;
  for (const Stmt *C : S->children())
    if (escapes(C, Break))
      return true;
  return false;
}

/// OR of the exit flags \p St may have set (return, break, continue).
int Lowerer::exitFlags(const Stmt *St, bool Ret, bool Brk, bool Cnt) {
  int Acc = -1;
  auto Add = [&](int Var) {
    if (Var < 0)
      return;
    int V = B.get(Var);
    Acc = Acc < 0 ? V : B.bin(Op::Or, Acc, V);
  };
  if (Ret && mayReturn(St))
    Add(Frames.back().RetFlag);
  if (!Loops.empty()) {
    if (Brk && escapes(St, true))
      Add(Loops.back().BrkVar);
    if (Cnt && escapes(St, false))
      Add(Loops.back().CntVar);
  }
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
  bool Returns = mayReturn(Body);
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
  auto Left = [&]() { // broke or returned in this iteration
    int A = -1;
    if (L.BrkVar >= 0)
      A = B.get(L.BrkVar);
    if (Returns) {
      int R = B.get(Frames.back().RetFlag);
      A = A < 0 ? R : B.bin(Op::Or, A, R);
    }
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
  B.setBlock(Saved);
  if (Failed || Go < 0)
    return Ret::Never;
  B.setBlock(&Loop.Body);
  Loop.Cond = Out < 0 ? Go : B.bin(Op::And, Go, B.un(Op::Not, Out));
  B.setBlock(Saved);
  return Returns ? Ret::Maybe : Ret::Never;
}

Ret Lowerer::declStmt(const DeclStmt *DS) {
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD) {
      if (isa<TypedefNameDecl>(D) || isa<TagDecl>(D) ||
          isa<StaticAssertDecl>(D))
        continue;
      error(D->getLocation(), "this declaration", "declare scalar locals");
      continue;
    }
    if (VD->isStaticLocal() || VD->hasExternalStorage()) {
      error(VD->getLocation(),
            "static or extern local variable '" + VD->getNameAsString() + "'",
            "a batched function keeps no state between calls; use an "
            "ordinary local");
      continue;
    }
    QualType T = VD->getType();
    if (T.isVolatileQualified()) {
      error(VD->getLocation(), "a volatile variable", "remove 'volatile'");
      continue;
    }
    if (arrayDecl(VD))
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
    if (T.isVolatileQualified()) {
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
  auto FallsThrough = [](const Stmt *S) {
    return !mayReturn(S) && !escapes(S, true) && !escapes(S, false);
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

Ret Lowerer::ifStmt(const IfStmt *IS) {
  if (IS->isConsteval() || IS->hasInitStorage() || IS->hasVarStorage()) {
    error(IS->getBeginLoc(), "this form of 'if'", "use a plain if/else");
    return Ret::Never;
  }
  int C = cond(IS->getCond());
  if (C < 0)
    return Ret::Never;
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
  if (const Expr *V = RS->getRetValue()) {
    int T = expr(V);
    if (T < 0)
      return Ret::Never;
    if (Fr.RetVar >= 0)
      B.set(Fr.RetVar, T);
  }
  B.set(Fr.RetFlag, B.constB(true));
  return Ret::Always;
}

int Lowerer::constant(const Expr *E) {
  if (E->isValueDependent() || !literalOnly(E))
    return -1;
  auto T = irType(E->getType());
  if (!T)
    return -1;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects)
    return -1;
  if (R.Val.isInt()) {
    if (*T == Type::Bool)
      return B.constB(R.Val.getInt().getBoolValue());
    if (ir::isFloat(*T))
      return -1;
    const llvm::APSInt &V = R.Val.getInt();
    return B.constI(*T, V.isSigned() ? V.getSExtValue()
                                     : (int64_t)V.getZExtValue());
  }
  if (R.Val.isFloat() && ir::isFloat(*T)) {
    llvm::APFloat V = R.Val.getFloat();
    bool Lost;
    V.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &Lost);
    return B.constF(*T, V.convertToDouble());
  }
  return -1;
}

int Lowerer::expr(const Expr *E) {
  if (Failed)
    return -1;
  E = E->IgnoreParens();
  Where = E->getBeginLoc();
  if (int C = constant(E); C >= 0)
    return C;
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return castExpr(CE);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return unary(UO);
  if (const auto *CAO = dyn_cast<CompoundAssignOperator>(E))
    return compoundAssign(CAO);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binary(BO);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return conditional(CO);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return call(CE);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return B.constI(*irType(E->getType()), EC->getInitVal().getSExtValue());
  if (isa<ArraySubscriptExpr>(E))
    error(E->getBeginLoc(), "array subscripting",
          "index array parameters and local arrays with [] instead");
  else if (isa<MemberExpr>(E))
    error(E->getBeginLoc(), "struct member access", "pass scalars");
  else if (isa<StmtExpr>(E))
    error(E->getBeginLoc(), "a statement expression", "use a helper function");
  else if (isa<StringLiteral>(E))
    error(E->getBeginLoc(), "a string literal", "use numbers");
  else if (isa<BinaryConditionalOperator>(E))
    error(E->getBeginLoc(), "the GNU '?:' extension", "write 'a ? a : b'");
  else
    error(E->getBeginLoc(),
          std::string("the expression '") + E->getStmtClassName() + "'",
          "use arithmetic on scalar locals and parameters");
  return -1;
}

int Lowerer::convert(int T, QualType From, QualType To) {
  if (T < 0)
    return -1;
  auto FT = irType(From), TT = irType(To);
  if (!FT || !TT) {
    error(Where, "a conversion to '" + To.getAsString() + "'",
          "use arithmetic types");
    return -1;
  }
  if (*TT == Type::Bool) {
    if (*FT == Type::Bool)
      return T;
    return B.cmp(Op::CmpNE, T, zeroOf(*FT));
  }
  int R = B.cast(*TT, T);
  if (auto N = narrowing(To)) {
    auto FN = narrowing(From);
    bool Same = FN && Ctx.hasSameUnqualifiedType(From, To);
    if (!Same && *FT != Type::Bool)
      R = B.un(*N, R);
  }
  return R;
}

int Lowerer::castExpr(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
    return readLValue(Sub);
  case CK_NoOp:
    return expr(Sub);
  case CK_ToVoid:
    expr(Sub);
    return Failed ? -1 : B.constB(false);
  case CK_IntegralCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean: {
    int T = expr(Sub);
    Where = CE->getBeginLoc();
    return convert(T, Sub->getType(), CE->getType());
  }
  default:
    if (isa<StringLiteral>(Sub->IgnoreParens())) {
      error(Sub->getBeginLoc(), "a string literal", "use numbers");
      return -1;
    }
    error(CE->getBeginLoc(),
          std::string("the conversion '") + CE->getCastKindName() + "'",
          "use conversions between arithmetic types");
    return -1;
  }
}

/// The array parameter \p Base names, or -1.
int Lowerer::arrayParam(const Expr *Base) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *PD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  auto It = PD ? ArgOf.find(PD) : ArgOf.end();
  return It == ArgOf.end() || Frames.size() != 1 ? -1 : It->second;
}

Lowerer::LValue Lowerer::lvalue(const Expr *E, llvm::StringRef Action) {
  E = E->IgnoreParens();
  const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
  const auto *UO = dyn_cast<UnaryOperator>(E);
  if (UO && UO->getOpcode() == UO_Deref) {
    int A = arrayParam(UO->getSubExpr());
    if (A >= 0) {
      LValue L;
      L.Arg = A;
      L.Idx = B.constI(Type::I32, 0);
      return L;
    }
  }
  if (AS) {
    int A = arrayParam(AS->getBase());
    if (A >= 0) {
      int I = expr(AS->getIdx());
      if (I < 0)
        return {};
      LValue L;
      L.Arg = A;
      L.Idx = B.cast(Type::I32, I);
      return L;
    }
  }
  if (!AS) {
    int V = varOf(E, Action);
    if (V >= 0 && F.Vars[V].Len > 0) {
      error(E->getBeginLoc(), "using a local array as a whole",
            "index its elements");
      V = -1;
    }
    return {V, -1};
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  auto It = VD ? Frames.back().Vars.find(VD) : Frames.back().Vars.end();
  if (It == Frames.back().Vars.end() || F.Vars[It->second].Len == 0) {
    error(E->getBeginLoc(), "array subscripting of anything but a local array",
          "index a local array or an array parameter of the function");
    return {};
  }
  int I = expr(AS->getIdx());
  if (I < 0)
    return {};
  return {It->second, B.cast(Type::I32, I)};
}

/// `T a[N]` (one dimension, constant N) with an optional initializer list;
/// elements not initialised are zero, as for static storage.
bool Lowerer::arrayDecl(const VarDecl *VD) {
  const auto *CAT = Ctx.getAsConstantArrayType(VD->getType());
  if (!CAT)
    return false;
  auto ET = irType(CAT->getElementType());
  uint64_t N = CAT->getSize().getZExtValue();
  if (!ET || N == 0 || N > 65536) {
    error(VD->getLocation(),
          "local array '" + VD->getNameAsString() + "' of type '" +
              VD->getType().getAsString() + "'",
          "use a one-dimensional array of 1..65536 scalars");
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
  for (unsigned I = 0; I < IL->getNumInits() && I < N; ++I) {
    const Expr *E = IL->getInit(I);
    if (isa<ImplicitValueInitExpr>(E))
      continue;
    int T = expr(E);
    if (T < 0)
      return true;
    B.storeElem(V, B.constI(Type::I32, I), T);
  }
  return true;
}

int Lowerer::varOf(const Expr *LV, llvm::StringRef Action) {
  LV = LV->IgnoreParens();
  const auto *DRE = dyn_cast<DeclRefExpr>(LV);
  if (!DRE) {
    // Name the construct: `t[i]`, `s.x` and `(T){v}` are not pointers.
    const auto *UO = dyn_cast<UnaryOperator>(LV);
    if (isa<ArraySubscriptExpr>(LV))
      error(LV->getBeginLoc(), "array subscripting",
            "index array parameters and local arrays with [] instead");
    else if (isa<MemberExpr>(LV))
      error(LV->getBeginLoc(), "struct member access", "pass scalars");
    else if (UO && UO->getOpcode() == UO_Deref)
      error(LV->getBeginLoc(), std::string(Action) + " through a pointer",
            "index array parameters and local arrays with [] instead");
    else
      error(LV->getBeginLoc(),
            std::string("the expression '") + LV->getStmtClassName() + "'",
            "use arithmetic on scalar locals and parameters");
    return -1;
  }
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (VD && VD->getType().isVolatileQualified()) {
    error(LV->getBeginLoc(),
          "access to volatile '" + VD->getNameAsString() + "'",
          "remove 'volatile'");
    return -1;
  }
  auto It = VD ? Frames.back().Vars.find(VD) : Frames.back().Vars.end();
  if (It != Frames.back().Vars.end())
    return It->second;
  if (VD && VD->hasGlobalStorage()) {
    error(LV->getBeginLoc(),
          std::string(Action) + " of global variable '" +
              VD->getNameAsString() + "'",
          Action == "writing" ? "return the value instead"
                              : "pass it as a BD_UNIFORM parameter or make "
                                "it a 'const' with a constant initializer");
    return -1;
  }
  if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(VD);
      PD && ArgOf.count(PD)) {
    error(LV->getBeginLoc(),
          "using the array parameter '" + PD->getNameAsString() +
              "' as a whole (passing it on, pointer arithmetic)",
          "index its elements; helpers take scalar parameters");
    return -1;
  }
  error(LV->getBeginLoc(), std::string(Action) + " of this entity",
        "use locals and parameters");
  return -1;
}

int Lowerer::readLValue(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    // A const global with a constant initializer is a constant.
    if (VD && VD->hasGlobalStorage() && VD->getType().isConstQualified() &&
        !VD->getType().isVolatileQualified()) {
      if (const APValue *V = VD->evaluateValue()) {
        auto T = irType(VD->getType());
        if (T && V->isFloat() && ir::isFloat(*T)) {
          llvm::APFloat FV = V->getFloat();
          bool Lost;
          FV.convert(llvm::APFloat::IEEEdouble(),
                     llvm::APFloat::rmNearestTiesToEven, &Lost);
          return B.constF(*T, FV.convertToDouble());
        }
        if (T && V->isInt())
          return *T == Type::Bool ? B.constB(V->getInt().getBoolValue())
                                  : B.constI(*T, V->getInt().getExtValue());
      }
    }
  }
  LValue L = lvalue(E, "reading");
  return L.ok() ? load(L) : -1;
}

int Lowerer::unary(const UnaryOperator *UO) {
  const Expr *Sub = UO->getSubExpr();
  switch (UO->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return expr(Sub);
  case UO_Minus: {
    int T = expr(Sub);
    return T < 0 ? -1 : B.un(Op::Neg, T);
  }
  case UO_Not: {
    int T = expr(Sub);
    return T < 0 ? -1 : B.un(Op::BitNot, T);
  }
  case UO_LNot: {
    int C = cond(Sub);
    if (C < 0)
      return -1;
    return convert(B.un(Op::Not, C), Ctx.BoolTy, UO->getType());
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    LValue LV = lvalue(Sub, "writing");
    if (!LV.ok())
      return -1;
    bool Inc = UO->isIncrementOp();
    int Old = load(LV);
    Type T = LV.Arg >= 0 ? F.Params[LV.Arg].Ty : F.Vars[LV.Var].Ty;
    int New;
    if (T == Type::Bool) {
      New = Inc ? B.constB(true) : B.un(Op::Not, Old);
    } else {
      int One = ir::isFloat(T) ? B.constF(T, 1.0) : B.constI(T, 1);
      New = B.bin(Inc ? Op::Add : Op::Sub, Old, One);
      if (auto N = narrowing(Sub->getType()))
        New = B.un(*N, New);
    }
    store(LV, New);
    return UO->isPrefix() ? New : Old;
  }
  case UO_AddrOf:
  case UO_Deref:
    error(UO->getBeginLoc(), "taking addresses or dereferencing pointers",
          "index array parameters and local arrays with [] instead");
    return -1;
  default:
    error(UO->getBeginLoc(), "this unary operator", "use scalar arithmetic");
    return -1;
  }
}

/// Mirrors clang's tryEmitFMulAdd: with -ffp-contract=on (clang's default
/// for C) `a*b + c` written in one expression becomes llvm.fmuladd, so the
/// batched code must contract exactly the same operations to match bit for
/// bit.
const BinaryOperator *mulOperand(const Expr *E, bool &Neg) {
  E = E->IgnoreParens();
  Neg = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Minus) {
      Neg = true;
      E = UO->getSubExpr()->IgnoreParens();
    }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (BO && BO->getOpcode() == BO_Mul && BO->getType()->isRealFloatingType() &&
      !literalOnly(BO))
    return BO;
  Neg = false;
  return nullptr;
}

int Lowerer::addSub(const BinaryOperator *BO, const Expr *LHS, const Expr *RHS,
                    bool IsSub, int OldLHS) {
  bool NegL = false, NegR = false;
  const BinaryOperator *ML = OldLHS < 0 ? mulOperand(LHS, NegL) : nullptr;
  const BinaryOperator *MR = mulOperand(RHS, NegR);
  bool Contract = BO->getType()->isRealFloatingType() &&
                  BO->getFPFeaturesInEffect(Ctx.getLangOpts())
                      .allowFPContractWithinStatement();
  if (Contract && ML) {
    int A = expr(ML->getLHS()), Bv = expr(ML->getRHS());
    int C = expr(RHS);
    if (A < 0 || Bv < 0 || C < 0)
      return -1;
    if (NegL)
      A = B.neg(A);
    if (IsSub)
      C = B.neg(C);
    return B.fmuladd(A, Bv, C);
  }
  int L = OldLHS >= 0 ? OldLHS : expr(LHS);
  if (L < 0)
    return -1;
  if (Contract && MR) {
    int A = expr(MR->getLHS()), Bv = expr(MR->getRHS());
    if (A < 0 || Bv < 0)
      return -1;
    if (IsSub != NegR)
      A = B.neg(A);
    return B.fmuladd(A, Bv, L);
  }
  int R = expr(RHS);
  if (R < 0)
    return -1;
  return B.bin(IsSub ? Op::Sub : Op::Add, L, R);
}

int Lowerer::arith(const BinaryOperator *BO, int L, int R) {
  switch (BO->getOpcode()) {
  case BO_Mul:
  case BO_MulAssign:
    return B.bin(Op::Mul, L, R);
  case BO_Div:
  case BO_DivAssign:
    return B.bin(Op::Div, L, R);
  case BO_Rem:
  case BO_RemAssign:
    return B.bin(Op::Rem, L, R);
  case BO_Add:
  case BO_AddAssign:
    return B.bin(Op::Add, L, R);
  case BO_Sub:
  case BO_SubAssign:
    return B.bin(Op::Sub, L, R);
  case BO_Shl:
  case BO_ShlAssign:
    return B.bin(Op::Shl, L, B.cast(F.Temps[L], R));
  case BO_Shr:
  case BO_ShrAssign:
    return B.bin(Op::Shr, L, B.cast(F.Temps[L], R));
  case BO_And:
  case BO_AndAssign:
    return B.bin(Op::BitAnd, L, R);
  case BO_Or:
  case BO_OrAssign:
    return B.bin(Op::BitOr, L, R);
  case BO_Xor:
  case BO_XorAssign:
    return B.bin(Op::BitXor, L, R);
  default:
    error(BO->getOperatorLoc(), "this operator", "use scalar arithmetic");
    return -1;
  }
}

int Lowerer::binary(const BinaryOperator *BO) {
  BinaryOperatorKind K = BO->getOpcode();
  if (!BO->getLHS()->getType()->isArithmeticType() && K != BO_Comma &&
      K != BO_Assign) {
    error(BO->getOperatorLoc(), "pointer arithmetic",
          "index array parameters and local arrays with [] instead");
    return -1;
  }
  if (K == BO_Assign) {
    LValue LV = lvalue(BO->getLHS(), "writing");
    if (!LV.ok())
      return -1;
    int R = expr(BO->getRHS());
    if (R < 0)
      return -1;
    store(LV, R);
    return R;
  }
  if (K == BO_Comma) {
    expr(BO->getLHS());
    return expr(BO->getRHS());
  }
  if (K == BO_LAnd || K == BO_LOr)
    return convert(logical(BO), Ctx.BoolTy, BO->getType());
  if (BO->isComparisonOp()) {
    int C = compare(BO);
    return C < 0 ? -1 : convert(C, Ctx.BoolTy, BO->getType());
  }
  if (K == BO_Add || K == BO_Sub)
    return addSub(BO, BO->getLHS(), BO->getRHS(), K == BO_Sub, -1);
  int L = expr(BO->getLHS());
  int R = expr(BO->getRHS());
  if (L < 0 || R < 0)
    return -1;
  return arith(BO, L, R);
}

int Lowerer::compoundAssign(const CompoundAssignOperator *CAO) {
  LValue LV = lvalue(CAO->getLHS(), "writing");
  if (!LV.ok())
    return -1;
  QualType LT = CAO->getLHS()->getType();
  QualType CT = CAO->getComputationLHSType();
  int Old = convert(load(LV), LT, CT);
  if (Old < 0)
    return -1;
  int R;
  BinaryOperatorKind K = CAO->getOpcode();
  if (K == BO_AddAssign || K == BO_SubAssign) {
    R = addSub(CAO, CAO->getLHS(), CAO->getRHS(), K == BO_SubAssign, Old);
  } else {
    int Rhs = expr(CAO->getRHS());
    if (Rhs < 0)
      return -1;
    if (K != BO_ShlAssign && K != BO_ShrAssign)
      Rhs = convert(Rhs, CAO->getRHS()->getType(), CT);
    R = arith(CAO, Old, Rhs);
  }
  if (R < 0)
    return -1;
  int New = convert(R, CAO->getComputationResultType(), LT);
  if (New < 0)
    return -1;
  store(LV, New);
  return New;
}

int Lowerer::compare(const BinaryOperator *BO) {
  int L = expr(BO->getLHS()), R = expr(BO->getRHS());
  if (L < 0 || R < 0)
    return -1;
  static const Op Cmp[] = {Op::CmpLT, Op::CmpGT, Op::CmpLE,
                           Op::CmpGE, Op::CmpEQ, Op::CmpNE};
  return B.cmp(Cmp[BO->getOpcode() - BO_LT], L, R);
}

int Lowerer::cond(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)
      return logical(BO);
    if (BO->isComparisonOp())
      return compare(BO);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_LNot) {
      int C = cond(UO->getSubExpr());
      return C < 0 ? -1 : B.un(Op::Not, C);
    }
  int T = expr(E);
  return T < 0 ? -1 : convert(T, E->getType(), Ctx.BoolTy);
}

int Lowerer::logical(const BinaryOperator *BO) {
  bool IsAnd = BO->getOpcode() == BO_LAnd;
  int L = cond(BO->getLHS());
  if (L < 0)
    return -1;
  if (pure(BO->getRHS()) && !hasCall(BO->getRHS())) {
    int R = cond(BO->getRHS());
    return R < 0 ? -1 : B.bin(IsAnd ? Op::And : Op::Or, L, R);
  }
  // Short circuit: the right side runs only where C would run it.
  int V = F.newVar("__sc", Type::Bool);
  B.set(V, L);
  ir::Stmt &If = B.ifStmt(IsAnd ? L : B.un(Op::Not, L));
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  int R = cond(BO->getRHS());
  if (R >= 0)
    B.set(V, R);
  B.setBlock(Saved);
  return R < 0 ? -1 : B.get(V);
}

int Lowerer::conditional(const ConditionalOperator *CO) {
  int C = cond(CO->getCond());
  if (C < 0)
    return -1;
  const Expr *TE = CO->getTrueExpr(), *FE = CO->getFalseExpr();
  auto T = irType(CO->getType());
  if (!T) {
    error(CO->getBeginLoc(), "a '?:' of non-arithmetic type",
          "use arithmetic types");
    return -1;
  }
  // Cheap pure arms become a select; arms with calls branch, so lanes that
  // agree skip the work of the other arm.
  if (pure(TE) && pure(FE) && !hasCall(TE) && !hasCall(FE)) {
    int A = expr(TE), Bv = expr(FE);
    return A < 0 || Bv < 0 ? -1 : B.select(C, A, Bv);
  }
  int V = F.newVar("__cond", *T);
  ir::Stmt &If = B.ifStmt(C);
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  int A = expr(TE);
  if (A >= 0)
    B.set(V, A);
  B.setBlock(&If.Else);
  int Bv = expr(FE);
  if (Bv >= 0)
    B.set(V, Bv);
  B.setBlock(Saved);
  return A < 0 || Bv < 0 ? -1 : B.get(V);
}

int Lowerer::call(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee) {
    error(CE->getBeginLoc(), "a call through a function pointer",
          "call the function directly");
    return -1;
  }
  std::string Name = Callee->getNameAsString();
  llvm::StringRef N(Name);
  N.consume_front("__builtin_");
  const FunctionDecl *Def = Callee->getDefinition();
  bool UserDefined =
      Def && !Ctx.getSourceManager().isInSystemHeader(Def->getLocation());
  auto It = mathTable().find(N);
  if (It != mathTable().end() && !UserDefined) {
    const MathEntry &M = It->second;
    if ((int)CE->getNumArgs() != M.NArgs) {
      error(CE->getBeginLoc(), "this call of '" + Name + "'",
            "pass the arguments <math.h> declares");
      return -1;
    }
    std::vector<int> Args;
    for (const Expr *A : CE->arguments()) {
      int T = expr(A);
      if (T < 0)
        return -1;
      Args.push_back(B.cast(M.Ty, T));
    }
    int R = B.math(M.Fn, Args);
    B.block()->back()->Loc = CE->getBeginLoc().getRawEncoding();
    return R;
  }
  if (Def && Def->hasBody()) {
    bool Allowed = hasBatch(Def) || hasDiff(Def) ||
                   Def->getStorageClass() == SC_Static || Def->isInlined();
    if (Allowed)
      return inlineCall(CE, Def);
    error(CE->getBeginLoc(), "call to external function '" + Name + "'",
          "mark it 'static inline' or batch/diff so its body can be batched");
    return -1;
  }
  // A C library function (lgamma, rint, ldexp, ...) outside the table: say
  // so, rather than calling it unknown.
  if (Callee->getBuiltinID() ||
      Ctx.getSourceManager().isInSystemHeader(Callee->getLocation())) {
    error(CE->getBeginLoc(), "the library function '" + Name + "'",
          "it has no batched version yet (docs/subset.md lists the <math.h> "
          "functions that have one)");
    return -1;
  }
  error(CE->getBeginLoc(), "call to unknown function '" + Name + "'",
        "only <math.h> functions, batch/diff functions and static inline "
        "helpers defined earlier in this file can be called");
  return -1;
}

int Lowerer::inlineCall(const CallExpr *CE, const FunctionDecl *Callee) {
  for (const Frame &Fr : Frames)
    if (Fr.FD->getCanonicalDecl() == Callee->getCanonicalDecl()) {
      error(CE->getBeginLoc(),
            "recursion (through '" + Callee->getNameAsString() + "')",
            "write the recursion as a loop");
      return -1;
    }
  if (Callee->isVariadic()) {
    error(CE->getBeginLoc(), "a call to a variadic function",
          "give the helper a fixed parameter list");
    return -1;
  }
  Frame Fr;
  Fr.FD = Callee;
  std::vector<int> Args;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    int T = expr(CE->getArg(I));
    if (T < 0)
      return -1;
    Args.push_back(T);
  }
  for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    auto T = irType(P->getType());
    if (!T || I >= Args.size()) {
      error(P->getLocation(), "helper parameter '" + P->getNameAsString() + "'",
            "helpers take scalar parameters");
      return -1;
    }
    int V = F.newVar(P->getNameAsString(), *T);
    Fr.Vars[P] = V;
    B.set(V, B.cast(*T, Args[I]));
  }
  if (Callee->getReturnType()->isVoidType() ||
      irType(Callee->getReturnType())) {
    body(Callee, Callee->getBody(), Fr);
  } else {
    error(CE->getBeginLoc(), "a helper returning a non-scalar",
          "return a scalar");
  }
  if (Failed)
    return -1;
  if (Fr.RetVar < 0)
    return B.constB(false);
  return B.get(Fr.RetVar);
}

} // namespace

bool lowerFunction(const FunctionDecl *FD, Sema &S, bool WantGrad,
                   ir::Function &Out) {
  Lowerer L(FD, S, WantGrad, Out);
  return L.run();
}

} // namespace batchdiff
