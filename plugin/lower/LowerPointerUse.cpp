//===- LowerPointerUse.cpp - stores, accesses and copies through pointers -===//
//
// What is done with the (base array, offset) pairs LowerPointer.cpp makes:
// storing into a pointer variable (`p = q`, `p++`, re-pointing into another
// read-only table), differences and comparisons of pointers into one array,
// the element an access through a pointer denotes (pointee), pointer locals
// and helper parameters bound to their arrays, memcpy/memmove/memset on
// arrays as element copies, and the extents of array parameters found from
// the accesses through pointers.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/LowerPointer.h"
#include "lower/Types.h"

#include "diagnostics/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>

namespace batchdiff {
namespace lowering {

using pointers::declOf;

bool Lowerer::ptrIncDec(const Expr *E, const Expr *Sub, int Delta, bool Post,
                        PtrVal &Out) {
  PtrVal Old;
  if (!ptrValue(Sub, Old))
    return false;
  if (scalarBase(Old.Base))
    return scalarArith(E->getBeginLoc(), Old);
  if (voidArith(Sub, E->getBeginLoc()))
    return false;
  PtrVal New = Old;
  New.Off = addOffset(Old.Off, B.constI(Type::I32, Delta));
  PtrVal Res;
  if (!ptrAssign(E, Sub, New, Res))
    return false;
  Out = Post ? Old : Res;
  return true;
}

bool Lowerer::ptrAssign(const Expr *At, const Expr *LHS, PtrVal V,
                        PtrVal &Out) {
  PtrVar *P = ptrVar(LHS);
  const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS->IgnoreParens());
  if (const VarDecl *TD = AS ? pointerTableOf(AS->getBase()) : nullptr) {
    error(At->getBeginLoc(),
          "re-pointing an entry of the table of pointers '" +
              TD->getNameAsString() + "'",
          "keep its entries as initialised; point a local pointer instead");
    return false;
  }
  if (!P || P->OffVar < 0) {
    const VarDecl *VD = declOf(LHS);
    error(At->getBeginLoc(),
          VD ? "storing a pointer in '" + VD->getNameAsString() + "'"
             : std::string("storing a pointer here"),
          "keep pointers in local variables");
    return false;
  }
  if (P->Base.ok() && P->Hidden != V.Hidden) {
    error(At->getBeginLoc(),
          "a 'void *' that points to '" + P->Hidden.getAsString() +
              "' and, here, to '" + V.Hidden.getAsString() + "'",
          "keep each pointer in one array");
    return false;
  }
  P->Hidden = V.Hidden;
  if (!P->Base.ok()) {
    seedPointer(*P, V);
    P->Base = V.Base;
  } else if (!(P->Base == V.Base)) {
    // Into one more read-only table: its position is a per-lane integer.
    PtrVal Cur;
    Cur.Base = P->Base;
    PtrBase U;
    int IdOld, IdNew;
    if (P->IdVar < 0 || !mergeTables(Cur, V, U, IdOld, IdNew)) {
      error(At->getBeginLoc(),
            "a pointer that points into '" + baseName(P->Base) +
                "' and, here, into '" + baseName(V.Base) + "'",
            "keep each pointer in one array; " + tablesFix(P->Base, V.Base));
      return false;
    }
    // A read lowered before, for fewer tables, that the loop runs again.
    if (!(U == P->Base) && !LoopSeqs.empty() &&
        P->LastRead > LoopSeqs.front()) {
      const VarDecl *VD = declOf(LHS);
      error(At->getBeginLoc(),
            "re-pointing '" + (VD ? VD->getNameAsString() : std::string()) +
                "' into another table ('" + baseName(V.Base) +
                "') in a loop that reads it before",
            "choose the table before the loop, or use one pointer per "
            "table");
      return false;
    }
    P->Base = U;
    V.Base = U;
    V.Id = IdNew;
  }
  B.set(P->OffVar, V.Off < 0 ? B.constI(Type::I32, 0) : V.Off);
  // Re-pointed (`c = &a[i]`, not `c++`, which keeps a null pointer UB).
  if (const auto *BO = dyn_cast<BinaryOperator>(At);
      P->NullVar >= 0 && BO && BO->getOpcode() == BO_Assign)
    B.set(P->NullVar, B.constB(true));
  if (P->IdVar >= 0)
    B.set(P->IdVar, V.Id < 0 ? B.constI(Type::I32, 0) : V.Id);
  Out = V;
  return true;
}

bool Lowerer::nullArmAssign(const Expr *LHS, const ConditionalOperator *CO,
                            PtrVal &Out) {
  // As `if (x > 0) c = T; else c = NULL;` (NullLocals follows it so): the
  // other arm is evaluated only in the lanes that take it, as C does.
  PtrVar *P = ptrVar(LHS);
  bool TrueNull = isNullPointer(CO->getTrueExpr(), Ctx);
  int C = cond(CO->getCond());
  if (C < 0)
    return false;
  ir::Stmt &If = B.ifStmt(C);
  ir::Block *Saved = B.block();
  B.setBlock(TrueNull ? &If.Else : &If.Then);
  PtrVal V, R;
  bool Ok = ptrValue(TrueNull ? CO->getFalseExpr() : CO->getTrueExpr(), V) &&
            ptrAssign(CO, LHS, V, R);
  if (Ok) {
    P = ptrVar(LHS); // (again: lowering the arm may have added pointers)
    B.set(P->NullVar, B.constB(true));
    B.setBlock(TrueNull ? &If.Then : &If.Else);
    B.set(P->NullVar, B.constB(false));
  }
  B.setBlock(Saved);
  if (!Ok)
    return false;
  // Its value after the if (the offset kept in its variable).
  Out = PtrVal();
  Out.Base = P->Base;
  Out.Off = B.get(P->OffVar);
  Out.Hidden = P->Hidden;
  if (P->IdVar >= 0 && P->Base.Multi >= 0)
    Out.Id = B.get(P->IdVar);
  return true;
}

/// The offsets of p and q in `p OP q` (0 for an offset-0 pointer), when
/// both point into the same array (or into read-only tables: then their
/// tables' positions too); else the error "ACTION pointers into 'a' and
/// 'b'".
bool Lowerer::ptrOffsets(const BinaryOperator *BO, llvm::StringRef Action,
                         llvm::StringRef Instead, int &LOff, int &ROff,
                         int *LId, int *RId) {
  PtrVal L, R;
  if (!ptrValue(BO->getLHS(), L) || !ptrValue(BO->getRHS(), R))
    return false;
  int Zero = B.constI(Type::I32, 0);
  int IdL = L.Id < 0 ? Zero : L.Id, IdR = R.Id < 0 ? Zero : R.Id;
  // Array parameters among the choices: the caller may pass one array for
  // two of them, and then C compares their addresses, not these offsets.
  for (const PtrBase *P : {&L.Base, &R.Base})
    if (P->Multi >= 0 && choiceParams(*P)) {
      error(BO->getOperatorLoc(),
            Action.str() + " a pointer chosen between the array parameters '" +
                baseName(*P) + "'",
            Instead.str() + " (two parameters may be one array)");
      return false;
    }
  PtrBase U;
  if (!(L.Base == R.Base) && (choiceParams(L.Base) || choiceParams(R.Base) ||
                              !mergeTables(L, R, U, IdL, IdR))) {
    error(BO->getOperatorLoc(),
          Action.str() + " pointers into '" + baseName(L.Base) + "' and '" +
              baseName(R.Base) + "'",
          Instead.str());
    return false;
  }
  LOff = L.Off < 0 ? Zero : L.Off;
  ROff = R.Off < 0 ? Zero : R.Off;
  if (LId)
    *LId = IdL;
  if (RId)
    *RId = IdR;
  return true;
}

/// p - q: an integer when both point into the same array.
int Lowerer::ptrDiff(const BinaryOperator *BO) {
  int L, R;
  if (!ptrOffsets(BO, "subtracting", "subtract pointers into the same array", L,
                  R))
    return -1;
  return B.cast(*irType(BO->getType()), B.bin(Op::Sub, L, R));
}

/// p < q, p != q, ...: the offsets compared, when both point into the same
/// array (a walk to an end pointer); pointers into two arrays have no order
/// here, and a null pointer is refused by ptrValue.
std::optional<bool> Lowerer::knownNull(const Expr *E) const {
  if (isNullPointer(E, Ctx))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (CalleeNulls && VD) // (a helper's parameter, its body read for a call)
    if (auto It = CalleeNulls->find(VD); It != CalleeNulls->end())
      return It->second;
  if (!VD || Frames.empty())
    return std::nullopt;
  if (Frames.back().Nulls.count(VD))
    return true;
  // A local set to NULL: null, or not, on every path that reaches here
  // (else not known); assigned on every path, it points where that put it.
  std::optional<NullState> S = localNull(E);
  if (S && S->K != NullState::Assigned)
    return S->K == NullState::Null ? std::optional<bool>(true) : std::nullopt;
  // At a local or into a local array: never null. So is such a local set
  // to NULL, assigned since on every path, into file-scope tables or an
  // array parameter: an array argument is an array, never NULL (CONTRACT
  // section 4; its flag says the same where it may be NULL). (A test of an
  // array parameter itself, or of a copy never set to NULL, asks about the
  // caller's pointer, which a batched call cannot pass NULL per example:
  // not known, ptr-test.)
  if (auto It = Frames.back().Ptrs.find(VD); It != Frames.back().Ptrs.end()) {
    const PtrBase &P = It->second.Base;
    if (P.Var >= 0 || (S && P.ok()))
      return false;
  }
  // A helper's parameter its call passed such a pointer (not re-pointed
  // to NULL: that makes it a local set to NULL, above).
  if (Frames.back().NotNulls.count(VD))
    return false;
  return std::nullopt;
}

std::optional<NullState> Lowerer::localNull(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || !VD->getType()->isPointerType())
    return std::nullopt;
  const auto *FD = declFunction(VD);
  if (!FD || !FD->doesThisDeclarationHaveABody())
    return std::nullopt;
  if (NullScanned.insert(FD).second)
    nullLocals(FD, Ctx, NullReads);
  auto It = NullReads.find(DRE);
  if (It == NullReads.end() || It->second.K == NullState::Unreached)
    return std::nullopt;
  NullState S = It->second;
  if (auto H = NullHere.find(DRE);
      H != NullHere.end() && S.K != NullState::Null)
    S.K = H->second ? NullState::Null : NullState::Assigned;
  return S;
}

