//===- OmpSimd.cpp - walks that see through '#pragma omp simd' -----------===//
#include "lower/OmpSimd.h"

#include "clang/AST/DeclBase.h"

using namespace clang;

namespace batchdiff {

Stmt::const_child_range astChildren(const Stmt *S) {
  const auto *CS = dyn_cast<CapturedStmt>(S);
  if (!CS)
    return S->children();
  // The region's statement is stored right after its capture
  // initializers (CapturedStmt::getStoredStmts()): the slot
  // capture_init_end() points to.
  Stmt *const *Slot = reinterpret_cast<Stmt *const *>(&*CS->capture_init_end());
  assert(*Slot == CS->getCapturedStmt() && "CapturedStmt layout changed");
  return Stmt::const_child_range(Slot, Slot + 1);
}

const DeclContext *declFunctionContext(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && isa<CapturedDecl>(DC))
    DC = DC->getParent();
  return DC;
}

const FunctionDecl *declFunction(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      return FD;
    if (!isa<CapturedDecl>(DC) && DC->isFunctionOrMethod())
      return nullptr; // a block or a method: not a function's local
    if (DC->isFileContext())
      return nullptr;
  }
  return nullptr;
}

} // namespace batchdiff
