//===- LowerRecords.cpp - arrays of records as parameters -----------------===//
//
// A parameter `const vec3 *p`, `const vec3 p[N]`, `const vec3 p[n]` or an
// out-parameter `vec3 *out` is an array of records per example (docs/abi.md
// "Structs"). Each leaf member m of the record type becomes an array
// parameter of its own over the same memory: element k * Per of it is
// member m of record k, where Per = sizeof(record) / sizeof(m) (every
// member of a supported struct is naturally aligned, so this is exact).
// `p[k].m`, `p->m`, `(*p).m` are then plain indexed accesses of that array,
// read or written, in loops or not, and the batcher and the AD see arrays
// of scalars only. A record used as a value (`vec3 a = p[k]`, `*out = s`,
// a helper's struct argument) is copied member by member; a pointer into
// the records passed to a helper (`h(&p[k])`, `h(out)`) stays a pointer.
// A local array of structs (`struct pt p[4]`) is lowered the same way, with
// a local array per leaf member in place of the parameters.
//
//===----------------------------------------------------------------------===//
#include "lower/ArrayParams.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"

#include <functional>

namespace batchdiff {
namespace lowering {

QualType memberType(QualType T, llvm::StringRef Path) {
  if (Path.empty())
    return T;
  Path = Path.drop_front(); // '.'
  llvm::StringRef Name = Path.take_until([](char C) { return C == '.'; });
  llvm::StringRef Rest = Path.drop_front(Name.size());
  const auto *RT = T.getCanonicalType()->getAs<RecordType>();
  if (!RT)
    return QualType();
  for (const FieldDecl *FD : RT->getDecl()->fields()) {
    if (FD->getName() == Name)
      return memberType(FD->getType(), Rest);
    if (FD->getName().empty())
      if (QualType Q = memberType(FD->getType(), ("." + Path).str());
          !Q.isNull())
        return Q;
  }
  return QualType();
}

bool Lowerer::recordArrayParam(unsigned I, const ParmVarDecl *P) {
  std::string N = P->getNameAsString();
  if (N.empty())
    N = "p" + std::to_string(I);
  QualType PT = P->getType();
  QualType E = PT->isArrayType() ? Ctx.getAsArrayType(PT)->getElementType()
                                 : PT->getPointeeType();
  ir::Param H;
  H.Name = N;
  H.Kind = ir::ParamKind::Record;
  H.Ty = Type::Void;
  H.IsArray = true;
  H.CType = E.getUnqualifiedType().getAsString();
  H.Uniform = isUniform(P);
  H.NoDiff = isNoDiff(P);
  H.Writable = !E.isConstQualified();
  F.Params.push_back(H);
  std::vector<Leaf> L;
  if (E.isVolatileQualified()) {
    error(P->getLocation(), "a pointer to volatile records",
          "remove 'volatile'");
    return false;
  }
  if (!structLayout(E, "", L, P->getLocation(), "parameter '" + N + "'") ||
      !noUnions(L, P->getLocation(), WantGrad && !isNoDiff(P)))
    return false;
  if (L.empty()) {
    error(P->getLocation(), "struct parameter '" + N + "' without members",
          "remove the parameter");
    return false;
  }
  if (isPackedOffsets(P) && isPackedPointers(P)) {
    report(Diags, DiagnosticsEngine::Error, P->getLocation(),
           "array of records '%0' is marked both BD_PACKED and BD_POINTERS; "
           "pick one layout")
        << N;
    Failed = Reported = true;
    return false;
  }
  if ((isPackedOffsets(P) || isPackedPointers(P)) && H.Uniform) {
    report(Diags, DiagnosticsEngine::Error, P->getLocation(),
           "BD_UNIFORM array of records '%0' cannot be %1: one array for the "
           "whole batch has no per-example layout; drop one of the two")
        << N << (isPackedOffsets(P) ? "BD_PACKED" : "BD_POINTERS");
    Failed = Reported = true;
    return false;
  }
  F.Params.back().Lay = isPackedOffsets(P)    ? ir::Layout::Offsets
                        : isPackedPointers(P) ? ir::Layout::Pointers
                                              : ir::Layout::Strided;
  if (H.Uniform && H.Writable) {
    report(Diags, DiagnosticsEngine::Error, P->getLocation(),
           "BD_UNIFORM output array '%0': every example would write the same "
           "array; make it varying (one array per example) or const")
        << N;
    Failed = Reported = true;
    return false;
  }
  ir::Param &R = F.Params.back();
  const Expr *Whole = nullptr;
  if (!recordArrayExtent(Top, I, Ctx, Diags, R, &Whole)) {
    Failed = Reported = true;
    return false;
  }
  if (Whole)
    WholeUse[(int)I] = Whole;
  RecArray RA;
  int64_t Size = (int64_t)Ctx.getTypeSizeInChars(E).getQuantity();
  for (const Leaf &Lf : L) {
    int64_t Elem = (int64_t)ir::bitWidth(Lf.Ty) / 8;
    QualType MT = memberType(E, Lf.Path);
    if (Lf.Ty == Type::Bool || Elem == 0 || Size % Elem != 0 || MT.isNull() ||
        !nativeLayout(Ctx, Ctx.getBaseElementType(MT), Lf.Ty)) {
      error(P->getLocation(),
            "the member '" + Lf.Path.substr(1) + "' of type '" + Lf.CType +
                "' in the array of records '" + N + "'",
            "use int, float or double members (narrow integer and _Bool "
            "members are not supported in arrays of records yet)");
      return false;
    }
    RA.Per.push_back(Size / Elem);
  }
  RA.Leaves = std::move(L);
  RecArrays[(int)I] = std::move(RA);
  return true;
}

void Lowerer::bindRecordArrays(Frame &Fr) {
  for (auto &[I, RA] : RecArrays) {
    const ir::Param H = F.Params[I];
    for (size_t K = 0; K < RA.Leaves.size(); ++K) {
      const Leaf &Lf = RA.Leaves[K];
      ir::Param LP;
      LP.Name = H.Name + "_" + Lf.Name;
      LP.Ty = Lf.Ty;
      LP.CType = Lf.CType;
      LP.IsArray = true;
      LP.Writable = H.Writable;
      LP.Uniform = H.Uniform;
      LP.NoDiff = H.NoDiff || !ir::isFloat(Lf.Ty);
      LP.Record = I;
      LP.Member = Lf.Path;
      LP.Lay = H.Lay;
      LP.StaticLen = H.StaticLen * (int)RA.Per[K];
      LP.Declared = H.Declared;
      LP.Per = (int)RA.Per[K];
      LP.DimParam = H.DimParam;
      LP.DimHow = H.DimHow;
      F.Params.push_back(LP);
      RA.LeafParams.push_back((int)F.Params.size() - 1);
    }
    RecRef R;
    R.Param = I;
    R.Count = (unsigned)RA.Leaves.size();
    Fr.RecPtrs[Top->getParamDecl(I)] = R;
  }
}

/// The variable a record-array expression is rooted at: `p` in `p[i].x`,
/// `(p + 1)->y`, `&p[2]`, `*out`.
static const VarDecl *recordRoot(const Expr *E) {
  while (true) {
    E = E->IgnoreParenCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO &&
             (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf ||
              UO->isIncrementDecrementOp()))
      E = UO->getSubExpr();
    else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && BO->isAdditiveOp())
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
    else if (BO && BO->isAssignmentOp() && BO->getType()->isPointerType())
      E = BO->getLHS(); // `p = q`, `p += k` (walks)
    else if (const auto *CO = dyn_cast<ConditionalOperator>(E);
             CO && CO->getType()->isPointerType())
      E = CO->getTrueExpr(); // (recordChoice checks the other)
    else
      break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool globalRecordVar(const VarDecl *VD, const ASTContext &Ctx) {
  return VD && VD->hasGlobalStorage() && !VD->isStaticLocal() &&
         Ctx.getBaseElementType(VD->getType())->isRecordType();
}

/// An array of structs as a member (`t.v`).
static bool memberRecordsExpr(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E);
  const auto *AT = ME ? ME->getType()->getAsArrayTypeUnsafe() : nullptr;
  return AT && AT->getElementType()->isRecordType();
}

bool Lowerer::inRecordArray(const Expr *E) {
  const VarDecl *VD = recordRoot(E);
  if (VD && (Frames.back().RecPtrs.count(VD) || globalRecordVar(VD, Ctx)))
    return true;
  // Through an array of structs that is a member of a struct local.
  while (true) {
    E = E->IgnoreParenCasts();
    if (memberRecordsExpr(E))
      return true;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase()->getType()->isPointerType() ? AS->getBase()
                                                    : AS->getIdx();
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO &&
             (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
      E = UO->getSubExpr();
    else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && BO->isAdditiveOp())
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
    else
      return false;
  }
}

bool Lowerer::memberRecords(const MemberExpr *ME, RecRef &Out) {
  std::vector<int> Vars;
  if (!memberLeaves(ME, Vars))
    return false;
  auto [It, New] = MemberRecords.insert({Vars, NextLocalRecords});
  if (New) {
    QualType ElT = ME->getType()->getAsArrayTypeUnsafe()->getElementType();
    RecArray RA;
    if (!structLayout(ElT, "el_", RA.Leaves, ME->getBeginLoc(), "an element",
                      "", true)) {
      MemberRecords.erase(It);
      return false;
    }
    RA.LeafVars = Vars;
    RA.Per.assign(Vars.size(), 1);
    RecArrays[NextLocalRecords--] = std::move(RA);
  }
  Out = RecRef();
  Out.Param = It->second;
  Out.Count = (unsigned)Vars.size();
  return true;
}

int Lowerer::recordIndex(const Expr *Base, const Expr *Idx) {
  int T = expr(Idx);
  if (T < 0)
    return -1;
  T = B.cast(Type::I32, T);
  // A row of a two-dimensional array of records: its records.
  QualType PT = Base->getType()->getPointeeType();
  int64_t N = 1;
  while (const auto *CAT = Ctx.getAsConstantArrayType(PT)) {
    N *= (int64_t)CAT->getSize().getZExtValue();
    PT = CAT->getElementType();
  }
  return N == 1 ? T : B.mul(T, B.constI(Type::I32, N));
}

/// Moves \p R by \p Idx records (an integer temp, negated if \p Sub).
static bool isZero(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult V;
  return !E->isValueDependent() && E->EvaluateAsInt(V, Ctx) &&
         V.Val.getInt() == 0;
}

bool Lowerer::recordPtr(const Expr *E, RecRef &Out) {
  if (Failed)
    return false;
  E = E->IgnoreParens();
  if (bool Ok; walkStep(E, Out, Ok)) // p++, p = q (LowerRecordWalk.cpp)
    return Ok;
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return recordChoice(CO, Out);
  auto Step = [&](const Expr *Base, const Expr *Idx, bool Sub) {
    if (!recordPtr(Base, Out))
      return false;
    if (isZero(Idx, Ctx))
      return true;
    if (!Out.Whole) {
      error(Idx->getBeginLoc(), "indexing a pointer to a struct member",
            "index the array of records itself ('p[i].m.x')");
      return false;
    }
    int T = recordIndex(Base, Idx);
    if (T < 0)
      return false;
    Out.Idx = addOffset(Out.Idx, T, Sub);
    return true;
  };
  // An array of structs as a member of a global struct (`G.tab`, musl's
  // `__log_data.tab`: LowerMemberTables.cpp).
  if (std::string Path;
      memberRecordsExpr(E) && globalMemberRoot(cast<MemberExpr>(E), Path))
    return globalMemberRecords(cast<MemberExpr>(E), Out);
  // An array of structs as a member of a struct local (`t.v`).
  if (memberRecordsExpr(E) && !inRecordArray(cast<MemberExpr>(E)->getBase()))
    return memberRecords(cast<MemberExpr>(E), Out);
  // A row of a two-dimensional array of records (`ps[i]`): its first record.
  if (E->getType()->isArrayType() && !isa<DeclRefExpr>(E))
    return recordRef(E, Out);
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    CastKind K = CE->getCastKind();
    if (K == CK_NoOp || K == CK_LValueToRValue || K == CK_ArrayToPointerDecay)
      return recordPtr(CE->getSubExpr(), Out);
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Frames.back().RecPtrs.find(VD) : Frames.back().RecPtrs.end();
    if (It != Frames.back().RecPtrs.end()) {
      Out = It->second;
      return walkRead(Out, VD, E->getBeginLoc());
    }
    if (globalRecordVar(VD, Ctx))
      return globalRecords(VD, E->getBeginLoc(), Out);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return recordRef(UO->getSubExpr(), Out);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    bool LPtr = BO->getLHS()->getType()->isPointerType();
    if (BO->getOpcode() == BO_Add)
      return Step(LPtr ? BO->getLHS() : BO->getRHS(),
                  LPtr ? BO->getRHS() : BO->getLHS(), false);
    if (BO->getOpcode() == BO_Sub && LPtr &&
        !BO->getRHS()->getType()->isPointerType())
      return Step(BO->getLHS(), BO->getRHS(), true);
  }
  error(E->getBeginLoc(),
        describeExpr(E) + " as a pointer into an array of records",
        "index the array parameter ('p[i]', 'p + i', '&p[i]') or pass it to "
        "a helper");
  return false;
}