bool Lowerer::nullLocalRead(const Expr *E, bool Test) {
  std::optional<NullState> S = localNull(E);
  if (!S || S->K == NullState::Assigned || (Test && S->K == NullState::Null))
    return false;
  if (Poisoned.count(declOf(E))) // (its declaration's error is reported)
    return fail(), true;
  std::string N = declOf(E)->getNameAsString(), Line;
  if (S->NullAt)
    Line = " at line " +
           std::to_string(Ctx.getSourceManager().getExpansionLineNumber(
               S->NullAt->getBeginLoc()));
  if (S->K == NullState::Null)
    error(E->getBeginLoc(),
          "using '" + N + "', a null pointer here (set to NULL" + Line + "),",
          "point it into an array or at a local before this use");
  else
    error(E->getBeginLoc(),
          (Test ? "testing '" : "using '") + N +
              "', which may still be NULL here (set to NULL" + Line +
              " and not assigned on every path from there),",
          Test ? "assign '" + N +
                     "' on every path before this test, or keep an index "
                     "instead of a pointer ('int k = -1;', then 'if (k >= "
                     "0)')"
               : "use it only where a test of it says it is not NULL "
                 "('if (" +
                     N + " != NULL) ...', '" + N + " ? *" + N +
                     " : 0'), or assign '" + N +
                     "' on every path before this use");
  return true;
}

