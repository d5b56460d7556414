//===- ASTQueries.cpp - syntactic questions about clang statements
//----------===//
#include "lower/LowerImpl.h"

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
  for (const Stmt *C : S->children())
    if (escapes(C, Break))
      return true;
  return false;
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

bool modifies(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  auto Names = [VD](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && Names(BO->getLHS()))
      return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        Names(UO->getSubExpr()))
      return true;
  for (const Stmt *C : S->children())
    if (modifies(C, VD))
      return true;
  return false;
}

} // namespace lowering
} // namespace batchdiff