bool Lowerer::recordRef(const Expr *E, RecRef &Out) {
  if (Failed)
    return false;
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E);
      CE &&
      (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_LValueToRValue))
    return recordRef(CE->getSubExpr(), Out);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = AS->getBase(), *Idx = AS->getIdx();
    if (!Base->getType()->isPointerType())
      std::swap(Base, Idx); // `i[p]`
    if (!recordPtr(Base, Out))
      return false;
    if (isZero(Idx, Ctx))
      return true;
    if (!Out.Whole) {
      error(Idx->getBeginLoc(), "indexing a pointer to a struct member",
            "index the array of records itself ('p[i].m.x')");
      return false;
    }
    int T = recordIndex(Base, Idx);
    if (T < 0)
      return false;
    Out.Idx = addOffset(Out.Idx, T);
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return recordPtr(UO->getSubExpr(), Out);
  // A struct (not an array of them) lowered as one record: a global or
  // static local struct.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Frames.back().RecPtrs.find(VD) : Frames.back().RecPtrs.end();
    if (It != Frames.back().RecPtrs.end() && VD->getType()->isRecordType()) {
      Out = It->second;
      return true;
    }
    if (globalRecordVar(VD, Ctx) && VD->getType()->isRecordType())
      return globalRecords(VD, E->getBeginLoc(), Out);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (unionWhole(ME))
      return false;
    if (ME->isArrow() ? !recordPtr(ME->getBase(), Out)
                      : !recordRef(ME->getBase(), Out))
      return false;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD) {
      error(ME->getBeginLoc(), "struct member access", "pass scalars");
      return false;
    }
    unsigned Start = leafStart(FD);
    if (RecArrays[Out.Param].Leaves[Out.Start + Start].Ptr) {
      error(ME->getBeginLoc(),
            "the pointer member '" + FD->getNameAsString() + "' of '" +
                RecArrays[Out.Param].Name + "' through a pointer or as a value",
            "index it where the struct is named ('" +
                RecArrays[Out.Param].Name + "[k]." + FD->getNameAsString() +
                "[i]')");
      return false;
    }
    Out.Start += Start;
    Out.Count = leafCount(FD->getType());
    Out.Whole = false;
    return true;
  }
  error(E->getBeginLoc(), describeExpr(E) + " in an array of records",
        "use 'p[i].m', 'p->m' or '*p'");
  return false;
}