int Lowerer::nullFlag(const Expr *E) {
  std::optional<NullState> S = localNull(E);
  PtrVar *P = S && S->K == NullState::Maybe ? ptrVar(E) : nullptr;
  return P && P->NullVar >= 0 ? B.get(P->NullVar) : -1;
}

bool Lowerer::maybeNullLocal(const VarDecl *VD) const {
  const auto *FD = declFunction(VD);
  if (!FD || !FD->doesThisDeclarationHaveABody())
    return false;
  if (NullScanned.insert(FD).second)
    nullLocals(FD, Ctx, NullReads);
  for (const auto &[DRE, S] : NullReads)
    if (S.K == NullState::Maybe && DRE->getDecl() == VD)
      return true;
  return false;
}

const Expr *Lowerer::firstPointing(const VarDecl *VD, const Stmt *Body) const {
  const Expr *First = nullptr;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign && declOf(BO->getLHS()) == VD &&
        !isNullPointer(BO->getRHS(), Ctx) && !First)
      First = BO->getRHS();
    for (const Stmt *C : astChildren(S))
      if (C && !First)
        Scan(C);
  };
  if (Body)
    Scan(Body);
  return First;
}

void Lowerer::seedNullBase(const VarDecl *VD, PtrVar &P, const Stmt *Body) {
  // A loop's test may read it before the assignment that follows in the
  // body (`if (!best || *best < a[i]) best = &a[i];`): the base of the
  // first assignment, found without lowering it (it may name variables
  // not declared yet). A void pointer, or one assigned anything else, is
  // left as it is: such a read is then refused (ptrDecl).
  if (VD->getType()->getPointeeType()->isVoidType())
    return;
  const Expr *First = firstPointing(VD, Body);
  if (First && Ctx.hasSameUnqualifiedType(First->getType()->getPointeeType(),
                                          VD->getType()->getPointeeType()))
    P.Base = seedBase(First, P);
}

