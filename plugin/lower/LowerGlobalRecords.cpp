//===- LowerGlobalRecords.cpp - global and static structs, read only ------===//
//
// A file-scope struct (`static const struct params P = {...}`) or table of
// structs (Gauss-Legendre nodes `static const struct { double x, w; }
// GL[5]`, piecewise segments `static const seg S[]`, of any number of
// dimensions) is an array of records (LowerRecords.cpp) whose leaf members
// are file-scope tables read in place: leaf m is the table that starts at
// `&S[0].m`, record k's member is its element k * Per (Per = sizeof(seg) /
// sizeof(m)). So `S[k].c0`, `S->lo`, `P.a`, `&S[k]` and `S + k` passed to
// helpers, copies `seg s = S[k]` all work as for a record-array
// parameter, and each read is a uniform load or, at a per-example index, a
// gather (narrow members as the narrow-table gather), like a numeric table.
// A member of a const global with a constant initializer read at constant
// indices is a constant, as a const global scalar is. A static local struct
// or array of structs is split into one local array per leaf member,
// filled in the prologue from its constant initializer. Both are only read:
// a write is an error where it is.
//
//===----------------------------------------------------------------------===//
#include "lower/FixedGlobals.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "diagnostics/Diagnostics.h"

#include <climits>
#include <functional>

