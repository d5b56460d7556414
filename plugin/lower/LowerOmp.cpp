//===- LowerOmp.cpp - '#pragma omp simd' loops ----------------------------===//
//
// NAME_batched already runs the examples in SIMD lanes, so a loop under
// '#pragma omp simd' is lowered as the plain loop: its iterations in source
// order, for each example. That is one of the executions OpenMP allows (a
// simd loop of one lane), given what its clauses say:
// - safelen, simdlen, aligned, nontemporal, order, collapse and if (without
//   side effects) are hints or promises about the loop: ignored;
// - lastprivate: the value the last iteration left, as the plain loop;
// - private(x): x is a fresh variable inside the loop, and keeps its value
//   outside it;
// - linear on the loop's own counter: what the loop makes it;
// - reduction(op:x): x accumulated in source order, where each use of x in
//   the loop updates it by op (clang's scalar loop under the pragma may add
//   in another order: docs/abi.md).
// Anything else (linear on another variable, user-defined reductions, scan)
// is an error, as are the directives that run threads, tasks or devices:
// batchdiff runs the examples in parallel itself (docs/subset.md).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include "clang/AST/OpenMPClause.h"
#include "clang/Basic/OpenMPKinds.h"

namespace batchdiff {
namespace lowering {

namespace {
/// Whether directive kind \p K runs code on threads, tasks or devices.
bool runsThreads(OpenMPDirectiveKind K) {
  return isOpenMPParallelDirective(K) || isOpenMPWorksharingDirective(K) ||
         isOpenMPTaskingDirective(K) || isOpenMPTeamsDirective(K) ||
         isOpenMPTargetExecutionDirective(K) ||
         isOpenMPTargetDataManagementDirective(K) ||
         isOpenMPDistributeDirective(K) || K == llvm::omp::OMPD_single ||
         K == llvm::omp::OMPD_sections || K == llvm::omp::OMPD_section ||
         K == llvm::omp::OMPD_task;
}

const VarDecl *clauseVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The reduction identifier of \p C as written ("+", "max"), or "" if
/// user-defined.
std::string reductionOp(const OMPReductionClause *C) {
  DeclarationName N = C->getNameInfo().getName();
  if (N.getNameKind() == DeclarationName::Identifier) {
    llvm::StringRef S = N.getAsIdentifierInfo()->getName();
    return S == "min" || S == "max" ? S.str() : "";
  }
  if (N.getNameKind() != DeclarationName::CXXOperatorName)
    return "";
  switch (N.getCXXOverloadedOperator()) {
  case OO_Plus:
  case OO_Minus: // (the same reduction as +)
    return "+";
  case OO_Star:
    return "*";
  case OO_Amp:
    return "&";
  case OO_Pipe:
    return "|";
  case OO_Caret:
    return "^";
  case OO_AmpAmp:
    return "&&";
  case OO_PipePipe:
    return "||";
  default:
    return "";
  }
}

bool isVar(const Expr *E, const VarDecl *VD) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == VD;
}

/// The operator of reduction \p Op a binary operator \p O may update it by.
bool opMatches(BinaryOperatorKind O, llvm::StringRef Op) {
  switch (O) {
  case BO_Add:
  case BO_Sub:
    return Op == "+";
  case BO_Mul:
    return Op == "*";
  case BO_And:
    return Op == "&";
  case BO_Or:
    return Op == "|";
  case BO_Xor:
    return Op == "^";
  case BO_LAnd:
    return Op == "&&";
  case BO_LOr:
    return Op == "||";
  default:
    return false;
  }
}

/// The uses of \p VD in \p S that update it by \p Op (`x += e`,
/// `x = x * e`, `x = e * x`, `x++`), into \p Ok.
void updates(const Stmt *S, const VarDecl *VD, llvm::StringRef Op,
             llvm::SmallPtrSetImpl<const Stmt *> &Ok) {
  if (!S)
    return;
  auto Ref = [](const Expr *E) { return E->IgnoreParenImpCasts(); };
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(S)) {
    if (isVar(CA->getLHS(), VD) &&
        opMatches(BinaryOperator::getOpForCompoundAssignment(CA->getOpcode()),
                  Op))
      Ok.insert(Ref(CA->getLHS()));
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
             BO && BO->getOpcode() == BO_Assign && isVar(BO->getLHS(), VD)) {
    const auto *R = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParens());
    // (x = e - x is no update by +.)
    if (R && opMatches(R->getOpcode(), Op) &&
        (isVar(R->getLHS(), VD) ||
         (R->getOpcode() != BO_Sub && isVar(R->getRHS(), VD)))) {
      Ok.insert(Ref(BO->getLHS()));
      Ok.insert(Ref(isVar(R->getLHS(), VD) ? R->getLHS() : R->getRHS()));
    }
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementDecrementOp() && Op == "+" &&
             isVar(UO->getSubExpr(), VD))
    Ok.insert(Ref(UO->getSubExpr()));
  for (const Stmt *C : astChildren(S))
    updates(C, VD, Op, Ok);
}

