//===- ArrayParams.cpp - pointer and array parameters ---------------------===//
#include "lower/ArrayParams.h"

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"
#include "lower/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace batchdiff {
namespace {

const ParmVarDecl *paramOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// What the uses of one pointer parameter say about its extent.
struct Uses {
  const ParmVarDecl *P;
  const FunctionDecl *FD;
  int64_t MaxConst = -1;
  const ParmVarDecl *Bound = nullptr; // i < Bound in an enclosing for
  const Expr *Unknown = nullptr;      // an index nothing bounds
  const Expr *Whole = nullptr;        // a use as a pointer (p + 1, f(p))
  // Loops enclosing the current statement: (variable, bound parameter).
  std::vector<std::pair<const VarDecl *, const ParmVarDecl *>> Loops;
  ASTContext &Ctx;

  void index(const Expr *Idx) {
    Expr::EvalResult R;
    if (Idx->EvaluateAsInt(R, Ctx)) {
      MaxConst = std::max<int64_t>(MaxConst, R.Val.getInt().getExtValue());
      return;
    }
    if (const VarDecl *V = varOf(Idx))
      for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
        if (It->first == V && It->second) {
          Bound = It->second;
          return;
        }
    if (!Unknown)
      Unknown = Idx;
  }

  /// `for (...; i < n; ...)` with n an integer parameter of FD.
  std::pair<const VarDecl *, const ParmVarDecl *> loopBound(const ForStmt *FS) {
    const auto *C = dyn_cast_or_null<BinaryOperator>(
        FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!C || C->getOpcode() != BO_LT)
      return {nullptr, nullptr};
    const ParmVarDecl *N = paramOf(C->getRHS());
    if (!N || N->getDeclContext() != FD || !N->getType()->isIntegerType())
      return {nullptr, nullptr};
    return {varOf(C->getLHS()), N};
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      Loops.push_back(loopBound(FS));
      for (const Stmt *C : S->children())
        walk(C);
      Loops.pop_back();
      return;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
      if (paramOf(AS->getBase()) == P) {
        index(AS->getIdx());
        walk(AS->getIdx());
        return;
      }
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->getOpcode() == UO_Deref && paramOf(UO->getSubExpr()) == P) {
        MaxConst = std::max<int64_t>(MaxConst, 0);
        return;
      }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == P && !Whole)
        Whole = DRE;
    for (const Stmt *C : S->children())
      walk(C);
  }
};

} // namespace

bool lowerArrayParam(const FunctionDecl *FD, unsigned I, ASTContext &Ctx,
                     DiagnosticsEngine &D, ir::Param &Out, const Expr **Whole) {
  const ParmVarDecl *P = FD->getParamDecl(I);
  QualType E = P->getType()->getPointeeType();
  Out.Name = P->getNameAsString();
  Out.IsArray = true;
  Out.Uniform = isUniform(P);
  Out.Writable = !E.isConstQualified();
  auto T = irType(E);
  if (!T || E.isVolatileQualified()) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "pointer parameter '%0' to '%1' is not supported in a batch/diff "
           "function; point to float, double, integer or _Bool elements")
        << Out.Name << E.getAsString();
    return false;
  }
  Out.Ty = *T;
  Out.CType = E.getUnqualifiedType().getAsString();
  Out.NativeLayout = nativeLayout(Ctx, E, *T);
  if (!Out.NativeLayout) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "array parameter '%0' of '%1' is not supported yet in a batch/diff "
           "function; use int, float or double elements")
        << Out.Name << E.getAsString();
    return false;
  }
  Out.NoDiff = isNoDiff(P) || !ir::isFloat(*T);
  if (Out.Uniform && Out.Writable) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "BD_UNIFORM output array '%0': every example would write the same "
           "array; make it varying (one array per example) or const")
        << Out.Name;
    return false;
  }
  // Declared extents first: T v[N], T v[static N], T x[n].
  QualType Orig = P->getOriginalType();
  if (const auto *CAT = Ctx.getAsConstantArrayType(Orig)) {
    Out.StaticLen = (int)CAT->getSize().getZExtValue();
    Out.DimHow = "static " + std::to_string(Out.StaticLen) + " (declared)";
    return true;
  }
  if (const auto *VAT = Ctx.getAsVariableArrayType(Orig)) {
    const ParmVarDecl *N =
        VAT->getSizeExpr() ? paramOf(VAT->getSizeExpr()) : nullptr;
    if (N && N->getType()->isIntegerType()) {
      Out.DimParam = (int)N->getFunctionScopeIndex();
      Out.DimHow =
          "dynamic, from parameter '" + N->getNameAsString() + "' (declared)";
      return true;
    }
  }
  // A plain pointer: look at how the body indexes it.
  Uses U{P, FD, -1, nullptr, nullptr, nullptr, {}, Ctx};
  U.walk(FD->getBody());
  if (U.Whole) {
    *Whole = U.Whole;
    return true;
  }
  if (!U.Unknown && U.Bound) {
    Out.DimParam = (int)U.Bound->getFunctionScopeIndex();
    Out.DimHow = "dynamic, from parameter '" + U.Bound->getNameAsString() +
                 "' (loop bound)";
    return true;
  }
  if (!U.Unknown && U.MaxConst >= 0) {
    Out.StaticLen = (int)U.MaxConst + 1;
    Out.DimHow =
        "static " + std::to_string(Out.StaticLen) + " (constant indices)";
    return true;
  }
  report(D, DiagnosticsEngine::Error,
         U.Unknown ? U.Unknown->getBeginLoc() : P->getLocation(),
         "cannot infer the extent of '%0' in a batch/diff function; declare "
         "it as '%1 %0[n]' with an integer parameter n, or '%1 %0[static N]'")
      << Out.Name << E.getAsString();
  return false;
}

} // namespace batchdiff