Lowerer::PtrBase Lowerer::seedBase(const Expr *E, const PtrVar &P) {
  bool Row = false; // (through a row of a 2-D array: `&m[i][j]`, `m[i]`)
  while (E) {
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<ImplicitCastExpr>(E);
        CE && (CE->getCastKind() == CK_ArrayToPointerDecay ||
               CE->getCastKind() == CK_NoOp ||
               CE->getCastKind() == CK_LValueToRValue))
      E = CE->getSubExpr();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_AddrOf &&
             isa<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      E = cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())->getBase();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
             AS && AS->getType()->isArrayType())
      E = AS->getBase(), Row = true;
    else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub))
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
    else
      break;
  }
  PtrBase None;
  if (!E)
    return None;
  // `x > 0 ? a + 1 : a`, `x < 2 ? P1 : P2`: one array, or read-only
  // tables merged as ptrConditional merges them.
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    // (A NULL arm, `x > 0 ? T : NULL`: the other's.)
    if (isNullPointer(CO->getTrueExpr(), Ctx))
      return seedBase(CO->getFalseExpr(), P);
    if (isNullPointer(CO->getFalseExpr(), Ctx))
      return seedBase(CO->getTrueExpr(), P);
    PtrVal T, F;
    T.Base = seedBase(CO->getTrueExpr(), P);
    F.Base = seedBase(CO->getFalseExpr(), P);
    PtrBase U;
    int IdT, IdF;
    if (!T.Base.ok() || !F.Base.ok())
      return None;
    if (T.Base == F.Base)
      return T.Base;
    return mergeTables(T, F, U, IdT, IdF) ? U : None;
  }
  // `best = ptab[k]`: into the tables of a table of pointers, as
  // ptrTableElem (and seedTables, for several) chooses them.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    if (const VarDecl *TD = pointerTableOf(AS->getBase())) {
      PtrBase Base;
      if (P.Seed >= 0) {
        Base.Multi = P.Seed;
        return Base;
      }
      std::vector<PtrBase> Bases, Tabs;
      std::vector<int64_t> Offs;
      if (!pointerTable(TD, AS->getBeginLoc(), Bases, Offs))
        return None;
      for (const PtrBase &B : Bases)
        if (std::find(Tabs.begin(), Tabs.end(), B) == Tabs.end())
          Tabs.push_back(B);
      if (Tabs.size() == 1)
        return Tabs[0];
      Base.Multi = choiceOf(Tabs);
      return Base;
    }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *From = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!From)
    return None;
  Frame &Fr = Frames.back();
  PtrBase Base;
  if (auto It = Fr.Ptrs.find(From); It != Fr.Ptrs.end()) {
    if (&It->second == &P || !It->second.Base.ok() ||
        !It->second.Hidden.isNull() || It->second.Base.Multi >= 0 ||
        scalarBase(It->second.Base))
      return None;
    Base = It->second.Base;
  } else if (auto It = Fr.Vars.find(From); It != Fr.Vars.end() &&
                                           F.Vars[It->second].Len > 0 &&
                                           (Row || !rowParam(DRE))) {
    Base.Var = It->second;
  } else if (From->hasGlobalStorage() && From->getType()->isArrayType() &&
             It == Fr.Vars.end() && !isPointerTable(From) &&
             (Row || !rowParam(DRE))) {
    // A file-scope table, read in place (as ptrDecl reads it).
    Base.Arg = globalParam(From, DRE->getBeginLoc());
    if (Base.Arg < 0)
      return None;
  }
  return Base;
}

/// Whether \p S has a subexpression of pointer type.
static bool mentionsPointer(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && E->getType()->isPointerType())
    return true;
  for (const Stmt *C : astChildren(S))
    if (mentionsPointer(C))
      return true;
  return false;
}

std::optional<bool> Lowerer::nullTest(const Expr *E) const {
  // (Conditions without pointers are left to clang's constant evaluation,
  // as they always were.)
  if (!mentionsPointer(E))
    return std::nullopt;
  return pointerTest(E);
}

std::optional<bool> Lowerer::choiceTest(const Expr *E) const {
  if (std::optional<bool> N = nullTest(E))
    return N;
  bool Value;
  if (!E->isValueDependent() && E->EvaluateAsBooleanCondition(Value, Ctx) &&
      !E->HasSideEffects(Ctx))
    return Value;
  return std::nullopt;
}

std::optional<bool> Lowerer::pointerTest(const Expr *E) const {
  E = E->IgnoreParens();
  if (E->getType()->isPointerType()) { // `if (p)`: C tests p != 0
    std::optional<bool> N = knownNull(E);
    return N ? std::optional<bool>(!*N) : std::nullopt;
  }
  if (const auto *CE = dyn_cast<ImplicitCastExpr>(E)) {
    if (CE->getCastKind() == CK_PointerToBoolean) {
      std::optional<bool> N = knownNull(CE->getSubExpr());
      return N ? std::optional<bool>(!*N) : std::nullopt;
    }
    if (CE->getCastKind() == CK_IntegralToBoolean ||
        CE->getCastKind() == CK_NoOp)
      return pointerTest(CE->getSubExpr());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_LNot) {
    if (UO->getSubExpr()->getType()->isPointerType()) {
      std::optional<bool> N = knownNull(UO->getSubExpr());
      return N ? std::optional<bool>(*N) : std::nullopt;
    }
    std::optional<bool> V = pointerTest(UO->getSubExpr());
    return V ? std::optional<bool>(!*V) : std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind K = BO->getOpcode();
    if ((K == BO_EQ || K == BO_NE) &&
        BO->getLHS()->getType()->isPointerType()) {
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      bool LN = isNullPointer(L, Ctx), RN = isNullPointer(R, Ctx);
      if (LN == RN)
        return std::nullopt;
      std::optional<bool> N = knownNull(LN ? R : L);
      if (!N)
        return std::nullopt;
      return K == BO_EQ ? *N : !*N;
    }
    if (K == BO_LAnd || K == BO_LOr) {
      // C evaluates the left operand first and stops where it decides.
      std::optional<bool> L = pointerTest(BO->getLHS());
      if (!L)
        return std::nullopt;
      if (*L == (K == BO_LOr))
        return *L;
      return pointerTest(BO->getRHS());
    }
  }
  bool Value;
  if (!E->isValueDependent() && !E->HasSideEffects(Ctx) &&
      E->EvaluateAsBooleanCondition(Value, Ctx))
    return Value;
  return std::nullopt;
}

