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
// This file: what a pointer expression points at (ptrValue and its parts);
// what is done with pointers is in LowerPointerUse.cpp.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerPointer.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"

namespace batchdiff {
namespace lowering {

using pointers::declOf;

namespace {

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
  if (P.One) // 'out->m'
    return F.Params[F.Params[P.Arg].Record].Name + "->" +
           llvm::StringRef(F.Params[P.Arg].Member).drop_front().str();
  return P.Arg >= 0 ? F.Params[P.Arg].Name : F.Vars[P.Var].Name;
}

int Lowerer::addOffset(int Off, int Idx, bool Sub) {
  Idx = B.cast(Type::I32, Idx);
  if (Off < 0)
    return Sub ? B.neg(Idx) : Idx;
  return B.bin(Sub ? Op::Sub : Op::Add, Off, Idx);
}

bool Lowerer::scalarArith(SourceLocation At, const PtrVal &P) {
  error(At,
        "pointer arithmetic on the address of scalar '" + baseName(P.Base) +
            "'",
        "use only *p (or p[0]) on a pointer to a scalar");
  return false;
}

bool Lowerer::voidArith(const Expr *Ptr, SourceLocation At) {
  QualType T = Ptr->getType();
  if (!T->isPointerType() || !T->getPointeeType()->isVoidType())
    return false;
  error(At, "pointer arithmetic on a 'void *' (GNU C: in bytes)",
        "convert it back to its element type's pointer first");
  return true;
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
  // A local pointer to rows of a constant length, `double (*r)[4] = a;`:
  // rows of the array it points into (r + i, r++ stay errors: ptrValue).
  if (VD->getType()->isPointerType() &&
      Ctx.getAsConstantArrayType(VD->getType()->getPointeeType()) && ptrVar(E))
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
    // Rows of a multi-dimensional array: `T (*)[C]`, `T (*)[R][C]`, and
    // of a VLA parameter, `T (*)[c]`.
    if (auto El = arrayElement(Ctx, ET); El && rowParam(E))
      ET = *El;
    if ((!irType(ET) && !ET->isVoidType()) || ET.isVolatileQualified()) {
      // `double **pp = row`, `h(row)`, `swap(&row[c], &row[p])` of a local
      // array of pointers (LowerPtrArrays.cpp): named in its terms.
      const Expr *A = E->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(A);
          UO && UO->getOpcode() == UO_AddrOf)
        A = UO->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(A))
        A = AS->getBase();
      if (const PtrArr *PA = ET->isPointerType() ? ptrArrOf(A) : nullptr) {
        error(E->getBeginLoc(),
              "a pointer to the elements of '" + PA->Name +
                  "', an array of pointers,",
              "use its elements where it is declared ('" + PA->Name +
                  "[i][j]', '" + ET.getAsString() + "p = " + PA->Name +
                  "[i]', passing '" + PA->Name +
                  "[i]' to a helper), and exchange two in place through a "
                  "temporary pointer");
        return false;
      }
      error(E->getBeginLoc(), "a pointer to '" + ET.getAsString() + "'",
            ET->isAnyComplexType()
                ? "keep complex values in double complex or float complex "
                  "locals (pointers to them are not supported)"
                : "point to float, double, integer or _Bool elements");
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
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && PT->isPointerType())
    if (int R = ptrConstMember(ME, Out); R >= 0)
      return R == 1;
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
    if (scalarBase(Old.Base))
      return scalarArith(CAO->getOperatorLoc(), Old);
    if (voidArith(CAO->getLHS(), CAO->getOperatorLoc()))
      return false;
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
      // `row[c] = row[p];` of a local array of pointers.
      if (int R = ptrArrayAssign(BO, Out); R >= 0)
        return R == 1;
      // `t = s;` of a helper's parameter its call passed NULL: t is null
      // from here on only on this path; a copy made where t is declared
      // is null wherever t is used (pointerDecl).
      const VarDecl *S = declOf(BO->getRHS()), *T = declOf(BO->getLHS());
      if (auto It = S ? Frames.back().Nulls.find(S) : Frames.back().Nulls.end();
          T && It != Frames.back().Nulls.end()) {
        std::string TN = T->getNameAsString(), SN = S->getNameAsString();
        std::string Fix,
            Why = maybeNullWhy(It->second, S, Frames.size() - 2, Fix);
        if (Why.empty())
          Why = "a null pointer here (the call at line " +
                std::to_string(Ctx.getSourceManager().getExpansionLineNumber(
                    It->second->getBeginLoc())) +
                " passes NULL)";
        error(BO->getOperatorLoc(),
              "assigning '" + SN + "', " + Why + ", to '" + TN + "'",
              "copy it where '" + TN + "' is declared ('" +
                  T->getType()->getPointeeType().getAsString() + " *" + TN +
                  " = " + SN +
                  ";') and leave the copy as it is, testing it "
                  "('if (" +
                  TN + " != NULL) ...')" + (Fix.empty() ? "" : ", or " + Fix));
        return false;
      }
      // `c = x > 0 ? T : NULL;` of a pointer with a flag: an if/else.
      if (const ConditionalOperator *CO = nullArm(BO->getRHS(), Ctx))
        if (PtrVar *P = ptrVar(BO->getLHS()); P && P->NullVar >= 0)
          return nullArmAssign(BO->getLHS(), CO, Out);
      PtrVal V;
      return ptrValue(BO->getRHS(), V) && ptrAssign(E, BO->getLHS(), V, Out);
    }
    if (K == BO_Add || K == BO_Sub)
      return ptrArith(BO, Out);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return ptrConditional(CO, Out);
  // An element of a local array of pointers (LowerPtrArrays.cpp).
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    if (PtrArr *PA = ptrArrOf(AS->getBase()))
      return ptrArrayElem(AS, *PA, Out);
  // An entry of a table of pointers (LowerPtrTables.cpp).
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    if (const VarDecl *TD = pointerTableOf(AS->getBase()))
      return ptrTableElem(AS, TD, Out);
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