Lowerer::LValue Lowerer::recordLeaf(const RecRef &R, unsigned K) {
  const RecArray &RA = RecArrays[R.Param];
  unsigned Leaf = R.Start + K;
  LValue L;
  if (RA.LeafVars.empty())
    L.Arg = RA.LeafParams[Leaf];
  else
    L.Var = RA.LeafVars[Leaf];
  int Per = B.constI(Type::I32, RA.Per[Leaf]);
  L.Idx = R.Idx < 0           ? B.constI(Type::I32, 0)
          : RA.Per[Leaf] == 1 ? R.Idx
                              : B.mul(R.Idx, Per);
  return L;
}

std::vector<int> Lowerer::loadRecord(const RecRef &R) {
  const RecArray &RA = RecArrays[R.Param];
  std::vector<Leaf> L(RA.Leaves.begin() + R.Start,
                      RA.Leaves.begin() + R.Start + R.Count);
  std::vector<int> Vars = newStruct(L);
  for (unsigned K = 0; K < R.Count; ++K) {
    LValue At = recordLeaf(R, K);
    if (L[K].Len == 0) {
      B.set(Vars[K], load(At));
      continue;
    }
    // (An array member of structs of a global: its elements an element
    // struct apart, leafInner.)
    int64_t Inner = leafInner(R.Param, R.Start + K);
    for (int J = 0; J < L[K].Len; ++J) {
      LValue E = At;
      E.Idx = B.add(At.Idx, B.constI(Type::I32, J * Inner));
      B.storeElem(Vars[K], B.constI(Type::I32, J), load(E));
    }
  }
  return Vars;
}