int Lowerer::ptrCompare(const BinaryOperator *BO) {
  if (std::optional<bool> V = nullTest(BO))
    return B.constB(*V);
  // `c != NULL` of a local that may still be NULL here: its flag (not
  // null), or else refused.
  if (bool LN = isNullPointer(BO->getLHS(), Ctx);
      LN != isNullPointer(BO->getRHS(), Ctx)) {
    const Expr *P = LN ? BO->getRHS() : BO->getLHS();
    if (int N = nullFlag(P); N >= 0)
      return BO->getOpcode() == BO_NE ? N : B.un(Op::Not, N);
    if (nullLocalRead(P, true))
      return -1;
  }
  int L, R, LId, RId;
  if (!ptrOffsets(BO, "comparing",
                  "compare pointers into the same array, or integer indices", L,
                  R, &LId, &RId))
    return -1;
  Op O = Op::CmpEQ;
  ir::opFromCOperator(BO->getOpcodeStr().str(), 2, O);
  int C = B.cmp(O, L, R);
  // Into one of several tables: equal where the tables are equal too.
  if (LId != RId && (O == Op::CmpEQ || O == Op::CmpNE))
    C = B.bin(O == Op::CmpEQ ? Op::And : Op::Or, C, B.cmp(O, LId, RId));
  return C;
}

/// A byte count clang folds, or that sizeof of a local array whose size
/// clang folds makes (`const int n = 4; double k[n];` and `sizeof k`, a VLA's
/// sizeof, which clang evaluates at run time).
std::optional<uint64_t> Lowerer::constBytes(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getLimitedValue();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto L = constBytes(BO->getLHS()), Rt = constBytes(BO->getRHS());
    if (L && Rt && BO->getOpcode() == BO_Mul)
      return *L * *Rt;
    if (L && Rt && BO->getOpcode() == BO_Add)
      return *L + *Rt;
    return std::nullopt;
  }
  const auto *UE = dyn_cast<UnaryExprOrTypeTraitExpr>(E);
  if (!UE || UE->getKind() != UETT_SizeOf)
    return std::nullopt;
  QualType T = UE->getTypeOfArgument();
  const auto *VAT = Ctx.getAsVariableArrayType(T);
  Expr::EvalResult Size;
  if (!VAT || !VAT->getSizeExpr() || VAT->getElementType()->isArrayType() ||
      !VAT->getSizeExpr()->EvaluateAsInt(Size, Ctx))
    return std::nullopt;
  return Size.Val.getInt().getLimitedValue() *
         (uint64_t)Ctx.getTypeSizeInChars(VAT->getElementType()).getQuantity();
}

/// memcpy/memmove(dst, src, bytes) and memset(dst, 0, bytes) on arrays of
/// one element type, bytes a constant: element copies (all loads before
/// the stores, so overlapping memmove is right too) or zero stores, which
/// batch and differentiate like the assignments they stand for.
int Lowerer::memCall(const CallExpr *CE, llvm::StringRef Name, bool Chk) {
  bool Set = Name == "memset";
  auto Fail = [&](const Expr *At, const std::string &What,
                  const std::string &Instead) {
    error(At->getBeginLoc(), What, Instead);
    return -1;
  };
  if (CE->getNumArgs() != 3u + Chk)
    return Fail(CE, "this call of '" + Name.str() + "'",
                "pass the arguments <string.h> declares");
  // The arguments as the caller wrote them, before their conversion to
  // void *.
  auto Strip = [](const Expr *E) {
    E = E->IgnoreParens();
    while (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      if (IC->getCastKind() != CK_BitCast && IC->getCastKind() != CK_NoOp)
        break;
      E = IC->getSubExpr()->IgnoreParens();
    }
    return E;
  };
  const Expr *Dst = Strip(CE->getArg(0)), *Src = Strip(CE->getArg(1));
  // A two-dimensional array or a pointer to its rows (`memset(A, 0, sizeof
  // A)`, `memcpy(B, A, sizeof B)`): its elements, flat and row-major.
  auto Elem = [&](const Expr *E) {
    QualType T = E->getType()->isPointerType() ? E->getType()->getPointeeType()
                                               : QualType();
    if (auto Flat = T.isNull() ? std::nullopt : flatArray(Ctx, T);
        Flat && rowParam(E))
      T = Flat->first;
    return T;
  };
  QualType DT = Elem(Dst);
  if (!DT.isNull() && DT->isRecordType())
    return structMem(CE, Name, Dst, Src);
  if (DT.isNull() || !irType(DT))
    return Fail(CE->getArg(0),
                "'" + Name.str() + "' into '" + Dst->getType().getAsString() +
                    "'",
                "copy or clear arrays of float, double or integers");
  uint64_t Size = Ctx.getTypeSizeInChars(DT).getQuantity();
  Expr::EvalResult Byte;
  std::optional<uint64_t> NBytes = constBytes(CE->getArg(2));
  if (!NBytes)
    return Fail(CE->getArg(2),
                "a '" + Name.str() + "' size known only at run time",
                "use a constant size (sizeof the array), or a loop");
  uint64_t N = *NBytes;
  // Between element types of 4 or 8 bytes (double and uint64_t, float and
  // int32_t, double and uint32_t[2]): their bits, as C's memcpy idiom for
  // a bit cast.
  QualType ST =
      Set || !Src->getType()->isPointerType() ? QualType() : Elem(Src);
  uint64_t SSize = ST.isNull() || ST->isIncompleteType()
                       ? 0
                       : (uint64_t)Ctx.getTypeSizeInChars(ST).getQuantity();
  bool Same = Set || (!ST.isNull() && Ctx.hasSameUnqualifiedType(ST, DT));
  auto Word = [](uint64_t B) { return B == 4 || B == 8; };
  bool Bits = !Same && !ST.isNull() && irType(ST) && Word(Size) &&
              Word(SSize) && !ST->isBooleanType() && !DT->isBooleanType();
  uint64_t Least = Bits ? std::min(Size, SSize) : Size;
  if (N % Size || (Bits && N % SSize) || N / Least > 256)
    return Fail(CE->getArg(2),
                "a '" + Name.str() + "' of " + std::to_string(N) + " bytes",
                "copy or clear whole elements, at most 256 of them (else "
                "use a loop)");
  if (Set && (!Src->EvaluateAsInt(Byte, Ctx) || Byte.Val.getInt() != 0))
    return Fail(CE->getArg(1), "'memset' to a byte other than 0",
                "assign the elements in a loop");
  if (!Same && !Bits)
    return Fail(CE->getArg(1),
                "'" + Name.str() + "' from '" + Src->getType().getAsString() +
                    "' into '" + Dst->getType().getAsString() + "'",
                "copy between arrays of the same element type, or between "
                "4- or 8-byte types (a bit cast, e.g. double and uint64_t "
                "or uint32_t[2])");
  PtrVal D, S;
  if (!ptrValue(Dst, D) || (!Set && !ptrValue(Src, S)))
    return -1;
  uint64_t Count = N / Size, SCount = Set ? Count : N / SSize;
  if ((Count > 1 && scalarBase(D.Base)) ||
      (!Set && SCount > 1 && scalarBase(S.Base)))
    return Fail(CE, "a '" + Name.str() + "' of several elements at a scalar",
                "copy one element, or use arrays");
  auto At = [&](const PtrVal &P, uint64_t K) {
    PtrVal Q = P;
    if (K)
      Q.Off = addOffset(P.Off, B.constI(Type::I32, (int64_t)K));
    return Q;
  };
  std::vector<int> Vals;
  for (uint64_t K = 0; K < SCount; K++) {
    if (Set) {
      Vals.push_back(B.cast(*irType(DT), B.constI(Type::I32, 0)));
      continue;
    }
    LValue L = pointee(At(S, K), nullptr, CE, "reading");
    if (!L.ok())
      return -1;
    Vals.push_back(load(L));
  }
  if (Bits)
    Vals = repack(Vals, *irType(DT), CE->getBeginLoc());
  for (uint64_t K = 0; K < Count; K++) {
    LValue L = pointee(At(D, K), nullptr, CE, "writing");
    if (!L.ok())
      return -1;
    store(L, Vals[K]);
  }
  return B.constI(Type::I32, 0);
}