/// A conversion to `void *` and back (a helper declared `polevl(double,
/// void *, int)` reading `(double *)coef`): the pointer is the same base
/// and offset throughout, so the element type it was made from is the one
/// it may be read as. 1 or 0: handled (ok or failed); -1: not such a cast.
int Lowerer::voidCast(const CastExpr *CE, PtrVal &Out) {
  const Expr *Sub = CE->getSubExpr();
  if (!CE->getType()->isPointerType() || !Sub->getType()->isPointerType())
    return -1;
  QualType To = CE->getType()->getPointeeType();
  QualType From = Sub->getType()->getPointeeType();
  if (To->isVoidType() == From->isVoidType() ||
      !allocationCall(Sub).empty()) // (reported as what it is)
    return -1;
  if (To->isVoidType()) { // T * -> void *: T is what it hides
    if (!irType(From) || From.isVolatileQualified())
      return -1;
    if (!ptrValue(Sub, Out))
      return 0;
    Out.Hidden = From.getUnqualifiedType();
    return 1;
  }
  if (!ptrValue(Sub, Out)) // void * -> T *
    return 0;
  if (Out.Hidden.isNull() || !Ctx.hasSameUnqualifiedType(To, Out.Hidden)) {
    error(CE->getBeginLoc(),
          "a conversion from '" + Sub->getType().getAsString() + "' to '" +
              CE->getType().getAsString() + "'" +
              (Out.Hidden.isNull()
                   ? std::string()
                   : " of a pointer to '" + Out.Hidden.getAsString() + "'"),
          Out.Hidden.isNull()
              ? std::string("convert the pointer back to the type it had")
              : "convert it back to '" + Out.Hidden.getAsString() + " *'");
    return 0;
  }
  Out.Hidden = QualType();
  return 1;
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
          "point it into an array or at a local; a pointer local may be "
          "set to NULL, then tested ('c = NULL; if (x > 0) c = T; ... c ? "
          "*c : 0')");
    return false;
  case CK_BitCast: // to the composite type of a comparison: only const
    if (CE->getType()->isPointerType() &&
        CE->getSubExpr()->getType()->isPointerType()) {
      QualType To = CE->getType()->getPointeeType(),
               From = CE->getSubExpr()->getType()->getPointeeType();
      // Or between rows of the same elements: `const double (*)[4]` passed
      // to a VLA parameter `const double m[r][c]` (flat offsets either way).
      auto ET = arrayElement(Ctx, To), EF = arrayElement(Ctx, From);
      if (Ctx.hasSameUnqualifiedType(To, From) ||
          (ET && EF && Ctx.hasSameUnqualifiedType(*ET, *EF)))
        return ptrValue(CE->getSubExpr(), Out);
    }
    if (int V = voidCast(CE, Out); V >= 0)
      return V;
    [[fallthrough]];
  default:
    // Before the conversion of its void *: what the user wrote is the call.
    if (llvm::StringRef A = allocationCall(CE->getSubExpr()); !A.empty()) {
      error(CE->getBeginLoc(), "memory from '" + A.str() + "' here",
            "set a local pointer to it where it is declared ('double *w = "
            "malloc(n * sizeof *w);': the example's own memory, as a local "
            "array sized per example), or use a local array, of constant "
            "size or sized per example ('double t[n]'; 1..65536 elements)");
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
  if (auto It = VD ? Frames.back().Nulls.find(VD) : Frames.back().Nulls.end();
      It != Frames.back().Nulls.end()) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::string N = VD->getNameAsString(),
                Line = std::to_string(
                    SM.getExpansionLineNumber(It->second->getBeginLoc()));
    // Passed a local that may still be NULL (nullArgCall's null lanes).
    std::string Fix, Why = maybeNullWhy(It->second, VD, Frames.size() - 2, Fix);
    if (!Why.empty()) {
      error(DRE->getBeginLoc(), "using '" + N + "', " + Why + ",",
            "test it first ('if (" + N + " != NULL) ...'), or " + Fix);
      return false;
    }
    error(DRE->getBeginLoc(),
          "using '" + N + "', a null pointer here (the call at line " + Line +
              " passes NULL),",
          "test it first ('if (" + N +
              " != NULL) ...'), or pass a local's address");
    return false;
  }
  if (nullLocalRead(DRE, false))
    return false;
  if (PtrVar *P = ptrVar(DRE)) {
    if (!P->Base.ok() && localNull(DRE)) { // (set to NULL: seedNullBase)
      const Expr *First = firstPointing(VD, Frames.back().FD->getBody());
      std::string At =
          First ? ", at line " +
                      std::to_string(
                          Ctx.getSourceManager().getExpansionLineNumber(
                              First->getBeginLoc()))
                : std::string();
      error(DRE->getBeginLoc(),
            "reading pointer '" + VD->getNameAsString() +
                "', set to NULL, before it points into an array (its first "
                "assignment" +
                At + ", does not say which array)",
            "make that assignment '&a[i]', 'a + k', 'a', 'tab[k]' of a "
            "table of pointers, or a '?:' of those into one array, into "
            "read-only tables or into read-only array parameters declared "
            "with a constant length ('a[N]', N a constant); or keep an index "
            "instead of a pointer ('int k = -1;', then 'if (k >= 0)')");
      return false;
    }
    if (!P->Base.ok()) {
      error(DRE->getBeginLoc(),
            "reading pointer '" + VD->getNameAsString() +
                "' before it points into an array",
            "initialise it where it is declared");
      return false;
    }
    Out.Base = P->Base;
    Out.Off = P->OffVar >= 0 ? B.get(P->OffVar) : P->Off;
    Out.Hidden = P->Hidden;
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
  if (scalarBase(P.Base))
    return scalarArith(BO->getOperatorLoc(), P);
  if (voidArith(PE, BO->getOperatorLoc()))
    return false;
  Out = P;
  Out.Off = addOffset(P.Off, I, BO->getOpcode() == BO_Sub);
  return true;
}

