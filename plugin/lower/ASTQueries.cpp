//===- ASTQueries.cpp - syntactic questions about clang statements
//----------===//
#include "lower/LowerImpl.h"

#include "clang/AST/StmtOpenMP.h"

namespace batchdiff {
namespace lowering {

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

static bool literalOnlyNode(const Stmt *S, const ASTContext &Ctx,
                            LiteralMemo *Memo);

bool literalOnly(const Stmt *S, const ASTContext &Ctx, LiteralMemo *Memo) {
  if (!S)
    return true;
  if (!Memo)
    return literalOnlyNode(S, Ctx, nullptr);
  if (auto It = Memo->find(S); It != Memo->end())
    return It->second;
  bool R = literalOnlyNode(S, Ctx, Memo);
  (*Memo)[S] = R; // (not an iterator from before: the recursion inserts)
  return R;
}

static bool literalOnlyNode(const Stmt *S, const ASTContext &Ctx,
                            LiteralMemo *Memo) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return isa<EnumConstantDecl>(DRE->getDecl()) ||
           isa<FunctionDecl>(DRE->getDecl());
  // Builtins such as __builtin_inff() (INFINITY, NAN) fold to constants, as
  // in clang's EmitBuiltinExpr: a call only where the evaluator folds the
  // call itself. fabsf(0.125f) is not folded there (it becomes llvm.fabs, so
  // a product of it is an instruction that clang contracts).
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (!CE->getBuiltinCallee())
      return false;
    Expr::EvalResult R;
    return CE->isPRValue() && CE->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects;
  }
  if (isa<StmtExpr>(S))
    return false;
  if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(S))
    return !U->isArgumentType() || !U->getArgumentType()->isVariableArrayType();
  for (const Stmt *C : astChildren(S))
    if (!literalOnly(C, Ctx, Memo))
      return false;
  return true;
}

bool pure(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp())
      return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp())
      return false;
  for (const Stmt *C : astChildren(S))
    if (!pure(C))
      return false;
  return true;
}

/// Whether node \p S itself (not its children) reads the caller's memory.
static bool readsUserMemoryHere(const Stmt *S) {
  const Expr *Base = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
    Base = AS->getBase();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && UO->getOpcode() == UO_Deref)
    Base = UO->getSubExpr();
  else if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    Base = ME->getBase();
  if (Base) {
    // A local array (or a row of one), or a file-scope table of known
    // length: lowering keeps such reads in bounds. Anything reached through
    // a pointer may be the caller's memory, and so may a table declared
    // without its length (`extern const double T[];`): no index is clamped.
    const Expr *E = Base->IgnoreParenImpCasts();
    while (const auto *Row = dyn_cast<ArraySubscriptExpr>(E))
      E = Row->getBase()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || isa<ParmVarDecl>(VD) || !VD->getType()->isConstantArrayType())
      return true;
  }
  return false;
}

bool readsUserMemory(const Stmt *S) {
  if (!S)
    return false;
  if (readsUserMemoryHere(S))
    return true;
  for (const Stmt *C : astChildren(S))
    if (readsUserMemory(C))
      return true;
  return false;
}

bool speculable(const Stmt *S, LiteralMemo &Memo) {
  if (!S)
    return true;
  auto It = Memo.find(S);
  if (It != Memo.end())
    return It->second;
  bool R = !isa<CallExpr>(S) && !readsUserMemoryHere(S);
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    R &= !BO->isAssignmentOp();
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    R &= !UO->isIncrementDecrementOp();
  for (const Stmt *C : astChildren(S))
    R = R && speculable(C, Memo);
  Memo[S] = R;
  return R;
}

bool hasCall(const Stmt *S) { return contains<CallExpr>(S); }
bool mayReturn(const Stmt *S) { return contains<ReturnStmt>(S); }

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

bool escapes(const Stmt *S, bool Break) {
  if (!S)
    return false;
  if (Break ? isa<BreakStmt>(S) : isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S))
    return false;
  if (Break && isa<SwitchStmt>(S))
    return false;
  for (const Stmt *C : astChildren(S))
    if (escapes(C, Break))
      return true;
  return false;
}