Lowerer::LValue Lowerer::pointee(const PtrVal &P, const Expr *Idx,
                                 const Expr *At, llvm::StringRef Action) {
  if (P.Base.Multi >= 0 && Action == "writing") {
    error(At->getBeginLoc(),
          "writing through a pointer into one of the tables '" +
              baseName(P.Base) + "'",
          "tables are only read; copy the table into a local array and "
          "point into that");
    return {};
  }
  if (scalarBase(P.Base)) {
    Expr::EvalResult R;
    if (Idx && (!Idx->EvaluateAsInt(R, Ctx) || R.Val.getInt() != 0)) {
      error(Idx->getBeginLoc(),
            "indexing the address of scalar '" + baseName(P.Base) + "'",
            "use only *p (or p[0]) on a pointer to a scalar");
      return {};
    }
    if (P.Base.One) { // a member of a written array of records
      LValue L;
      L.Arg = P.Base.Arg;
      L.Idx = P.Off < 0 ? B.constI(Type::I32, 0) : P.Off;
      return L;
    }
    if (Action == "writing" && ReadOnly.count(P.Base.Var)) {
      staticWrite(At->getBeginLoc(), P.Base.Var);
      return {};
    }
    return {P.Base.Var, -1};
  }
  if (Action == "writing" && P.Base.Var >= 0 && ReadOnly.count(P.Base.Var)) {
    staticWrite(At->getBeginLoc(), P.Base.Var);
    return {};
  }
  if (Action == "writing" && P.Base.Arg >= 0 &&
      F.Params[P.Base.Arg].Kind == ir::ParamKind::Global) {
    tableWrite(At->getBeginLoc(), baseName(P.Base));
    return {};
  }
  int I = P.Off;
  if (Idx) {
    int T = expr(Idx);
    if (T < 0)
      return {};
    I = addOffset(P.Off, T);
  }
  if (I < 0)
    I = B.constI(Type::I32, 0);
  if (P.Base.Multi >= 0) {
    LValue L;
    L.Multi = P.Base.Multi;
    L.Id = P.Id;
    L.Idx = I;
    return L;
  }
  if (P.Base.Arg >= 0) {
    if (Action == "writing" && !F.Params[P.Base.Arg].Writable) {
      error(At->getBeginLoc(),
            "writing into the const array parameter '" + baseName(P.Base) + "'",
            "declare the parameter without 'const' to make it an output");
      return {};
    }
    LValue L;
    L.Arg = P.Base.Arg;
    L.Idx = I;
    return L;
  }
  return {P.Base.Var, I};
}