/// A row or plane of a multi-dimensional array, or else the error that
/// names what \p E is.
bool Lowerer::ptrRow(const Expr *E, PtrVal &Out) {
  // A row of a multi-dimensional array: m[i] is m + i * C (a plane of a
  // three-dimensional one: m + i * R * C; of a VLA parameter `m[r][c]`,
  // m + i * c).
  if (arrayElement(Ctx, E->getType()) && rowParam(E)) {
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
      I = B.cast(Type::I32, I);
      int Row = rowSize(E->getType(), E);
      if (Row < 0)
        return false;
      I = B.bin(Op::Mul, I, Row);
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
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // errno is a macro for (*__errno_location ()) (glibc, musl; __error on
    // the BSDs and macOS, _errno on Windows): say what the user wrote.
    const FunctionDecl *Callee = CE->getDirectCallee();
    llvm::StringRef N = Callee && Callee->getIdentifier() ? Callee->getName()
                                                          : llvm::StringRef();
    if (N == "__errno_location" || N == "__error" || N == "_errno") {
      error(E->getBeginLoc(), "'errno' (the C library's error code)",
            "batched math functions do not set it: test the arguments or "
            "the results instead (isnan, isinf, a comparison)");
      return false;
    }
    error(E->getBeginLoc(), "a call returning a pointer",
          "return a scalar, or write results through pointer parameters");
    return false;
  }
  error(E->getBeginLoc(), describeExpr(E) + " as a pointer",
        "use a local array, an array parameter, &local or &a[k], plus an "
        "integer offset");
  return false;
}