/// Mirrors clang's tryEmitFMulAdd: with -ffp-contract=on (clang's default
/// for C) `a*b + c` written in one expression becomes llvm.fmuladd, so the
/// batched code must contract exactly the same operations to match bit for
/// bit.
const BinaryOperator *mulOperand(const Expr *E, bool &Neg,
                                 const ASTContext &Ctx, LiteralMemo *Memo) {
  E = E->IgnoreParens();
  Neg = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Minus) {
      Neg = true;
      E = UO->getSubExpr()->IgnoreParens();
    }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (BO && BO->getOpcode() == BO_Mul && BO->getType()->isRealFloatingType() &&
      !literalOnly(BO, Ctx, Memo))
    return BO;
  Neg = false;
  return nullptr;
}

// A use names the declaration visible where it is written: for a global
// declared twice (`extern double g;` in a header, `double g = 1;` later),
// not necessarily VD, so declarations are compared by their canonical one.
bool modifies(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  auto Names = [VD](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl()->getCanonicalDecl() == VD->getCanonicalDecl();
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && Names(BO->getLHS()))
      return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        Names(UO->getSubExpr()))
      return true;
  for (const Stmt *C : astChildren(S))
    if (modifies(C, VD))
      return true;
  return false;
}

namespace {
bool addressTaken(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->getOpcode() == UO_AddrOf)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
          DRE && DRE->getDecl()->getCanonicalDecl() == VD->getCanonicalDecl())
        return true;
  for (const Stmt *C : astChildren(S))
    if (addressTaken(C, VD))
      return true;
  return false;
}
} // namespace

bool plainVolatile(const VarDecl *VD) {
  if (!VD)
    return false;
  QualType T = VD->getType();
  if (!T.isVolatileQualified() || !VD->hasLocalStorage() ||
      isa<ParmVarDecl>(VD) || !(T->isArithmeticType() || T->isBooleanType()))
    return false;
  const auto *FD = declFunction(VD);
  return FD && FD->getBody() && !addressTaken(FD->getBody(), VD);
}

std::string describeExpr(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<CompoundLiteralExpr>(E))
    return "a compound literal '(type){...}'";
  if (isa<InitListExpr>(E) || isa<DesignatedInitExpr>(E))
    return "a brace-enclosed initializer";
  if (isa<StmtExpr>(E))
    return "a GNU statement expression '({ ... })'";
  if (isa<StringLiteral>(E))
    return "a string literal";
  if (isa<MemberExpr>(E))
    return "struct member access";
  if (isa<ArraySubscriptExpr>(E))
    return "array subscripting";
  if (isa<VAArgExpr>(E))
    return "'va_arg'";
  if (isa<AddrLabelExpr>(E))
    return "the address of a label ('&&label')";
  if (isa<PredefinedExpr>(E))
    return "'__func__'";
  if (isa<ImaginaryLiteral>(E))
    return "an imaginary constant";
  if (isa<AtomicExpr>(E))
    return "an atomic operation";
  if (isa<BlockExpr>(E))
    return "a block literal '^{...}'";
  if (isa<ShuffleVectorExpr>(E) || isa<ConvertVectorExpr>(E) ||
      isa<ExtVectorElementExpr>(E))
    return "a vector operation";
  if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(E))
    return U->getKind() == UETT_SizeOf ? "'sizeof' of a variable-length array"
                                       : "this 'sizeof'/'_Alignof' form";
  if (isa<CallExpr>(E))
    return "this call";
  return "this kind of expression";
}

std::string describeStmt(const Stmt *S) {
  if (isa<OMPExecutableDirective>(S))
    return "an OpenMP directive ('#pragma omp')";
  if (isa<SEHTryStmt>(S) || isa<SEHLeaveStmt>(S))
    return "structured exception handling ('__try')";
  if (isa<CapturedStmt>(S))
    return "an outlined region ('#pragma' with a body)";
  return "this kind of statement";
}

std::string describeConversion(QualType From, QualType To) {
  return "a conversion from '" + From.getAsString() + "' to '" +
         To.getAsString() + "'";
}

} // namespace lowering
} // namespace batchdiff