const DeclRefExpr *otherUse(const Stmt *S, const VarDecl *VD,
                            const llvm::SmallPtrSetImpl<const Stmt *> &Ok) {
  if (!S)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
      DRE && DRE->getDecl() == VD && !Ok.count(DRE))
    return DRE;
  for (const Stmt *C : astChildren(S))
    if (const DeclRefExpr *D = otherUse(C, VD, Ok))
      return D;
  return nullptr;
}
} // namespace

bool Lowerer::ompReductionUses(const Stmt *Loop, const VarDecl *VD,
                               llvm::StringRef RedOp) {
  llvm::StringRef Op = RedOp;
  // min and max give the same value whichever the order and the start
  // (but for the sign of a zero and a start at an infinity: docs/abi.md).
  if (Op == "min" || Op == "max")
    return true;
  llvm::SmallPtrSet<const Stmt *, 8> Ok;
  updates(Loop, VD, Op, Ok);
  const DeclRefExpr *Bad = otherUse(Loop, VD, Ok);
  if (!Bad)
    return true;
  // OpenMP's private copy starts at the operator's identity: a read of it
  // in the loop would not see the running value the plain loop has.
  std::string N = VD->getNameAsString();
  error(Bad->getBeginLoc(),
        "a use of '" + N + "' of a 'reduction(" + Op.str() + ":" + N +
            ")' clause other than '" + N + " " + Op.str() +
            "= expression' in its loop",
        "update it only by the clause's operator, or remove the clause");
  return false;
}

