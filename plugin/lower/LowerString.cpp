//===- LowerString.cpp - local pointers to string literals ----------------===//
//
// nmath's ML_WARNING(ME_RANGE, "bessel_j") (standalone: printf) is
//   { char *msg = ""; switch (code) { case ...: msg = "..."; break; ... }
//     printf(msg, "bessel_j"); }
// A local pointer to char whose every value is a string literal (its
// initializer and every assignment: literals, or '?:' of them) and which is
// only passed whole to calls made once per example (docs/calls.md, "Calls
// of outside functions") is an I32 variable: the number of its value in the
// list of the literals it is ever given. The call, per example, passes that
// element of a compound literal array of them, so it gets the pointer the
// scalar function passes (a string literal's address may differ between
// two of its uses: C does not promise one object per literal either).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include <algorithm>

namespace batchdiff {
namespace lowering {

/// A local pointer to char, signed char or unsigned char (any qualifiers).
static bool charPointerLocal(const VarDecl *VD) {
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
    return false;
  QualType T = VD->getType();
  return T->isPointerType() && T->getPointeeType()->isCharType() &&
         !T.isVolatileQualified();
}

static const VarDecl *refTo(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// String literals, and '?:' choosing between such: appended to \p Lits
/// (each text once).
static bool literals(const Expr *E, std::vector<std::string> &Lits) {
  E = E->IgnoreParenImpCasts();
  if (const auto *SL = dyn_cast<StringLiteral>(E)) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    SL->outputString(OS);
    OS.flush();
    if (std::find(Lits.begin(), Lits.end(), Text) == Lits.end())
      Lits.push_back(Text);
    return true;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return literals(CO->getTrueExpr(), Lits) &&
           literals(CO->getFalseExpr(), Lits);
  return false;
}

namespace {
/// Walks the function around a candidate: every use must be an assignment
/// of literals or an argument of a call.
struct StringUses {
  const VarDecl *VD;
  StringLocal &S;
  void walk(const Stmt *St) {
    if (!St || S.Bad)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(St);
        BO && BO->getOpcode() == BO_Assign && refTo(BO->getLHS()) == VD &&
        isa<DeclRefExpr>(BO->getLHS()->IgnoreParens())) {
      if (!literals(BO->getRHS(), S.Lits))
        S.Bad = BO->getRHS();
      walk(BO->getRHS());
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(St)) {
      walk(CE->getCallee());
      for (const Expr *A : CE->arguments())
        if (refTo(A) != VD || !isa<DeclRefExpr>(A->IgnoreParenImpCasts()))
          walk(A);
      return;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(St);
        DRE && DRE->getDecl() == VD) {
      S.Bad = DRE;
      return;
    }
    for (const Stmt *C : astChildren(St))
      walk(C);
  }
};
} // namespace

const StringLocal *Lowerer::stringLocal(const VarDecl *VD) const {
  if (!charPointerLocal(VD))
    return nullptr;
  auto It = StringLocals.find(VD);
  if (It == StringLocals.end()) {
    StringLocal S;
    S.CType =
        VD->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    // A declaration without a value: the first literal it is given stands
    // for the indeterminate value (reading it is undefined in C).
    S.Candidate = !VD->getInit() || literals(VD->getInit(), S.Lits);
    const auto *FD = declFunction(VD);
    if (S.Candidate && FD && FD->getBody()) {
      size_t Given = S.Lits.size();
      StringUses{VD, S}.walk(FD->getBody());
      // Never given a literal: not a pointer to strings at all.
      S.Candidate = S.Lits.size() > Given || VD->getInit();
    }
    It = StringLocals.emplace(VD, std::move(S)).first;
  }
  return It->second.Candidate ? &It->second : nullptr;
}

const VarDecl *Lowerer::stringLocalArg(const Expr *A) const {
  const VarDecl *VD = refTo(A);
  if (!VD || !isa<DeclRefExpr>(A->IgnoreParenImpCasts()))
    return nullptr;
  const StringLocal *S = stringLocal(VD);
  return S && !S->Bad ? VD : nullptr;
}

/// The number of \p E's literal in \p S's list: '?:' a select.
int Lowerer::stringIndex(const Expr *E, const StringLocal &S) {
  E = E->IgnoreParenImpCasts();
  if (const auto *SL = dyn_cast<StringLiteral>(E)) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    SL->outputString(OS);
    OS.flush();
    auto It = std::find(S.Lits.begin(), S.Lits.end(), Text);
    return B.constI(Type::I32, It - S.Lits.begin());
  }
  const auto *CO = cast<ConditionalOperator>(E);
  int C = cond(CO->getCond());
  if (C < 0)
    return -1;
  int T = stringIndex(CO->getTrueExpr(), S);
  int F = T < 0 ? -1 : stringIndex(CO->getFalseExpr(), S);
  return F < 0 ? -1 : B.select(C, T, F);
}

bool Lowerer::stringBad(const VarDecl *VD, const StringLocal &S) {
  if (!S.Bad)
    return false;
  std::string Name = "'" + VD->getNameAsString() + "'";
  error(S.Bad->getBeginLoc(),
        isa<DeclRefExpr>(S.Bad)
            ? "using " + Name +
                  ", a local pointer to string literals, other than as an "
                  "argument of a call"
            : "assigning " + Name +
                  ", a local pointer to string literals, something other "
                  "than a string literal",
        "such a pointer may only be assigned string literals ('msg = "
        "\"...\"', 'c ? \"a\" : \"b\"') and passed whole to functions called "
        "once per example (printf, an error reporter)");
  fail();
  return true;
}

void Lowerer::stringDecl(const VarDecl *VD, const StringLocal &S) {
  if (stringBad(VD, S))
    return;
  int V = F.newVar(VD->getNameAsString(), Type::I32);
  Frames.back().Strings[VD] = V;
  int I =
      VD->getInit() ? stringIndex(VD->getInit(), S) : B.constI(Type::I32, 0);
  if (I >= 0)
    B.set(V, I);
}

int Lowerer::stringAssign(const BinaryOperator *BO) {
  const VarDecl *VD = refTo(BO->getLHS());
  const StringLocal *S = stringLocal(VD);
  auto It = Frames.back().Strings.find(VD);
  if (!S || It == Frames.back().Strings.end())
    return fail();
  int I = stringIndex(BO->getRHS(), *S);
  if (I < 0)
    return -1;
  B.set(It->second, I);
  return B.constB(false);
}

std::string Lowerer::stringChoice(const VarDecl *VD, int &Index) {
  const StringLocal &S = *stringLocal(VD);
  auto It = Frames.back().Strings.find(VD);
  if (It == Frames.back().Strings.end()) {
    Index = fail();
    return "";
  }
  Index = B.get(It->second);
  std::string Arr = "((" + S.CType + "[]){";
  for (size_t I = 0; I < S.Lits.size(); ++I)
    Arr += (I ? ", " : "") + S.Lits[I];
  return Arr + "})";
}

} // namespace lowering
} // namespace batchdiff
