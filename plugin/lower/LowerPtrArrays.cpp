//===- LowerPtrArrays.cpp - local arrays of row pointers ------------------===//
//
// Gauss-Jordan and LU codes pivot by exchanging row pointers rather than
// rows (docs/row-pointers.md):
//
//   double a[3][3] = {...}, *row[3];
//   for (i = 0; i < 3; i++) row[i] = a[i];
//   double *tmp = row[c]; row[c] = row[p]; row[p] = tmp;
//   row[r][k] -= f * row[c][k];
//
// A local array of pointers whose elements all point into one array (a
// local array, or an array parameter) is an I32 array of their offsets in
// that array, per example: `row[i] = a[i]` stores i * 3, `row[c]` is a
// pointer into a at the offset stored at c (a gather where c or the
// offsets differ per example), exchanging pointers exchanges integers.
// Every access through one is an indexed access of the array, which the
// batcher and the AD already know (gradients reach the array's elements
// through each example's own offsets).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/LowerPointer.h"

namespace batchdiff {
namespace lowering {

using pointers::declOf;

Lowerer::PtrArr *Lowerer::ptrArrOf(const Expr *E) {
  const VarDecl *VD = declOf(E);
  auto It = VD ? PtrArrs.find(VD) : PtrArrs.end();
  return It == PtrArrs.end() ? nullptr : &It->second;
}

bool Lowerer::ptrArrayDecl(const VarDecl *VD, uint64_t N) {
  QualType ET = Ctx.getAsConstantArrayType(VD->getType())
                    ->getElementType()
                    ->getPointeeType();
  std::string Name = VD->getNameAsString();
  if (!irType(ET) || ET.isVolatileQualified() || N > 65536) {
    error(VD->getLocation(),
          "local array '" + Name + "' of type '" + VD->getType().getAsString() +
              "'",
          "use an array of 1..65536 pointers to float, double or integer "
          "elements (all into one array), or an array of scalars");
    return true;
  }
  PtrArr PA;
  PA.Name = Name;
  PA.OffVar = F.newVar(Name + "_off", Type::I32);
  F.Vars[PA.OffVar].Len = (int)N;
  B.zeroArr(PA.OffVar);
  PtrArrs[VD] = PA;
  const Expr *Init = VD->getInit();
  if (!Init)
    return true;
  const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreParens());
  if (!IL) {
    error(Init->getBeginLoc(), "this array initializer",
          "initialise with a brace list of pointers ('{a[0], a[1]}')");
    return true;
  }
  for (unsigned I = 0; I < IL->getNumInits() && I < N; ++I) {
    const Expr *E = IL->getInit(I);
    if (isa<ImplicitValueInitExpr>(E))
      continue;
    PtrVal V;
    if (!ptrValue(E, V) ||
        !ptrArrayPut(PtrArrs[VD], E, B.constI(Type::I32, I), V))
      return true;
  }
  return true;
}

bool Lowerer::ptrArrayPut(PtrArr &PA, const Expr *At, int Idx,
                          const PtrVal &V) {
  if (PA.Failed)
    return fail() >= 0;
  if (!V.Base.ok() || V.Base.Multi >= 0 || scalarBase(V.Base)) {
    error(At->getBeginLoc(),
          "pointing an element of '" + PA.Name + "', an array of pointers, " +
              (V.Base.ok() && scalarBase(V.Base)
                   ? "at the scalar '" + baseName(V.Base) + "'"
                   : std::string("at something other than an array")),
          "point its elements into one array: the rows of a local or "
          "parameter array ('row[i] = a[i]'), or elements of one");
    PA.Failed = true;
    return false;
  }
  if (!PA.Set) {
    PA.Base = V.Base;
    PA.Hidden = V.Hidden;
    PA.Set = true;
  } else if (!(PA.Base == V.Base)) {
    error(At->getBeginLoc(),
          "pointing an element of '" + PA.Name + "', an array of pointers " +
              "into '" + baseName(PA.Base) + "', into '" + baseName(V.Base) +
              "'",
          "point all the elements of an array of pointers into one array "
          "(the rows of one matrix)");
    PA.Failed = true;
    return false;
  }
  B.storeElem(PA.OffVar, Idx, V.Off < 0 ? B.constI(Type::I32, 0) : V.Off);
  return true;
}

bool Lowerer::ptrArrayElem(const ArraySubscriptExpr *AS, PtrArr &PA,
                           PtrVal &Out) {
  if (PA.Failed)
    return fail() >= 0;
  if (!PA.Set) {
    error(AS->getBeginLoc(),
          "reading an element of '" + PA.Name +
              "', an array of pointers, before any is set",
          "set its elements first ('row[i] = a[i]')");
    PA.Failed = true;
    return false;
  }
  int I = expr(AS->getIdx());
  if (I < 0)
    return false;
  I = convert(I, AS->getIdx()->getType(), Ctx.IntTy);
  Out = PtrVal();
  Out.Base = PA.Base;
  Out.Off = B.loadElem(PA.OffVar, I);
  Out.Hidden = PA.Hidden;
  return true;
}

int Lowerer::ptrArrayAssign(const BinaryOperator *BO, PtrVal &Out) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens());
  PtrArr *PA = AS ? ptrArrOf(AS->getBase()) : nullptr;
  if (!PA)
    return -1;
  PtrVal V;
  if (!ptrValue(BO->getRHS(), V))
    return 0;
  int I = expr(AS->getIdx());
  if (I < 0)
    return 0;
  I = convert(I, AS->getIdx()->getType(), Ctx.IntTy);
  // (ptrArrOf again: the right-hand side may have declared nothing, but
  // keep no reference across lowering that may grow the map.)
  if (!ptrArrayPut(*ptrArrOf(AS->getBase()), BO->getRHS(), I, V))
    return 0;
  Out = V;
  return 1;
}

} // namespace lowering
} // namespace batchdiff
