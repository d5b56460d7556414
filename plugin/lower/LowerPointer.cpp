//===- LowerPointer.cpp - pointers as (base array, integer offset) --------===//
//
// A pointer in a batch/diff function always points into one array known at
// compile time: a local array, a local scalar (`&x`), an array parameter
// of the annotated function, or a file-scope table (read only, a Global
// parameter: LowerGlobal.cpp). It is lowered as that base plus an I32
// offset, so `*p++`, `p[i]`, `*(p + i)` and `&a[k]` passed to a helper all
// become plain indexed loads and stores. What cannot be resolved that way
// (a pointer that may point into two arrays, compared, tested, stored
// elsewhere) is an error at the construct.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "diagnostics/Diagnostics.h"

#include <functional>

namespace batchdiff {
namespace lowering {

namespace {

const VarDecl *declOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const char *InsteadOne = "index one array, with an integer offset computed "
                         "from the condition";

/// Whether computing the address \p E reads the caller's memory: `&x[k]`
/// and `m[i]` (a row) only compute addresses, `T + (int)x[k]` reads x[k].
bool addressReads(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const auto *UO = dyn_cast<UnaryOperator>(E);
  if (UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParens();
  else if (!E->getType()->isArrayType())
    return readsUserMemory(E);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return readsUserMemory(AS->getIdx()) || addressReads(AS->getBase());
  return !isa<DeclRefExpr>(E) && readsUserMemory(E);
}

} // namespace

std::string Lowerer::baseName(const PtrBase &P) const {
  if (P.Multi >= 0) { // "A', 'B": the caller quotes it
    std::string S;
    for (const PtrBase &Q : Choices[P.Multi])
      S += (S.empty() ? "" : "', '") + baseName(Q);
    return S;
  }
  return P.Arg >= 0 ? F.Params[P.Arg].Name : F.Vars[P.Var].Name;
}

int Lowerer::addOffset(int Off, int Idx, bool Sub) {
  Idx = B.cast(Type::I32, Idx);
  if (Off < 0)
    return Sub ? B.neg(Idx) : Idx;
  return B.bin(Sub ? Op::Sub : Op::Add, Off, Idx);
}

Lowerer::PtrVar *Lowerer::ptrVar(const Expr *E) {
  const VarDecl *VD = declOf(E);
  auto It = VD ? Frames.back().Ptrs.find(VD) : Frames.back().Ptrs.end();
  return It == Frames.back().Ptrs.end() ? nullptr : &It->second;
}

/// Whether \p E is (a row or plane of) an array of two or more dimensions,
/// flat and row-major here: a multi-dimensional array parameter `m`, `m[i]`
/// or `*m`, or a helper's, a local array, a file-scope table, or a
/// two-dimensional array member of a struct.
bool Lowerer::rowParam(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenImpCasts();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    else
      break;
  }
  // A two-dimensional array member of a struct: flat, row-major
  // (structLayout); ptrValue checks the member.
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *CAT = Ctx.getAsConstantArrayType(ME->getType());
    return CAT && Ctx.getAsConstantArrayType(CAT->getElementType());
  }
  const VarDecl *VD = declOf(E);
  if (!VD)
    return false;
  if (isa<ParmVarDecl>(VD) && ptrVar(E))
    return true;
  // A file-scope table: flat, row-major (globalParam).
  if (VD->hasGlobalStorage() && !Frames.back().Vars.count(VD))
    if (const ArrayType *AT = Ctx.getAsArrayType(VD->getType()))
      return Ctx.getAsConstantArrayType(AT->getElementType()) &&
             flatArray(Ctx, AT->getElementType());
  // A local array (or static local table): flat, row-major (arrayDecl).
  const auto *CAT = Ctx.getAsConstantArrayType(VD->getType());
  auto It = Frames.back().Vars.find(VD);
  return CAT && Ctx.getAsConstantArrayType(CAT->getElementType()) &&
         It != Frames.back().Vars.end() && F.Vars[It->second].Len > 0;
}

bool Lowerer::ptrValue(const Expr *E, PtrVal &Out) {
  if (Failed)
    return false;
  E = E->IgnoreParens();
  QualType PT = E->getType();
  if (PT->isPointerType()) {
    QualType ET = PT->getPointeeType();
    // Rows of a multi-dimensional array: `T (*)[C]`, `T (*)[R][C]`.
    if (auto Flat = flatArray(Ctx, ET); Flat && rowParam(E))
      ET = Flat->first;
    if (!irType(ET) || ET.isVolatileQualified()) {
      error(E->getBeginLoc(), "a pointer to '" + ET.getAsString() + "'",
            "point to float, double, integer or _Bool elements");
      return false;
    }
  }
  if (isa<StringLiteral>(E)) {
    error(E->getBeginLoc(), "a string literal", "use numbers");
    return false;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && E->getType()->isArrayType())
    return ptrMember(ME, Out);
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return ptrCast(CE, Out);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return ptrDecl(DRE, Out);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_AddrOf:
      return ptrAddrOf(UO, Out);
    case UO_PreInc:
    case UO_PostInc:
      return ptrIncDec(E, UO->getSubExpr(), 1, UO->isPostfix(), Out);
    case UO_PreDec:
    case UO_PostDec:
      return ptrIncDec(E, UO->getSubExpr(), -1, UO->isPostfix(), Out);
    default:
      break;
    }
  }
  if (const auto *CAO = dyn_cast<CompoundAssignOperator>(E)) {
    // p += k, p -= k
    PtrVal Old;
    if (!ptrValue(CAO->getLHS(), Old))
      return false;
    int K = expr(CAO->getRHS());
    if (K < 0)
      return false;
    if (scalarBase(Old.Base)) {
      error(CAO->getOperatorLoc(),
            "pointer arithmetic on the address of scalar '" +
                baseName(Old.Base) + "'",
            "use only *p (or p[0]) on a pointer to a scalar");
      return false;
    }
    Old.Off = addOffset(Old.Off, K, CAO->getOpcode() == BO_SubAssign);
    return ptrAssign(E, CAO->getLHS(), Old, Out);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind K = BO->getOpcode();
    if (K == BO_Comma) {
      expr(BO->getLHS());
      return !Failed && ptrValue(BO->getRHS(), Out);
    }
    if (K == BO_Assign) {
      PtrVal V;
      return ptrValue(BO->getRHS(), V) && ptrAssign(E, BO->getLHS(), V, Out);
    }
    if (K == BO_Add || K == BO_Sub)
      return ptrArith(BO, Out);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return ptrConditional(CO, Out);
  return ptrRow(E, Out);
}

