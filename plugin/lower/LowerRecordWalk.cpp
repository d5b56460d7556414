//===- LowerRecordWalk.cpp - struct pointers walking records --------------===//
//
// A pointer into an array of records (LowerRecords.cpp) is a RecRef: the
// records, and the record's index as an I32 temp computed where the pointer
// is bound. A struct pointer the function re-points (`for (p = pts; p <
// pts + n; ++p)`, `while (n--) { ...; p++; }` in a helper, `best = q`)
// keeps its record index in an I32 variable instead (per lane, so each
// example walks on its own under masks), read at each use: p++, --p,
// p += k, p -= k and p = q (q into the same records) write it, and
// comparisons and differences of two pointers into the same records compare
// and subtract indices. Accesses through it stay indexed accesses of the
// leaf arrays, so the derivatives flow as for `pts[i].x`.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include "ir/IR.h"

namespace batchdiff {
namespace lowering {

bool Lowerer::walkRecords(const VarDecl *VD, const RecRef *Init, Frame &Fr) {
  std::string N = VD->getNameAsString();
  if (Init && !Init->Whole) {
    error(VD->getLocation(),
          "re-pointing '" + N + "', a pointer to a member of a record,",
          "walk the records themselves ('p->m.x'), or keep an integer index "
          "of the record");
    return false;
  }
  RecRef R = Init ? *Init : RecRef();
  R.IdxVar = F.newVar(N + "_rec", Type::I32);
  B.set(R.IdxVar, R.Idx < 0 ? B.constI(Type::I32, 0) : R.Idx);
  R.Idx = -1;
  Fr.RecPtrs[VD] = R;
  return true;
}

const VarDecl *Lowerer::walkVar(const Expr *E, RecRef &R) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  auto It = VD ? Frames.back().RecPtrs.find(VD) : Frames.back().RecPtrs.end();
  if (It == Frames.back().RecPtrs.end() || It->second.IdxVar < 0)
    return nullptr;
  R = It->second;
  return VD;
}

bool Lowerer::walkRead(RecRef &R, const VarDecl *VD, SourceLocation At) {
  if (R.IdxVar < 0)
    return true;
  if (R.Param == -1) { // (local and global records: keys below -1)
    error(At,
          "reading the struct pointer '" + VD->getNameAsString() +
              "' before it points into an array of records",
          "point it at the records first ('p = pts;'), or where it is "
          "declared");
    return false;
  }
  R.Idx = B.get(R.IdxVar);
  R.IdxVar = -1;
  return true;
}

bool Lowerer::walkStep(const Expr *E, RecRef &Out, bool &Ok) {
  Ok = false;
  const auto *UO = dyn_cast<UnaryOperator>(E);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  const Expr *Target = nullptr;
  if (UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  else if (BO &&
           (BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_AddAssign ||
            BO->getOpcode() == BO_SubAssign))
    Target = BO->getLHS();
  RecRef Cur;
  const VarDecl *VD = Target ? walkVar(Target, Cur) : nullptr;
  if (!VD)
    return false;
  std::string N = VD->getNameAsString();
  int Old = -1, New = -1;
  if (BO && BO->getOpcode() == BO_Assign) {
    const Expr *RHS = BO->getRHS();
    RecRef V;
    if (isNullPointer(RHS, Ctx) || nullArm(RHS, Ctx)) {
      error(RHS->getBeginLoc(),
            "setting the struct pointer '" + N + "' to NULL",
            "keep an integer index of the record instead ('int k = -1;', "
            "then 'if (k >= 0) ... pts[k]')");
      return true;
    }
    if (!inRecordArray(RHS) && Cur.Param == -1) { // (as before walks)
      error(VD->getLocation(),
            "pointer to a struct '" + N + "' without an initializer",
            "initialise it where it is declared ('vec3 *p = &s;')");
      return true;
    }
    if (!inRecordArray(RHS)) {
      error(BO->getOperatorLoc(),
            "re-pointing the struct pointer '" + N +
                "', which points into an array of records, at a struct "
                "outside it",
            "point it only into its array of records ('p = pts + k;', "
            "'p = q;')");
      return true;
    }
    if (!recordPtr(RHS, V))
      return true;
    if (!V.Whole) {
      error(RHS->getBeginLoc(),
            "pointing the struct pointer '" + N + "' at a member of a record",
            "point it at whole records ('p = &pts[k];')");
      return true;
    }
    if (Cur.Param == -1) { // its first assignment: these records
      Cur.Param = V.Param;
      Cur.Start = V.Start;
      Cur.Count = V.Count;
      Frames.back().RecPtrs[VD] = Cur;
    } else if (V.Param != Cur.Param || V.Start != Cur.Start) {
      error(BO->getOperatorLoc(),
            "a struct pointer, '" + N +
                "', that points into one array of records and, here, into "
                "another",
            "keep each pointer in one array of records (or keep integer "
            "indices)");
      return true;
    }
    New = V.Idx < 0 ? B.constI(Type::I32, 0) : V.Idx;
  } else {
    RecRef At = Cur;
    if (!walkRead(At, VD, E->getBeginLoc()))
      return true;
    Old = At.Idx;
    int D = UO ? B.constI(Type::I32, 1) : recordIndex(Target, BO->getRHS());
    if (D < 0)
      return true;
    bool Sub = UO ? UO->isDecrementOp() : BO->getOpcode() == BO_SubAssign;
    New = addOffset(Old, D, Sub);
  }
  B.set(Cur.IdxVar, New);
  Out = Cur;
  Out.IdxVar = -1;
  Out.Idx = UO && UO->isPostfix() ? Old : New;
  Ok = true;
  return true;
}

bool Lowerer::recordChoice(const ConditionalOperator *CO, RecRef &Out) {
  const Expr *TE = CO->getTrueExpr(), *FE = CO->getFalseExpr();
  if (!inRecordArray(TE) || !inRecordArray(FE) || !speculable(TE, Speculable) ||
      !speculable(FE, Speculable)) {
    error(CO->getBeginLoc(),
          "a '?:' choosing a struct pointer, with side effects in an arm or "
          "not into an array of records,",
          "choose in an if/else ('if (c) p = q; else p = r;')");
    return false;
  }
  int C = cond(CO->getCond());
  RecRef T, E;
  if (C < 0 || !recordPtr(TE, T) || !recordPtr(FE, E))
    return false;
  if (T.Param != E.Param || T.Start != E.Start || T.Whole != E.Whole) {
    error(CO->getBeginLoc(),
          "a '?:' choosing between pointers into two different arrays of "
          "records",
          "choose in an if/else, or keep each pointer in one array of records");
    return false;
  }
  Out = T;
  Out.Idx = B.select(C, T.Idx < 0 ? B.constI(Type::I32, 0) : T.Idx,
                     E.Idx < 0 ? B.constI(Type::I32, 0) : E.Idx);
  return true;
}

bool Lowerer::recordPtrOperands(const BinaryOperator *BO) {
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  return (isStructPtr(L->getType()) || isStructPtr(R->getType())) &&
         ((isStructPtr(L->getType()) && inRecordArray(L)) ||
          (isStructPtr(R->getType()) && inRecordArray(R)));
}

bool Lowerer::recordPtrIndices(const BinaryOperator *BO,
                               const std::string &What, int &L, int &R) {
  const Expr *LE = BO->getLHS(), *RE = BO->getRHS();
  for (const Expr *E : {LE, RE})
    if (!isStructPtr(E->getType()) || !inRecordArray(E)) {
      bool Null = isNullPointer(E, Ctx);
      error(E->getBeginLoc(),
            What + " a pointer into an array of records with " +
                (Null ? std::string("NULL") : describeExpr(E)),
            Null ? "pointers into arrays of records are never NULL here; "
                   "keep an integer index of the record where it may be "
                   "unset"
                 : "compare it with a pointer into the same records ('p < "
                   "pts + n')");
      return false;
    }
  RecRef A, C;
  if (!recordPtr(LE, A) || !recordPtr(RE, C))
    return false;
  if (A.Param != C.Param || A.Start != C.Start) {
    error(BO->getOperatorLoc(),
          What + " pointers into two different arrays of records",
          "compare pointers into one array of records, or integer indices");
    return false;
  }
  L = A.Idx < 0 ? B.constI(Type::I32, 0) : A.Idx;
  R = C.Idx < 0 ? B.constI(Type::I32, 0) : C.Idx;
  return true;
}

int Lowerer::recordPtrCompare(const BinaryOperator *BO) {
  // (A helper's parameter its call passed NULL, or an array: folded.)
  if (std::optional<bool> V = nullTest(BO))
    return B.constB(*V);
  int L, R;
  if (!recordPtrIndices(BO, "comparing", L, R))
    return -1;
  Op O = Op::CmpEQ;
  ir::opFromCOperator(BO->getOpcodeStr().str(), 2, O);
  return B.cmp(O, L, R);
}

int Lowerer::recordPtrDiff(const BinaryOperator *BO) {
  int L, R;
  if (!recordPtrIndices(BO, "subtracting", L, R))
    return -1;
  return B.cast(*irType(BO->getType()), B.sub(L, R));
}

} // namespace lowering
} // namespace batchdiff