int Lowerer::rowSize(QualType T, const Expr *At) {
  if (auto Flat = flatArray(Ctx, T))
    return B.constI(Type::I32, (int64_t)Flat->second);
  const ArrayType *AT = Ctx.getAsArrayType(T);
  const auto *VAT = dyn_cast_or_null<VariableArrayType>(AT);
  const Expr *Size = VAT ? VAT->getSizeExpr() : nullptr;
  if (!Size) {
    error(At->getBeginLoc(), "a row of type '" + T.getAsString() + "'",
          "declare every dimension of the array");
    return -1;
  }
  // C computes a VLA parameter's dimensions once, on entry: the parameters
  // they name must keep their values.
  const ParmVarDecl *Assigned = nullptr;
  std::string Other;
  std::function<void(const Stmt *)> Check = [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl());
      if (!PV || !PV->getType()->isIntegerType() ||
          declFunctionContext(PV) != Frames.back().FD)
        Other = DRE->getDecl()->getNameAsString();
      else if (modifies(Frames.back().FD->getBody(), PV))
        Assigned = PV;
    }
    for (const Stmt *C : astChildren(S))
      if (C)
        Check(C);
  };
  Check(Size);
  if (Assigned) {
    error(At->getBeginLoc(),
          "assigning '" + Assigned->getNameAsString() +
              "', the dimension of a variable-length array parameter,",
          "C computes the dimension once, on entry: copy '" +
              Assigned->getNameAsString() + "' into a local and change that");
    return -1;
  }
  if (!Other.empty()) { // (anything with side effects names something)
    error(At->getBeginLoc(),
          "a variable-length array parameter's dimension '" + Other +
              "', not an integer parameter,",
          "declare the dimensions of array parameters with integer "
          "parameters and constants");
    return -1;
  }
  int N = expr(Size);
  if (N < 0)
    return -1;
  N = B.cast(Type::I32, N);
  if (!Ctx.getAsArrayType(AT->getElementType()))
    return N;
  int Inner = rowSize(AT->getElementType(), At);
  return Inner < 0 ? -1 : B.bin(Op::Mul, N, Inner);
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
    if (scalarBase(P.Base))
      return scalarArith(UO->getBeginLoc(), P);
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
      // array (LowerRecords.cpp). Of a written one (ERFA's `eraPn(p,
      // &astrom->em, astrom->eh)`), a pointer to that one element, as to a
      // local scalar: an access past it would be a store into another
      // member's memory that its array does not see (PtrBase::One).
      Out.Base.Arg = L.Arg;
      Out.Base.One = F.Params[L.Arg].Writable;
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

/// `c ? p : q` is a select of the offsets (and table positions): both arms
/// are computed in every lane, so they may have no side effects and call
/// nothing but math (a nested `fabs(x) < 1 ? A : B`). The condition runs
/// once, before them, as in C: any call is fine there.
bool Lowerer::ptrConditional(const ConditionalOperator *CO, PtrVal &Out) {
  // `s ? s : &own` where s's call passed NULL: only the chosen arm.
  if (std::optional<bool> V = nullTest(CO->getCond()))
    return ptrValue(*V ? CO->getTrueExpr() : CO->getFalseExpr(), Out);
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
          tablesFix(T.Base, E.Base));
    return false;
  }
  Out.Hidden = T.Hidden; // (one base, or tables of one type: one type)
  if (Out.Base.Multi >= 0)
    Out.Id = B.select(C, IdT, IdE);
  Out.Off = B.select(C, T.Off < 0 ? Zero : T.Off, E.Off < 0 ? Zero : E.Off);
  return true;
}

} // namespace lowering
} // namespace batchdiff