/// An array member of a struct (a local one, or of a record array): its own
/// array.
bool Lowerer::ptrMember(const MemberExpr *ME, PtrVal &Out) {
  if (inRecordArray(ME)) {
    RecRef R;
    if (!recordRef(ME, R))
      return false;
    if (R.Count != 1 || RecArrays[R.Param].Leaves[R.Start].Len == 0) {
      error(ME->getBeginLoc(), "this array member",
            "use a one-dimensional array of scalars");
      return false;
    }
    LValue L = recordLeaf(R, 0);
    Out.Base.Arg = L.Arg;
    Out.Base.Var = L.Var; // a local array of structs
    Out.Off = L.Idx;
    return true;
  }
  std::vector<int> L;
  if (!memberLeaves(ME, L))
    return false;
  if (L.size() != 1 || F.Vars[L[0]].Len == 0) {
    error(ME->getBeginLoc(), "this array member",
          "use a one-dimensional array of scalars");
    return false;
  }
  Out.Base.Var = L[0];
  Out.Off = -1;
  return true;
}

/// A conversion of a pointer: only those that keep the element type.
bool Lowerer::ptrCast(const CastExpr *CE, PtrVal &Out) {
  switch (CE->getCastKind()) {
  case CK_ArrayToPointerDecay:
  case CK_NoOp:
  case CK_LValueToRValue:
    return ptrValue(CE->getSubExpr(), Out);
  case CK_NullToPointer:
    error(CE->getBeginLoc(), "a null pointer",
          "point it into an array or at a local");
    return false;
  case CK_BitCast: // to the composite type of a comparison: only const
    if (CE->getType()->isPointerType() &&
        CE->getSubExpr()->getType()->isPointerType() &&
        Ctx.hasSameUnqualifiedType(
            CE->getType()->getPointeeType(),
            CE->getSubExpr()->getType()->getPointeeType()))
      return ptrValue(CE->getSubExpr(), Out);
    [[fallthrough]];
  default:
    // Before the conversion of its void *: what the user wrote is the call.
    if (llvm::StringRef A = allocationCall(CE->getSubExpr()); !A.empty()) {
      error(CE->getBeginLoc(), "memory from '" + A.str() + "'",
            "use a local array of constant size (1..65536 elements; large "
            "ones live in batchdiff's arena, not on the stack)");
      return false;
    }
    error(CE->getBeginLoc(),
          describeConversion(CE->getSubExpr()->getType(), CE->getType()),
          "keep the element type of the array the pointer points into");
    return false;
  }
}