void Lowerer::storeRecord(const RecRef &R, llvm::ArrayRef<int> Src) {
  // All reads first: Src may be a copy of the same record.
  std::vector<std::vector<int>> Vals;
  for (unsigned K = 0; K < R.Count && K < Src.size(); ++K) {
    std::vector<int> V;
    if (F.Vars[Src[K]].Len == 0)
      V.push_back(B.get(Src[K]));
    for (int J = 0; J < F.Vars[Src[K]].Len; ++J)
      V.push_back(B.loadElem(Src[K], B.constI(Type::I32, J)));
    Vals.push_back(std::move(V));
  }
  for (unsigned K = 0; K < Vals.size(); ++K) {
    LValue At = recordLeaf(R, K);
    if (Vals[K].size() == 1 && F.Vars[Src[K]].Len == 0) {
      store(At, Vals[K][0]);
      continue;
    }
    for (size_t J = 0; J < Vals[K].size(); ++J) {
      LValue E = At;
      E.Idx = B.add(At.Idx, B.constI(Type::I32, (int64_t)J));
      store(E, Vals[K][J]);
    }
  }
}

int Lowerer::structMem(const CallExpr *CE, llvm::StringRef Name,
                       const Expr *Dst, const Expr *Src) {
  bool Set = Name == "memset";
  QualType RT = Dst->getType()->getPointeeType();
  std::vector<Leaf> L;
  if (!structLayout(RT, "mem_", L, CE->getBeginLoc(), "'" + Name.str() + "'",
                    "", true))
    return -1;
  uint64_t Size = (uint64_t)Ctx.getTypeSizeInChars(RT).getQuantity();
  std::optional<uint64_t> N = constBytes(CE->getArg(2));
  Expr::EvalResult Byte;
  if (!N) {
    error(CE->getArg(2)->getBeginLoc(),
          "a '" + Name.str() + "' size known only at run time",
          "use a constant size (sizeof the array), or a loop");
    return -1;
  }
  if (*N % Size || *N / Size > 256) {
    error(CE->getArg(2)->getBeginLoc(),
          "a '" + Name.str() + "' of " + std::to_string(*N) + " bytes",
          "copy or clear whole elements, at most 256 of them (else use a "
          "loop)");
    return -1;
  }
  if (Set && (!Src->EvaluateAsInt(Byte, Ctx) || Byte.Val.getInt() != 0)) {
    error(CE->getArg(1)->getBeginLoc(), "'memset' to a byte other than 0",
          "assign the elements in a loop");
    return -1;
  }
  if (!Set &&
      (!Src->getType()->isPointerType() ||
       !Ctx.hasSameUnqualifiedType(Src->getType()->getPointeeType(), RT))) {
    error(CE->getArg(1)->getBeginLoc(),
          "'" + Name.str() + "' from '" + Src->getType().getAsString() +
              "' into '" + Dst->getType().getAsString() + "'",
          "copy between structs of the same type");
    return -1;
  }
  uint64_t Count = *N / Size;
  // Record K of the structs \p E points at: in an array of records, or a
  // struct local (one).
  auto Rec = [&](const Expr *E, uint64_t K, RecRef &R, std::vector<int> &V) {
    if (inRecordArray(E)) {
      if (!recordPtr(E, R))
        return false;
      if (K)
        R.Idx = addOffset(R.Idx, B.constI(Type::I32, (int64_t)K));
      return true;
    }
    if (Count > 1) {
      error(CE->getBeginLoc(),
            "a '" + Name.str() + "' of several structs at one struct",
            "copy one struct, or use arrays of structs");
      return false;
    }
    return structPtr(E, V);
  };
  // All reads first (memmove).
  std::vector<std::vector<int>> Vals;
  for (uint64_t K = 0; K < Count; ++K) {
    RecRef R;
    std::vector<int> V;
    if (!Set && !Rec(Src, K, R, V))
      return -1;
    std::vector<int> C = newStruct(L);
    if (!Set && V.empty())
      V = loadRecord(R);
    if (!Set)
      copyStruct(C, V);
    Vals.push_back(std::move(C));
  }
  for (uint64_t K = 0; K < Count; ++K) {
    RecRef R;
    std::vector<int> V;
    if (!Rec(Dst, K, R, V))
      return -1;
    if (!V.empty()) {
      copyStruct(V, Vals[K]);
      continue;
    }
    if (readOnlyRecords(R)) {
      recordsWrite(CE->getBeginLoc(), R);
      return -1;
    }
    storeRecord(R, Vals[K]);
  }
  return B.constI(Type::I32, 0);
}

