//===- LowerVla.cpp - local variable-length arrays ------------------------===//
//
// `double t[n]` with n known only at run time (docs/subset.md): a local
// array whose Len is the largest size local arrays may have
// (ir::VlaMaxLen), the bound its sizes are clamped to, and whose memory
// the batched code takes as its declarations need it (plugin/emit:
// bd_vla_reserve, always in the runtime's arena). Each execution of the
// declaration zeroes its first size elements (ZeroArr with a count), for
// the lanes that run it: batched, the largest size among those lanes; a
// lane that does not run the declaration (masked off, or past the end of
// the batch) counts for nothing, whatever its size would be. A size below
// 0 is 0 (C: undefined below 1); one above VlaMaxLen, larger than any
// local array batchdiff keeps, is VlaMaxLen + 1, which the batched code
// reports through the runtime's fail hook (bd_vla_reserve). Indices are
// clamped into the room taken, as for every local array, so no lane ever
// touches memory outside it. `sizeof t` is the size the declaration computed
// (unclamped, as C's) times the element's.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

namespace batchdiff {
namespace lowering {

/// The size of a variable-length array, \p Raw, clamped to 0..VlaMaxLen + 1
/// (the error) in its own type (a long or unsigned size past the range of int
/// stays out of it), as an I32 temp.
int Lowerer::vlaSize(int Raw) {
  int S = Raw;
  Type ST = F.Temps[S];
  if (!ir::isInt(ST)) {
    S = B.cast(Type::I32, S);
    ST = Type::I32;
  }
  if (ir::isSigned(ST)) {
    int Zero = B.constI(ST, 0);
    S = B.select(B.cmp(Op::CmpLT, S, Zero), Zero, S);
  }
  int Max = B.constI(ST, ir::VlaMaxLen + 1);
  S = B.select(B.cmp(Op::CmpGT, S, Max), Max, S);
  return ST == Type::I32 ? S : B.cast(Type::I32, S);
}

bool Lowerer::vlaDecl(const VarDecl *VD, const VariableArrayType *VAT) {
  QualType ElT = VAT->getElementType();
  auto ET = irType(ElT);
  std::string Name = VD->getNameAsString();
  if (ElT->isArrayType() || !ET || !VAT->getSizeExpr()) {
    error(VD->getLocation(),
          "local variable-length array '" + Name + "' of type '" +
              VD->getType().getAsString() + "'",
          ElT->isArrayType()
              ? "use one dimension and index it by hand ('double a[r * c]', "
                "'a[i * c + j]')"
              : "use an array of float, double, integer or _Bool elements");
    return true;
  }
  if (const Expr *Init = VD->getInit()) {
    error(Init->getBeginLoc(), "an initializer of a variable-length array",
          "assign its elements in a loop");
    return true;
  }
  int Raw = expr(VAT->getSizeExpr());
  if (Raw < 0)
    return true;
  VlaSizes[VD] = Raw;
  int S = vlaSize(Raw);
  int V = F.newVar(Name, *ET);
  F.Vars[V].Len = ir::VlaMaxLen;
  // The largest size so far (an adjoint is zeroed as far as that).
  int C = F.newVar(Name + "_len", Type::I32);
  F.Vars[V].CountVar = C;
  int Old = B.get(C);
  B.set(C, B.select(B.cmp(Op::CmpGT, S, Old), S, Old));
  Frames.back().Vars[VD] = V;
  B.zeroArr(V, S);
  return true;
}

int Lowerer::vlaSizeof(const UnaryExprOrTypeTraitExpr *UE) {
  if (UE->getKind() != UETT_SizeOf || UE->isArgumentType())
    return -2;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(UE->getArgumentExpr()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *VAT = VD ? Ctx.getAsVariableArrayType(VD->getType()) : nullptr;
  auto It = VD ? VlaSizes.find(VD) : VlaSizes.end();
  auto RT = irType(UE->getType());
  if (!VAT || It == VlaSizes.end() || !RT)
    return -2;
  const Expr *SE = VAT->getSizeExpr();
  int N = convert(It->second, SE->getType(), UE->getType());
  if (N < 0)
    return -1;
  uint64_t El = Ctx.getTypeSizeInChars(VAT->getElementType()).getQuantity();
  return B.mul(N, B.constI(*RT, (int64_t)El));
}

} // namespace lowering
} // namespace batchdiff