bool Lowerer::ompSimdClauses(const OMPLoopDirective *D,
                             llvm::SmallVectorImpl<const VarDecl *> &Privates) {
  const Stmt *Loop = D->getInnermostCapturedStmt()->getCapturedStmt();
  bool Ok = true;
  auto Bad = [&](SourceLocation L, const std::string &What,
                 llvm::StringRef Fix) {
    error(L, What, Fix);
    Ok = false;
  };
  // A scalar variable of this function (its own, not a global's).
  auto Scalar = [&](const VarDecl *VD) {
    auto It = VD ? Frames.back().Vars.find(VD) : Frames.back().Vars.end();
    return It != Frames.back().Vars.end() && F.Vars[It->second].Len == 0 &&
           VD->hasLocalStorage();
  };
  for (const OMPClause *C : D->clauses()) {
    SourceLocation L = C->getBeginLoc();
    std::string Name = getOpenMPClauseName(C->getClauseKind()).str();
    switch (C->getClauseKind()) {
    case llvm::omp::OMPC_safelen:
    case llvm::omp::OMPC_simdlen:
    case llvm::omp::OMPC_aligned:
    case llvm::omp::OMPC_nontemporal:
    case llvm::omp::OMPC_order:
    case llvm::omp::OMPC_collapse:
    case llvm::omp::OMPC_lastprivate:
      continue;
    case llvm::omp::OMPC_if:
      if (cast<OMPIfClause>(C)->getCondition()->HasSideEffects(Ctx))
        Bad(L, "an 'if' clause with side effects",
            "compute the condition before the loop");
      continue;
    case llvm::omp::OMPC_private:
      for (const Expr *E : cast<OMPPrivateClause>(C)->varlists()) {
        const VarDecl *VD = clauseVar(E);
        if (Scalar(VD))
          Privates.push_back(VD);
        else
          Bad(E->getBeginLoc(),
              "a 'private' clause on an array, a pointer, a struct or a "
              "global",
              "declare the variable inside the loop");
      }
      continue;
    case llvm::omp::OMPC_linear: {
      const auto *LC = cast<OMPLinearClause>(C);
      for (const Expr *E : LC->varlists()) {
        const VarDecl *VD = clauseVar(E);
        bool Counter = false;
        for (const Expr *K : D->counters())
          Counter |= VD && clauseVar(K) == VD;
        if (!Counter || LC->getModifier() != OMPC_LINEAR_val)
          Bad(E->getBeginLoc(),
              "a 'linear' clause on a variable other than the loop's "
              "counter",
              "update the variable in the loop and remove it from the "
              "clause");
      }
      continue;
    }
    case llvm::omp::OMPC_reduction: {
      const auto *RC = cast<OMPReductionClause>(C);
      std::string Op = reductionOp(RC);
      bool UserOp = false;
      for (const Expr *E : RC->reduction_ops())
        UserOp |= E && isa<CallExpr>(E->IgnoreParenImpCasts());
      if (Op.empty() || UserOp || RC->getModifier() != OMPC_REDUCTION_unknown) {
        Bad(L,
            "this reduction (a user-defined operator, or an 'inscan' or "
            "'task' modifier)",
            "use reduction(+:x), *, &, |, ^, &&, ||, min or max");
        continue;
      }
      for (const Expr *E : RC->varlists()) {
        const VarDecl *VD = clauseVar(E);
        if (!Scalar(VD))
          Bad(E->getBeginLoc(),
              "a 'reduction' clause on an array, a pointer, a struct or a "
              "global",
              "reduce into a scalar local");
        else if (!ompReductionUses(Loop, VD, Op))
          Ok = false;
      }
      continue;
    }
    default:
      Bad(L, "the '" + Name + "' clause of '#pragma omp simd'",
          "remove the clause");
    }
  }
  return Ok;
}

Ret Lowerer::ompDirective(const OMPExecutableDirective *D) {
  SourceLocation Loc = D->getBeginLoc();
  OpenMPDirectiveKind K = D->getDirectiveKind();
  std::string Name = "'#pragma omp " + getOpenMPDirectiveName(K).str() + "'";
  const auto *SD = dyn_cast<OMPSimdDirective>(D);
  if (!SD) {
    if (isOpenMPSimdDirective(K))
      error(Loc,
            Name + " (it shares the loop's iterations among threads, tasks "
                   "or devices)",
            "use '#pragma omp simd': batchdiff runs the examples in "
            "parallel itself");
    else if (runsThreads(K))
      error(Loc, Name + " (threads, tasks or devices)",
            "remove it: batchdiff runs the examples in parallel itself "
            "(call NAME_batched from threads instead)");
    else
      error(Loc, "an OpenMP directive (" + Name + ")",
            "remove it: NAME_batched and NAME_grad run on one thread");
    return Ret::Never;
  }
  llvm::SmallVector<const VarDecl *, 4> Privates;
  if (!ompSimdClauses(SD, Privates)) {
    Failed = true;
    return Ret::Never;
  }
  // private(x): a fresh x inside the loop (its value there starts
  // indeterminate in C; here at zero); x outside keeps its value.
  auto &Vars = Frames.back().Vars;
  llvm::SmallVector<std::pair<const VarDecl *, int>, 4> Saved;
  for (const VarDecl *VD : Privates) {
    int Old = Vars[VD];
    if (std::any_of(Saved.begin(), Saved.end(),
                    [&](const auto &P) { return P.first == VD; }))
      continue;
    Saved.push_back({VD, Old});
    ir::Type T = F.Vars[Old].Ty;
    int V = F.newVar(VD->getNameAsString(), T);
    B.set(V, zeroOf(T));
    Vars[VD] = V;
  }
  Ret R = stmt(SD->getInnermostCapturedStmt()->getCapturedStmt());
  for (auto [VD, Old] : Saved)
    Vars[VD] = Old;
  return R;
}

} // namespace lowering
} // namespace batchdiff