/// A named pointer, local array or file-scope table.
bool Lowerer::ptrDecl(const DeclRefExpr *DRE, PtrVal &Out) {
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (PtrVar *P = ptrVar(DRE)) {
    if (!P->Base.ok()) {
      error(DRE->getBeginLoc(),
            "reading pointer '" + VD->getNameAsString() +
                "' before it points into an array",
            "initialise it where it is declared");
      return false;
    }
    Out.Base = P->Base;
    Out.Off = P->OffVar >= 0 ? B.get(P->OffVar) : P->Off;
    if (P->Base.Multi >= 0)
      Out.Id = P->IdVar >= 0 ? B.get(P->IdVar) : P->Id;
    P->LastRead = ++PtrSeq;
    return true;
  }
  auto It = VD ? Frames.back().Vars.find(VD) : Frames.back().Vars.end();
  if (It != Frames.back().Vars.end() && F.Vars[It->second].Len > 0) {
    Out.Base.Var = It->second;
    Out.Off = -1;
    return true;
  }
  if (VD && Poisoned.count(VD) && It == Frames.back().Vars.end())
    return fail() >= 0; // its declaration's error is reported
  // A file-scope table: a uniform array read in place.
  if (VD && VD->hasGlobalStorage() && VD->getType()->isArrayType()) {
    Out.Base.Arg = globalParam(VD, DRE->getBeginLoc());
    Out.Off = -1;
    return Out.Base.Arg >= 0;
  }
  std::string Name = DRE->getDecl()->getNameAsString();
  if (VD && VD->hasGlobalStorage())
    error(DRE->getBeginLoc(), "using global pointer '" + Name + "'",
          "make it a global array, or pass the data as an array parameter");
  else
    error(DRE->getBeginLoc(), "using '" + Name + "' as a pointer",
          "pass it as an array parameter, or use a local array");
  return false;
}

/// p + i, i + p, p - i.
bool Lowerer::ptrArith(const BinaryOperator *BO, PtrVal &Out) {
  bool PtrLeft = BO->getLHS()->getType()->isPointerType();
  const Expr *PE = PtrLeft ? BO->getLHS() : BO->getRHS();
  const Expr *IE = PtrLeft ? BO->getRHS() : BO->getLHS();
  // (Evaluated left to right, as the operands are written.)
  PtrVal P;
  int I;
  if (PtrLeft) {
    if (!ptrValue(PE, P) || (I = expr(IE)) < 0)
      return false;
  } else {
    if ((I = expr(IE)) < 0 || !ptrValue(PE, P))
      return false;
  }
  if (scalarBase(P.Base)) {
    error(BO->getOperatorLoc(),
          "pointer arithmetic on the address of scalar '" + baseName(P.Base) +
              "'",
          "use only *p (or p[0]) on a pointer to a scalar");
    return false;
  }
  Out = P;
  Out.Off = addOffset(P.Off, I, BO->getOpcode() == BO_Sub);
  return true;
}