/// A local array of structs is split into one local array per leaf member
/// (record k's member m is element k * Per of m's array), so it is indexed,
/// copied and passed to helpers by the code of arrays of records above.
bool Lowerer::structArrayDecl(const VarDecl *VD, QualType ElT, uint64_t N) {
  std::string Name = VD->getNameAsString();
  std::vector<Leaf> L;
  if (!structLayout(ElT, Name + "_", L, VD->getLocation(),
                    "local array '" + Name + "'"))
    return false;
  RecArray RA;
  for (const Leaf &Lf : L) {
    int64_t Per = std::max(Lf.Len, 1);
    if (N * Per > 65536) {
      error(VD->getLocation(),
            "local array '" + Name + "' of type '" +
                VD->getType().getAsString() + "'",
            "use arrays of at most 65536 elements per member");
      return false;
    }
    int V = F.newVar(Lf.Name, Lf.Ty);
    F.Vars[V].Len = (int)(N * Per);
    B.zeroArr(V);
    RA.LeafVars.push_back(V);
    RA.Per.push_back(Per);
  }
  RA.Leaves = L;
  int Key = NextLocalRecords--;
  RecArrays[Key] = std::move(RA);
  RecRef R;
  R.Param = Key;
  R.Count = (unsigned)L.size();
  Frames.back().RecPtrs[VD] = R;
  const Expr *Init = VD->getInit();
  if (!Init)
    return true;
  // (Clang's semantic form: one initializer per element, braces and
  // designators resolved; the elements after the last are zero.) \p E
  // initialises \p T, records from \p K on (rows: nested lists).
  std::function<bool(const Expr *, QualType, uint64_t)> Put =
      [&](const Expr *E, QualType T, uint64_t K) {
        E = E->IgnoreParens();
        if (isa<ImplicitValueInitExpr>(E))
          return true;
        if (!T->isArrayType()) {
          std::vector<int> Rec = newStruct(L);
          if (!structInit(Rec, ElT, E))
            return false;
          RecRef At = R;
          At.Idx = B.constI(Type::I32, (int64_t)K);
          storeRecord(At, Rec);
          return true;
        }
        const auto *IL = dyn_cast<InitListExpr>(E);
        if (!IL) {
          error(E->getBeginLoc(), "this array initializer",
                "initialise with a brace list of values");
          return false;
        }
        // (A VLA of a folded size is one-dimensional: N records.)
        const auto *CAT = Ctx.getAsConstantArrayType(T);
        QualType Sub = Ctx.getAsArrayType(T)->getElementType();
        uint64_t Len = CAT ? CAT->getSize().getZExtValue() : N, Per = 1;
        for (QualType Q = Sub; const auto *A = Ctx.getAsConstantArrayType(Q);
             Q = A->getElementType())
          Per *= A->getSize().getZExtValue();
        for (unsigned I = 0; I < IL->getNumInits() && I < Len; ++I)
          if (!Put(IL->getInit(I), Sub, K + I * Per))
            return false;
        return true;
      };
  return Put(Init, VD->getType(), 0);
}

} // namespace lowering
} // namespace batchdiff
