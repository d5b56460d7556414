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
  Frames.back().Vars[VD] = vlaStorage(Name, *ET, Raw);
  return true;
}

int Lowerer::vlaStorage(const std::string &Name, Type ET, int Raw) {
  int S = vlaSize(Raw);
  int V = F.newVar(Name, ET);
  F.Vars[V].Len = ir::VlaMaxLen;
  // The largest size so far (an adjoint is zeroed as far as that).
  int C = F.newVar(Name + "_len", Type::I32);
  F.Vars[V].CountVar = C;
  int Old = B.get(C);
  B.set(C, B.select(B.cmp(Op::CmpGT, S, Old), S, Old));
  B.zeroArr(V, S);
  return V;
}

/// `double *w = malloc(n * sizeof *w);` (also calloc, alloca, with casts):
/// scratch memory of the example, as `double w_[n]; double *w = w_;` is
/// (a variable-length array in batchdiff's arena, zeroed: malloc's
/// contents are indeterminate). Never NULL; `free(w)` does nothing
/// (freeCall). Bytes that do not fill an element are not there.
bool Lowerer::allocatedDecl(const VarDecl *VD, const Expr *Init) {
  std::string Name = VD->getNameAsString();
  llvm::StringRef A = allocationCall(Init);
  const auto *CE = cast<CallExpr>(Init->IgnoreParenCasts());
  QualType ElT = VD->getType()->getPointeeType();
  auto ET = irType(ElT);
  if (A == "realloc" || A == "aligned_alloc" || !ET ||
      ElT.isVolatileQualified() ||
      CE->getNumArgs() != (A == "calloc" ? 2u : 1u)) {
    error(Init->getBeginLoc(),
          "memory from '" + A.str() + "'" +
              (ET ? "" : " for '" + ElT.getAsString() + "' elements"),
          "use malloc, calloc or alloca of float, double, integer or _Bool "
          "elements for a local pointer, or a local array, of constant size "
          "or sized per example ('double t[n]'; 1..65536 elements)");
    return false;
  }
  // (Re-pointed, the memory would need its own name.)
  if (modifies(Frames.back().FD->getBody(), VD)) {
    error(VD->getLocation(),
          "re-pointing '" + Name + "', which points to memory from '" +
              A.str() + "',",
          "keep '" + Name +
              "' pointing there and walk the memory with an "
              "index ('" +
              Name + "[i]') or with another pointer set to '" + Name + "'");
    return false;
  }
  int Bytes = expr(CE->getArg(0));
  if (Bytes < 0)
    return false;
  Type BT = F.Temps[Bytes];
  if (A == "calloc") {
    int Size = expr(CE->getArg(1));
    if (Size < 0)
      return false;
    Bytes = B.mul(Bytes, B.cast(BT, Size));
  }
  uint64_t El = Ctx.getTypeSizeInChars(ElT).getQuantity();
  int Raw = El == 1 ? Bytes : B.bin(Op::Div, Bytes, B.constI(BT, (int64_t)El));
  PtrVal P;
  P.Base.Var = vlaStorage(Name + "_mem", *ET, Raw);
  Allocated.insert(VD);
  return bindPointer(VD, &P, Frames.back(), false);
}

bool Lowerer::freeCall(const CallExpr *CE) {
  if (CE->getNumArgs() != 1)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(CE->getArg(0)->IgnoreParenCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && Allocated.count(VD);
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