bool Lowerer::bindPointer(const VarDecl *VD, const PtrVal *Init, Frame &Fr,
                          bool Assigned) {
  PtrVar P;
  bool Modified = Assigned || modifies(Fr.FD->getBody(), VD);
  // Assigned from two or more tables of pointers: into all their tables
  // from here on (LowerPtrTables.cpp).
  if (Modified && VD->getType()->isPointerType())
    P.Seed = seedTables(VD, Fr.FD->getBody());
  if (Failed)
    return false;
  if (Init) {
    PtrVal V = *Init;
    seedPointer(P, V);
    P.Base = V.Base;
    P.Off = V.Off;
    P.Id = V.Id;
    P.Hidden = V.Hidden;
  }
  if (Modified) {
    if (scalarBase(P.Base)) {
      error(VD->getLocation(),
            "re-pointing '" + VD->getNameAsString() +
                "', which points at scalar '" + baseName(P.Base) + "'",
            "use only *p (or p[0]) on a pointer to a scalar");
      return false;
    }
    P.OffVar = F.newVar(VD->getNameAsString() + "_off", Type::I32);
    B.set(P.OffVar, P.Off < 0 ? B.constI(Type::I32, 0) : P.Off);
    P.Off = -1;
    // It may be pointed into one read-only table, then into another
    // (ptrAssign): which one is a per-lane integer (unused ones pruned).
    if (!P.Base.ok() || P.Base.Multi >= 0 || tableBase(P.Base)) {
      P.IdVar = F.newVar(VD->getNameAsString() + "_tab", Type::I32);
      B.set(P.IdVar, P.Id < 0 ? B.constI(Type::I32, 0) : P.Id);
      P.Id = -1;
    }
  }
  Fr.Ptrs[VD] = P;
  // A pointer parameter the function sets to NULL on some paths (`if (x <
  // 0) p = NULL;`): a flag per lane, as a local's (pointerDecl), true on
  // entry: an array argument or a local's address is not NULL.
  if (isa<ParmVarDecl>(VD) && P.OffVar >= 0 && maybeNullLocal(VD)) {
    PtrVar &Q = Fr.Ptrs[VD];
    Q.NullVar = F.newVar(VD->getNameAsString() + "_set", Type::Bool);
    B.set(Q.NullVar, B.constB(true));
  }
  return true;
}

bool Lowerer::pointerDecl(const VarDecl *VD) {
  PtrVal Init;
  // `const double *c = NULL;`: as if declared without it (where c is null,
  // NullLocals.cpp follows).
  const Expr *InitE = VD->getInit();
  if (InitE && isNullPointer(InitE, Ctx))
    InitE = nullptr;
  // `const double *c = x > 0 ? T : NULL;` where it may be NULL at a read:
  // declared without it, then assigned it as an if/else (nullArmAssign).
  if (InitE && !allocationCall(InitE).empty())
    return allocatedDecl(VD, InitE);
  const ConditionalOperator *Arm = InitE ? nullArm(InitE, Ctx) : nullptr;
  if (Arm && maybeNullLocal(VD))
    InitE = nullptr;
  else
    Arm = nullptr;
  if (const Expr *E = InitE) {
    // A copy of a helper's parameter its call passed NULL (`int *t = s;`),
    // or of such a copy: null as well, its tests folding as s's do.
    Frame &Fr = Frames.back();
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *From = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (auto It = From ? Fr.Nulls.find(From) : Fr.Nulls.end();
        It != Fr.Nulls.end()) {
      Fr.Nulls[VD] = It->second; // (also after the error: no follow-ons)
      // (Where it then points would depend on the path taken.)
      if (!modifies(Fr.FD->getBody(), VD))
        return true;
      std::string Name = VD->getNameAsString(), S = From->getNameAsString();
      std::string Fix,
          Why = maybeNullWhy(It->second, From, Frames.size() - 2, Fix);
      error(VD->getLocation(),
            "re-pointing '" + Name + "', a copy of '" + S + "', " +
                (Why.empty() ? "which a call passes a null pointer" : Why) +
                ",",
            "choose where it points where it is declared ('" +
                VD->getType()->getPointeeType().getAsString() + " *" + Name +
                " = " + S + " ? " + S +
                " : &own;'), or leave the copy as it is and test it ('if (" +
                Name + " != NULL) ...')" + (Fix.empty() ? "" : ", or " + Fix));
      return false;
    }
    // A copy of a parameter its call passed a pointer that is not NULL
    // (nullArgCall's run with the local set), never re-pointed: not NULL
    // either, its tests folding as the parameter's do.
    if (From && Fr.NotNulls.count(From) && !modifies(Fr.FD->getBody(), VD))
      Fr.NotNulls.insert(VD);
    if (!ptrValue(E, Init))
      return false;
  } else {
    QualType ET = VD->getType()->getPointeeType();
    if (!irType(ET) || ET.isVolatileQualified()) {
      error(VD->getLocation(),
            "local variable '" + VD->getNameAsString() + "' of type '" +
                VD->getType().getAsString() + "'",
            "point to float, double, integer or _Bool elements");
      return false;
    }
  }
  if (!bindPointer(VD, InitE ? &Init : nullptr, Frames.back(), Arm != nullptr))
    return false;
  // Set to NULL and null on some paths only where it is read: a flag per
  // lane that it is not, which its tests read (NullLocals.h).
  PtrVar &P = Frames.back().Ptrs[VD];
  if (P.OffVar >= 0 && maybeNullLocal(VD)) {
    P.NullVar = F.newVar(VD->getNameAsString() + "_set", Type::Bool);
    B.set(P.NullVar, B.constB(!VD->getInit() || InitE != nullptr));
    if (!P.Base.ok())
      seedNullBase(VD, P, Frames.back().FD->getBody());
  }
  if (Arm) {
    // (A reference to it for nullArmAssign, as an assignment would name it.)
    auto *Ref =
        DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                            const_cast<VarDecl *>(VD), false, VD->getLocation(),
                            VD->getType(), VK_LValue);
    PtrVal Out;
    return nullArmAssign(Ref, Arm, Out);
  }
  return true;
}