/// A row or plane of a multi-dimensional array, or else the error that
/// names what \p E is.
bool Lowerer::ptrRow(const Expr *E, PtrVal &Out) {
  // A row of a multi-dimensional array: m[i] is m + i * C (a plane of a
  // three-dimensional one: m + i * R * C).
  if (auto Flat = flatArray(Ctx, E->getType()); Flat && rowParam(E)) {
    const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
    const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
    const Expr *Base = AS ? AS->getBase() : UO->getSubExpr();
    PtrVal P;
    if (!ptrValue(Base, P))
      return false;
    Out = P;
    if (AS) {
      int I = expr(AS->getIdx());
      if (I < 0)
        return false;
      I = B.bin(Op::Mul, B.cast(Type::I32, I),
                B.constI(Type::I32, (int64_t)Flat->second));
      Out.Off = addOffset(P.Off, I);
    }
    return true;
  }
  // A row of a two-dimensional array: `T[i]`, `*T`.
  if (E->getType()->isArrayType()) {
    const Expr *Base = E;
    while (true) {
      Base = Base->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base))
        Base = AS->getBase();
      else if (const auto *UO = dyn_cast<UnaryOperator>(Base);
               UO && UO->getOpcode() == UO_Deref)
        Base = UO->getSubExpr();
      else
        break;
    }
    const VarDecl *VD = declOf(Base);
    // A compound or string literal is no row: named below in C's words.
    if (!isa<CompoundLiteralExpr>(Base) && !isa<StringLiteral>(Base)) {
      error(E->getBeginLoc(),
            std::string("a row of the two-dimensional array") +
                (VD ? " '" + VD->getNameAsString() + "'" : std::string()),
            "use a one-dimensional array, indexed as a[i * N + j]");
      return false;
    }
  }
  if (isa<CallExpr>(E)) {
    error(E->getBeginLoc(), "a call returning a pointer",
          "return a scalar, or write results through pointer parameters");
    return false;
  }
  error(E->getBeginLoc(), describeExpr(E) + " as a pointer",
        "use a local array, an array parameter, &local or &a[k], plus an "
        "integer offset");
  return false;
}

bool Lowerer::ptrAddrOf(const UnaryOperator *UO, PtrVal &Out) {
  const Expr *Sub = UO->getSubExpr()->IgnoreParens();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
    PtrVal P;
    if (!ptrValue(AS->getBase(), P))
      return false;
    int I = expr(AS->getIdx());
    if (I < 0)
      return false;
    if (scalarBase(P.Base)) {
      error(UO->getBeginLoc(),
            "pointer arithmetic on the address of scalar '" + baseName(P.Base) +
                "'",
            "use only *p (or p[0]) on a pointer to a scalar");
      return false;
    }
    Out = P;
    Out.Off = addOffset(P.Off, I);
    return true;
  }
  if (const auto *D = dyn_cast<UnaryOperator>(Sub);
      D && D->getOpcode() == UO_Deref)
    return ptrValue(D->getSubExpr(), Out);          // &*p is p
  if (const auto *ME = dyn_cast<MemberExpr>(Sub)) { // &s.x: a scalar
    LValue L = memberLValue(ME, "reading");
    if (!L.ok())
      return false;
    if (!L.View.isNull()) {
      error(UO->getBeginLoc(), "taking the address of a member of a union",
            "read and write the member itself ('u.d = x', 'e = u.w[1]')");
      return false;
    }
    if (L.Arg >= 0) {
      // A member of an array of records: its element of the member's
      // array (LowerRecords.cpp). Read only: a write through it would be
      // a store the other members' arrays do not see.
      if (F.Params[L.Arg].Writable) {
        error(UO->getBeginLoc(),
              "taking the address of a member of the written array of "
              "records '" +
                  F.Params[F.Params[L.Arg].Record].Name + "'",
              "pass the record ('&p[i]') or the member's value");
        return false;
      }
      Out.Base.Arg = L.Arg;
      Out.Off = L.Idx;
      return true;
    }
    Out.Base.Var = L.Var;
    Out.Off = L.Idx; // -1, or the record's element in a local array
    return true;
  }
  const VarDecl *VD = declOf(Sub);
  auto It = VD && !Frames.back().Ptrs.count(VD) ? Frames.back().Vars.find(VD)
                                                : Frames.back().Vars.end();
  if (It != Frames.back().Vars.end() && isa<DeclRefExpr>(Sub) &&
      F.Vars[It->second].Len == 0) {
    Out.Base.Var = It->second;
    Out.Off = -1;
    return true;
  }
  std::string What = "taking the address of this expression";
  if (VD && Frames.back().Ptrs.count(VD))
    What = "taking the address of pointer '" + VD->getNameAsString() + "'";
  else if (VD && VD->hasGlobalStorage())
    What = "taking the address of global '" + VD->getNameAsString() + "'";
  else if (VD)
    What = "taking the address of '" + VD->getNameAsString() + "'";
  error(UO->getBeginLoc(), What,
        "take the address of a local scalar or of an array element");
  return false;
}