namespace batchdiff {
namespace lowering {

/// The records in \p T (an array of structs of any number of dimensions:
/// the product of its extents; a struct: 1), 0 for an array of unknown
/// size; \p Sub0 gets "[0]" per dimension.
static uint64_t recordsIn(const ASTContext &Ctx, QualType T,
                          std::string *Sub0 = nullptr) {
  uint64_t N = 1;
  while (const ArrayType *AT = Ctx.getAsArrayType(T)) {
    const auto *CAT = dyn_cast<ConstantArrayType>(AT);
    N = CAT ? N * CAT->getSize().getZExtValue() : 0;
    if (Sub0)
      *Sub0 += "[0]";
    T = AT->getElementType();
  }
  return N;
}

bool Lowerer::globalRecords(const VarDecl *VD, SourceLocation At, RecRef &Out) {
  VD = VD->getCanonicalDecl();
  if (auto It = GlobalRecords.find(VD); It != GlobalRecords.end()) {
    if (It->second == -1)
      return fail() >= 0; // reported at its first use
    Out = RecRef();
    Out.Param = It->second;
    Out.Count = (unsigned)RecArrays[It->second].Leaves.size();
    return true;
  }
  GlobalRecords[VD] = -1;
  std::string Name = VD->getNameAsString();
  // (The definition knows the extent an earlier `extern` may not.)
  const VarDecl *Def = VD->getDefinition();
  QualType T = (Def ? Def : VD)->getType();
  QualType RT = Ctx.getBaseElementType(T);
  if (T.isVolatileQualified() || RT.isVolatileQualified()) {
    error(At, "access to volatile '" + Name + "'", "remove 'volatile'");
    return false;
  }
  if (!fileScopeName(VD, At))
    return false;
  RecArray RA;
  PointerLeaves = RT.isConstQualified() || keepsInitializer(VD, Ctx);
  // (An array member of structs: a leaf per member of its element struct,
  // LowerMemberTables.cpp.)
  MemberTableLeaves = true;
  bool Laid = structLayout(RT, "", RA.Leaves, At, "global '" + Name + "'");
  PointerLeaves = MemberTableLeaves = false;
  if (!Laid || !noUnions(RA.Leaves, At, false, false, true))
    return false;
  std::string Sub0;
  uint64_t N = recordsIn(Ctx, T, &Sub0);
  std::vector<int64_t> Inner;
  if (!globalLeafParams(VD, Name, Name + Sub0, RT, N, At, RA, Inner))
    return false;
  RA.Name = Name;
  RA.What = T->isArrayType() ? "global table of structs" : "global struct";
  int Key = NextLocalRecords--;
  RecArrays[Key] = std::move(RA);
  RecInner[Key] = std::move(Inner);
  GlobalRecords[VD] = Key;
  Out = RecRef();
  Out.Param = Key;
  Out.Count = (unsigned)RecArrays[Key].Leaves.size();
  return true;
}

/// The constant leaves of record value \p V of type \p T, in the order of
/// structLayout (array members element by element, row-major); false if
/// one is not a number.
static bool recordConstants(const APValue &V, QualType T,
                            std::vector<const APValue *> &Out) {
  const auto *RT = T.getCanonicalType()->getAs<RecordType>();
  if (!RT || !V.isStruct())
    return false;
  std::function<bool(const APValue &, QualType)> Put = [&](const APValue &E,
                                                           QualType ET) {
    if (ET->isRecordType())
      return recordConstants(E, ET, Out);
    if (const auto *AT = ET->getAsArrayTypeUnsafe()) {
      const auto *CAT = dyn_cast<ConstantArrayType>(AT);
      if (!CAT || !E.isArray())
        return false;
      for (unsigned J = 0; J < CAT->getSize().getZExtValue(); ++J)
        if (!Put(J < E.getArrayInitializedElts() ? E.getArrayInitializedElt(J)
                                                 : E.getArrayFiller(),
                 CAT->getElementType()))
          return false;
      return true;
    }
    Out.push_back(&E);
    return true;
  };
  for (const FieldDecl *FD : RT->getDecl()->fields())
    if (!Put(V.getStructField(FD->getFieldIndex()), FD->getType()))
      return false;
  return true;
}

bool Lowerer::staticRecords(const VarDecl *VD) {
  if (auto It = StaticRecords.find(VD); It != StaticRecords.end()) {
    Frames.back().RecPtrs[VD] = It->second;
    return true;
  }
  std::string Name = VD->getNameAsString();
  QualType T = VD->getType();
  QualType RT = Ctx.getBaseElementType(T);
  uint64_t N = recordsIn(Ctx, T);
  if (T.isVolatileQualified() || RT.isVolatileQualified()) {
    error(VD->getLocation(), "a volatile variable", "remove 'volatile'");
    return false;
  }
  std::vector<Leaf> L;
  if (!structLayout(RT, Name + "_", L, VD->getLocation(),
                    "static local '" + Name + "'") ||
      !noUnions(L, VD->getLocation(), false, false, true))
    return false;
  const APValue *Init = VD->getInit() ? VD->evaluateValue() : nullptr;
  if (VD->getInit() && !Init) {
    error(VD->getInit()->getBeginLoc(), "this static initializer",
          "initialise static locals with constants");
    return false;
  }
  RecArray RA;
  for (const Leaf &Lf : L) {
    uint64_t Per = (uint64_t)std::max(Lf.Len, 1);
    if (N == 0 || N * Per > 65536) {
      error(VD->getLocation(),
            "static local '" + Name + "' of type '" + T.getAsString() + "'",
            "use a table of at most 65536 elements per member");
      return false;
    }
    int V = F.newVar(Lf.Name, Lf.Ty);
    F.Vars[V].Len = (int)(N * Per);
    RA.LeafVars.push_back(V);
    RA.Per.push_back((int64_t)Per);
  }
  RA.Leaves = L;
  // Record K's constants, row-major through the dimensions.
  std::vector<uint64_t> Dims;
  for (QualType Q = T; const auto *CAT = Ctx.getAsConstantArrayType(Q);
       Q = CAT->getElementType())
    Dims.push_back(CAT->getSize().getZExtValue());
  ir::Block *Saved = B.block();
  B.setBlock(&Prologue);
  bool Ok = true;
  for (int V : RA.LeafVars)
    B.zeroArr(V);
  for (uint64_t K = 0; Init && K < N && Ok; ++K) {
    const APValue *E = Init;
    uint64_t Rest = N;
    for (size_t D = 0; D < Dims.size() && E; ++D) {
      Rest /= Dims[D];
      unsigned I = (unsigned)(K / Rest % Dims[D]);
      E = !E->isArray()                      ? nullptr
          : I < E->getArrayInitializedElts() ? &E->getArrayInitializedElt(I)
                                             : &E->getArrayFiller();
    }
    std::vector<const APValue *> C;
    Ok = E && recordConstants(*E, RT, C);
    for (size_t J = 0, Lf = 0; Ok && Lf < L.size(); ++Lf)
      for (int64_t M = 0; Ok && M < RA.Per[Lf]; ++M, ++J) {
        int Val = J < C.size() ? constOf(*C[J], L[Lf].Ty) : -1;
        Ok = Val >= 0;
        if (Ok)
          B.storeElem(RA.LeafVars[Lf],
                      B.constI(Type::I32, (int64_t)K * RA.Per[Lf] + M), Val);
      }
  }
  B.setBlock(Saved);
  if (!Ok) {
    error(VD->getLocation(), "this static initializer",
          "initialise static locals with constants");
    return false;
  }
  for (int V : RA.LeafVars)
    ReadOnly.insert(V);
  RA.Name = Name;
  RA.What = "static local";
  int Key = NextLocalRecords--;
  RecArrays[Key] = std::move(RA);
  RecRef R;
  R.Param = Key;
  R.Count = (unsigned)L.size();
  StaticRecords[VD] = R;
  Frames.back().RecPtrs[VD] = R;
  return true;
}

bool Lowerer::readOnlyRecords(const RecRef &R) const {
  auto It = RecArrays.find(R.Param);
  return It != RecArrays.end() && !It->second.What.empty();
}

void Lowerer::recordsWrite(SourceLocation At, const RecRef &R) {
  const RecArray &RA = RecArrays[R.Param];
  if (RA.LeafVars.empty())
    error(At, "writing into " + RA.What + " '" + RA.Name + "'",
          "global structs and tables of structs are only read; copy the "
          "record into a local struct, or pass the data as a parameter");
  else // (as staticWrite)
    error(At, "writing static local '" + RA.Name + "'",
          "a static local keeps its value from one call to the next, which "
          "the examples of a batch cannot share; use an ordinary local, or "
          "only read it");
}

const APValue *Lowerer::constMember(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<ImplicitCastExpr>(E)) {
    CastKind K = CE->getCastKind();
    return K == CK_NoOp || K == CK_LValueToRValue || K == CK_ArrayToPointerDecay
               ? constMember(CE->getSubExpr())
               : nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !globalRecordVar(VD, Ctx) || !VD->getType().isConstant(Ctx) ||
        Ctx.getBaseElementType(VD->getType()).isVolatileQualified())
      return nullptr;
    const VarDecl *Def = VD->getDefinition();
    return Def && Def->getInit() ? Def->evaluateValue() : nullptr;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const APValue *V =
        ME->isArrow() || !FD ? nullptr : constMember(ME->getBase());
    return V && V->isStruct() ? &V->getStructField(FD->getFieldIndex())
                              : nullptr;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const APValue *V = constMember(AS->getBase());
    Expr::EvalResult I;
    if (!V || !V->isArray() || AS->getIdx()->isValueDependent() ||
        !AS->getIdx()->EvaluateAsInt(I, Ctx) || I.Val.getInt().isNegative())
      return nullptr;
    uint64_t K = I.Val.getInt().getZExtValue();
    if (K >= V->getArraySize())
      return nullptr;
    return K < V->getArrayInitializedElts() ? &V->getArrayInitializedElt(K)
                                            : &V->getArrayFiller();
  }
  return nullptr;
}

} // namespace lowering
} // namespace batchdiff