bool Lowerer::extentsFromAccesses() {
  // Every temp's defining instruction, to fold index arithmetic.
  std::vector<const ir::Stmt *> Def(F.Temps.size(), nullptr);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Dst >= 0)
      Def[S.Dst] = &S;
  });
  std::function<std::optional<int64_t>(int)> Eval =
      [&](int T) -> std::optional<int64_t> {
    const ir::Stmt *S = T >= 0 ? Def[T] : nullptr;
    if (!S)
      return std::nullopt;
    if (S->Opc == Op::ConstI)
      return S->IVal;
    if (S->Opc == Op::Cast && ir::isInt(F.Temps[S->Args[0]]))
      return Eval(S->Args[0]);
    if (S->Opc == Op::Neg)
      if (auto A = Eval(S->Args[0]))
        return -*A;
    if (S->Opc == Op::Add || S->Opc == Op::Sub || S->Opc == Op::Mul) {
      auto A = Eval(S->Args[0]), C = Eval(S->Args[1]);
      if (A && C)
        return S->Opc == Op::Add   ? *A + *C
               : S->Opc == Op::Sub ? *A - *C
                                   : *A * *C;
    }
    return std::nullopt;
  };
  std::map<int, int64_t> Max;
  std::map<int, bool> Unknown;
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K != ir::Stmt::Inst ||
        (S.Opc != Op::LoadArg && S.Opc != Op::StoreArg))
      return;
    int P = (int)S.IVal;
    // A member of an array of records: its record's index.
    int64_t Per = 1;
    if (F.Params[P].Record >= 0 && F.Params[P].IsArray) {
      const RecArray &RA = RecArrays[F.Params[P].Record];
      for (size_t K = 0; K < RA.LeafParams.size(); ++K)
        if (RA.LeafParams[K] == P)
          Per = RA.Per[K];
      P = F.Params[P].Record;
    }
    if (!WholeUse.count(P))
      return;
    auto V = Eval(S.Args[0]);
    if (!V)
      Unknown[P] = true;
    else
      Max[P] = std::max(Max.count(P) ? Max[P] : -1, *V < 0 ? *V : *V / Per);
  });
  for (auto &[P, At] : WholeUse) {
    ir::Param &AP = F.Params[P];
    if (!Unknown[P] && Max.count(P) && Max[P] >= 0) {
      AP.StaticLen = (int)Max[P] + 1;
      AP.DimHow = "static " + std::to_string(AP.StaticLen) +
                  " (constant indices, through pointers and helper calls)";
      if (RecArrays.count(P))
        for (size_t K = 0; K < RecArrays[P].LeafParams.size(); ++K) {
          ir::Param &LP = F.Params[RecArrays[P].LeafParams[K]];
          LP.StaticLen = AP.StaticLen * (int)RecArrays[P].Per[K];
          LP.DimHow = AP.DimHow;
        }
      continue;
    }
    // A BD_UNIFORM array the generated code never indexes, only passes
    // whole to calls made once per example (`strcmp(scale, "UTC")`): the
    // callee reads what it reads, as the scalar function's would.
    if (!Unknown[P] && !Max.count(P) && ExternWhole.count(P)) {
      AP.DimHow = "none (passed whole to '" + ExternWhole[P] +
                  "', called once per example)";
      continue;
    }
    QualType ET = Top->getParamDecl(P)->getType()->getPointeeType();
    Failed = true;
    // (DimHow: why a helper it is passed to gave no extent, if one did not:
    // ArrayParams.cpp.)
    report(Diags, DiagnosticsEngine::Error, At->getBeginLoc(),
           "cannot infer the extent of '%0' in a batch/diff function: it is "
           "%2; declare it as '%1 %0[n]' with an integer parameter n before "
           "it (or arithmetic of such parameters, '%0[n + 1]'), or '%1 "
           "%0[static N]', or annotate it BD_EXTENT(n)")
        << AP.Name << ET.getAsString()
        << (AP.DimHow.empty() ? "used as a pointer here" : AP.DimHow);
  }
  return !Failed;
}

} // namespace lowering
} // namespace batchdiff