bool Lowerer::ptrIncDec(const Expr *E, const Expr *Sub, int Delta, bool Post,
                        PtrVal &Out) {
  PtrVal Old;
  if (!ptrValue(Sub, Old))
    return false;
  if (scalarBase(Old.Base)) {
    error(E->getBeginLoc(),
          "pointer arithmetic on the address of scalar '" + baseName(Old.Base) +
              "'",
          "use only *p (or p[0]) on a pointer to a scalar");
    return false;
  }
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
  if (!P || P->OffVar < 0) {
    const VarDecl *VD = declOf(LHS);
    error(At->getBeginLoc(),
          VD ? "storing a pointer in '" + VD->getNameAsString() + "'"
             : std::string("storing a pointer here"),
          "keep pointers in local variables");
    return false;
  }
  if (!P->Base.ok()) {
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
            "keep each pointer in one array; " + std::string(InsteadOne));
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
  if (P->IdVar >= 0)
    B.set(P->IdVar, V.Id < 0 ? B.constI(Type::I32, 0) : V.Id);
  Out = V;
  return true;
}

/// `c ? p : q` is a select of the offsets (and table positions): both arms
/// are computed in every lane, so they may have no side effects and call
/// nothing but math (a nested `fabs(x) < 1 ? A : B`). The condition runs
/// once, before them, as in C: any call is fine there.
bool Lowerer::ptrConditional(const ConditionalOperator *CO, PtrVal &Out) {
  int C = cond(CO->getCond());
  if (C < 0)
    return false;
  PtrVal T, E;
  const Expr *TE = CO->getTrueExpr(), *FE = CO->getFalseExpr();
  // Arms that read the caller's memory (`k < n ? T + (int)x[k] : T` must
  // not read x[n]), call a helper or have a side effect branch, as values'
  // arms do (conditional()); other arms are computed in every lane.
  bool Branch = false;
  for (const Expr *A : {TE, FE})
    Branch |= !pure(A) || !onlyMathCalls(A, Ctx) || addressReads(A);
  if (Branch) {
    if (!ptrBranches(C, TE, FE, T, E))
      return false;
  } else {
    ++Speculative; // (both arms run in every lane)
    bool Ok = ptrValue(TE, T) && ptrValue(FE, E);
    --Speculative;
    if (!Ok)
      return false;
  }
  int Zero = B.constI(Type::I32, 0);
  int IdT = T.Id < 0 ? Zero : T.Id, IdE = E.Id < 0 ? Zero : E.Id;
  Out.Base = T.Base;
  // Between read-only tables: which one is a per-lane integer.
  if (!(T.Base == E.Base) && !mergeTables(T, E, Out.Base, IdT, IdE)) {
    error(CO->getBeginLoc(),
          "a pointer chosen at run time between '" + baseName(T.Base) +
              "' and '" + baseName(E.Base) + "'",
          InsteadOne);
    return false;
  }
  if (Out.Base.Multi >= 0)
    Out.Id = B.select(C, IdT, IdE);
  Out.Off = B.select(C, T.Off < 0 ? Zero : T.Off, E.Off < 0 ? Zero : E.Off);
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
  PtrBase U;
  if (!(L.Base == R.Base) && !mergeTables(L, R, U, IdL, IdR)) {
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
int Lowerer::ptrCompare(const BinaryOperator *BO) {
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

bool Lowerer::bindPointer(const VarDecl *VD, const PtrVal *Init, Frame &Fr) {
  PtrVar P;
  if (Init) {
    P.Base = Init->Base;
    P.Off = Init->Off;
    P.Id = Init->Id;
  }
  if (modifies(Fr.FD->getBody(), VD)) {
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
  return true;
}

bool Lowerer::pointerDecl(const VarDecl *VD) {
  PtrVal Init;
  if (const Expr *E = VD->getInit()) {
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
  return bindPointer(VD, VD->getInit() ? &Init : nullptr, Frames.back());
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
    QualType ET = Top->getParamDecl(P)->getType()->getPointeeType();
    Failed = true;
    report(Diags, DiagnosticsEngine::Error, At->getBeginLoc(),
           "cannot infer the extent of '%0' in a batch/diff function: it is "
           "used as a pointer here; declare it as '%1 %0[n]' with an integer "
           "parameter n before it (or arithmetic of such parameters, "
           "'%0[n + 1]'), or '%1 %0[static N]', or annotate it BD_EXTENT(n)")
        << AP.Name << ET.getAsString();
  }
  return !Failed;
}

} // namespace lowering
} // namespace batchdiff
