//===- LowerStruct.cpp - structs, scalarized into their members ----------===//
//
// A struct local, a helper's struct parameter or return value is lowered as
// one variable per leaf member (scalars, and one-dimensional arrays of
// scalars as local arrays), in declaration order, nested structs
// flattened. A struct value is that list of variables; assignment copies
// them; `s.x` is one of them; a pointer to a struct (`&s`, a helper's
// `vec3 *out`) is another name for the same list. Nothing of a struct is
// left for the later passes, which see scalars and arrays only.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"

namespace batchdiff {
namespace lowering {

unsigned Lowerer::leafCount(QualType T) const {
  T = T.getCanonicalType();
  // An array of structs as a member: a leaf per member of its struct.
  if (const auto *CAT = Ctx.getAsConstantArrayType(T);
      CAT && CAT->getElementType()->isRecordType())
    return leafCount(CAT->getElementType());
  if (const auto *RT = T->getAs<RecordType>()) {
    if (RT->isUnionType())
      return 1; // its storage (LowerUnion.cpp)
    unsigned N = 0;
    for (const FieldDecl *FD : RT->getDecl()->fields())
      N += leafCount(FD->getType());
    return N;
  }
  return 1;
}

bool Lowerer::structLayout(QualType T, const std::string &Prefix,
                           std::vector<Leaf> &Out, SourceLocation At,
                           const std::string &Whose,
                           const std::string &PathPrefix, bool Local) {
  QualType CT = T.getCanonicalType();
  const auto *RT = CT->getAs<RecordType>();
  std::string TN = T.getUnqualifiedType().getAsString();
  if (!RT || !RT->getDecl()->getDefinition()) {
    error(At, Whose + " of type '" + TN + "'",
          "use a struct of float, double, integer or _Bool members");
    return false;
  }
  if (RT->getDecl()->isUnion()) // one leaf: its bits (LowerUnion.cpp)
    return unionLayout(T, RT, Prefix, Out, At, Whose, PathPrefix);
  for (const FieldDecl *FD : RT->getDecl()->fields())
    if (!memberLayout(FD, TN, Prefix, Out, At, PathPrefix, Local))
      return false;
  return true;
}

/// Union \p T as one leaf, its bits: in the ABI the integer member of its
/// size, if it has one.
bool Lowerer::unionLayout(QualType T, const RecordType *RT,
                          const std::string &Prefix, std::vector<Leaf> &Out,
                          SourceLocation At, const std::string &Whose,
                          const std::string &PathPrefix) {
  std::string TN = T.getUnqualifiedType().getAsString();
  auto ST = unionStorage(T, At, Whose);
  if (!ST)
    return false;
  std::string Name = Prefix;
  if (!Name.empty() && Name.back() == '_')
    Name.pop_back();
  Leaf Lf{*ST,
          0,
          Name.empty() ? "u" : Name,
          PathPrefix,
          *ST == Type::U64 ? "uint64_t" : "uint32_t",
          0};
  Lf.Union = Whose + " of type '" + TN + "'";
  // The ABI passes it as an integer member of its size, if it has one
  // (`uint64_t u`): the wrapper reads and writes that member's bits.
  Lf.NoAbi = true;
  for (const FieldDecl *FD : RT->getDecl()->fields()) {
    auto IT = irType(FD->getType());
    if (FD->isBitField() || FD->getName().empty() || !IT || !ir::isInt(*IT) ||
        ir::bitWidth(*IT) != ir::bitWidth(*ST) ||
        Ctx.getTypeSize(FD->getType()) != ir::bitWidth(*ST))
      continue;
    Lf.Ty = *IT;
    Lf.Path = PathPrefix + "." + FD->getNameAsString();
    Lf.CType =
        FD->getType().getCanonicalType().getUnqualifiedType().getAsString();
    Lf.NoAbi = false;
    break;
  }
  Out.push_back(Lf);
  return true;
}

/// The leaves of member \p FD of struct type \p TN.
bool Lowerer::memberLayout(const FieldDecl *FD, const std::string &TN,
                           const std::string &Prefix, std::vector<Leaf> &Out,
                           SourceLocation At, const std::string &PathPrefix,
                           bool Local) {
  QualType FT = FD->getType();
  std::string M = FD->getNameAsString();
  std::string What = "member '" + M + "' of '" + TN + "'";
  std::string Name = Prefix + (M.empty() ? "" : M + "_");
  // (Members of an anonymous struct are named directly in C.)
  std::string Path = M.empty() ? PathPrefix : PathPrefix + "." + M;
  std::string CType = FT.getCanonicalType().getUnqualifiedType().getAsString();
  if (FD->isBitField()) {
    error(At, "bit-field " + What, "use a plain integer member");
    return false;
  }
  if (FT.isVolatileQualified()) {
    error(At, "volatile " + What, "remove 'volatile'");
    return false;
  }
  if (FT->isRecordType())
    return structLayout(FT, Name, Out, At, What, Path, Local);
  // An array of structs in a scalarized struct: one array per member of
  // the element struct, of scalars (element J of "v_x" is v[J].x).
  if (const auto *CAT = Ctx.getAsConstantArrayType(FT);
      (Local || MemberTableLeaves) && CAT &&
      CAT->getElementType()->isRecordType())
    return structArrayMember(CAT, FT, Name, Path, What, Out, At);
  if (FT->isIncompleteArrayType()) {
    error(At, "flexible array " + What,
          "give the array a constant size, or pass the data as an array "
          "parameter");
    return false;
  }
  if (const auto *CAT = Ctx.getAsConstantArrayType(FT))
    return arrayMember(CAT, FT, Name, Path, What, Out, At);
  // A const global's pointer member holds a constant that ptrConstMember
  // reads from its initializer; as a leaf it only keeps the positions.
  if (FT->isPointerType() && PointerLeaves) {
    Out.push_back(
        {Type::I64, 0, Name.substr(0, Name.size() - 1), Path, CType, 0});
    Out.back().Ptr = true;
    return true;
  }
  if (FT->isPointerType()) {
    error(At, "pointer " + What,
          "keep the data in an array member, or pass it as an array "
          "parameter");
    return false;
  }
  auto IT = irType(FT);
  if (!IT) {
    error(At, What + " of type '" + FT.getAsString() + "'",
          "use float, double, integer or _Bool members");
    return false;
  }
  Name.pop_back();
  Out.push_back({*IT, 0, Name, Path, CType, 0});
  return true;
}

/// An array member \p CAT (of type \p FT) of structs: one array leaf per
/// leaf of the element struct.
bool Lowerer::structArrayMember(const ConstantArrayType *CAT, QualType FT,
                                const std::string &Name,
                                const std::string &Path,
                                const std::string &What, std::vector<Leaf> &Out,
                                SourceLocation At) {
  std::vector<Leaf> Sub;
  uint64_t N = CAT->getSize().getZExtValue();
  if (!structLayout(CAT->getElementType(), Name, Sub, At, What, "", true))
    return false;
  for (Leaf &S : Sub) {
    if (S.Len || !S.Union.empty() || S.Ptr || N == 0 || N > 65536) {
      error(At, "array " + What + " of type '" + FT.getAsString() + "'",
            "use an array of 1..65536 structs of scalar members");
      return false;
    }
    S.Len = (int)N;
    S.Tail = S.Path;
    S.Path = Path;
    Out.push_back(S);
  }
  return true;
}

/// An array member \p CAT (of type \p FT) of scalars, one- or
/// two-dimensional: one array leaf, flat and row-major (as 2-D locals).
bool Lowerer::arrayMember(const ConstantArrayType *CAT, QualType FT,
                          std::string Name, const std::string &Path,
                          const std::string &What, std::vector<Leaf> &Out,
                          SourceLocation At) {
  const auto *Row = Ctx.getAsConstantArrayType(CAT->getElementType());
  uint64_t Cols = Row ? Row->getSize().getZExtValue() : 0;
  uint64_t N = CAT->getSize().getZExtValue() * (Row ? Cols : 1);
  if (Row)
    CAT = Row;
  auto ET = irType(CAT->getElementType());
  if (!ET || N == 0 || N > 65536) {
    error(At, "array " + What + " of type '" + FT.getAsString() + "'",
          CAT->getElementType()->isRecordType()
              ? "use one array per member of the element struct"
              : "use a one- or two-dimensional array of 1..65536 scalars");
    return false;
  }
  Name.pop_back();
  // (CType: the element's type, which each element of the ABI has.)
  Out.push_back({*ET, (int)N, Name, Path,
                 CAT->getElementType()
                     .getCanonicalType()
                     .getUnqualifiedType()
                     .getAsString(),
                 (int)Cols});
  return true;
}

std::vector<int> Lowerer::newStruct(const std::vector<Leaf> &L) {
  std::vector<int> Vars;
  for (const Leaf &Lf : L) {
    int V = F.newVar(Lf.Name, Lf.Ty);
    F.Vars[V].Len = Lf.Len;
    if (Lf.Len > 0)
      B.zeroArr(V);
    else
      B.set(V, zeroOf(Lf.Ty));
    Vars.push_back(V);
  }
  return Vars;
}

void Lowerer::copyStruct(llvm::ArrayRef<int> Dst, llvm::ArrayRef<int> Src) {
  // All reads first: Dst and Src may be the same struct.
  std::vector<std::vector<int>> Vals;
  for (int S : Src) {
    std::vector<int> V;
    if (F.Vars[S].Len == 0)
      V.push_back(B.get(S));
    for (int I = 0; I < F.Vars[S].Len; ++I)
      V.push_back(B.loadElem(S, B.constI(Type::I32, I)));
    Vals.push_back(std::move(V));
  }
  for (size_t K = 0; K < Dst.size() && K < Vals.size(); ++K) {
    if (F.Vars[Dst[K]].Len == 0) {
      B.set(Dst[K], Vals[K][0]);
      continue;
    }
    for (size_t I = 0; I < Vals[K].size(); ++I)
      B.storeElem(Dst[K], B.constI(Type::I32, (int64_t)I), Vals[K][I]);
  }
}

bool Lowerer::structDecl(const VarDecl *VD) {
  std::vector<Leaf> L;
  std::string N = VD->getNameAsString();
  if (!structLayout(VD->getType(), N + "_", L, VD->getLocation(),
                    "local variable '" + N + "'", "", true))
    return false;
  std::vector<int> Vars = newStruct(L);
  Frames.back().Structs[VD] = Vars;
  if (const Expr *Init = VD->getInit())
    return structInit(Vars, VD->getType(), Init);
  return true;
}

/// The call that passes `&VD` in \p S, if one does (ERFA's eraDat: `NDAT =
/// eraDatini(_changes, _NDAT, &changes);` sets its table pointer).
static const CallExpr *setterCall(const Stmt *S, const VarDecl *VD) {
  if (const auto *CE = dyn_cast<CallExpr>(S))
    for (const Expr *A : CE->arguments())
      if (const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
          UO && UO->getOpcode() == UO_AddrOf)
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
            DRE && DRE->getDecl() == VD)
          return CE;
  for (const Stmt *C : astChildren(S))
    if (const CallExpr *CE = C ? setterCall(C, VD) : nullptr)
      return CE;
  return nullptr;
}

bool Lowerer::structPtrDecl(const VarDecl *VD) {
  const CallExpr *Setter =
      VD->getInit() ? nullptr : setterCall(Frames.back().FD->getBody(), VD);
  const FunctionDecl *Callee = Setter ? Setter->getDirectCallee() : nullptr;
  if (Callee) {
    QualType RT = VD->getType()->getPointeeType().getUnqualifiedType();
    error(VD->getLocation(),
          "pointer to a struct '" + VD->getNameAsString() +
              "' set through its address by '" + Callee->getNameAsString() +
              "'",
          "a pointer is followed only from where it is declared: point it "
          "there at a table the function can see ('const " +
              RT.getAsString() + " *" + VD->getNameAsString() +
              " = table;', a static local or file-scope table of structs), "
              "or pass the table as a BD_UNIFORM array parameter");
    return false;
  }
  // `struct s *best = NULL;` then `best = &r[i];` on some paths: a struct
  // pointer is bound where it is declared, once (no flag, no re-pointing).
  if (VD->getInit() &&
      (isNullPointer(VD->getInit(), Ctx) || nullArm(VD->getInit(), Ctx))) {
    std::string N = VD->getNameAsString();
    error(VD->getLocation(), "a pointer to a struct, '" + N + "', set to NULL",
          "keep an index of the struct instead ('int k = -1;', then 'if (k "
          ">= 0) ... r[k]'), or point it at a struct where it is declared "
          "and keep whether it is set in an int");
    return false;
  }
  // Re-pointed into an array of records (a walk): its record index is a
  // variable (LowerRecordWalk.cpp); its first assignment points one
  // declared without an initializer.
  bool Walk = modifies(Frames.back().FD->getBody(), VD);
  if (!VD->getInit() && Walk)
    return walkRecords(VD, nullptr, Frames.back());
  if (!VD->getInit()) {
    error(VD->getLocation(),
          "pointer to a struct '" + VD->getNameAsString() +
              "' without an initializer",
          "initialise it where it is declared ('vec3 *p = &s;')");
    return false;
  }
  if (inRecordArray(VD->getInit())) {
    RecRef R;
    if (!recordPtr(VD->getInit(), R))
      return false;
    if (Walk)
      return walkRecords(VD, &R, Frames.back());
    Frames.back().RecPtrs[VD] = R;
    return true;
  }
  if (Walk) {
    error(VD->getLocation(),
          "re-pointing the struct pointer '" + VD->getNameAsString() + "'",
          "use one pointer per struct");
    return false;
  }
  std::vector<int> Vars;
  if (!structPtr(VD->getInit(), Vars))
    return false;
  Frames.back().Structs[VD] = Vars;
  return true;
}

bool Lowerer::structInit(llvm::ArrayRef<int> Dst, QualType T,
                         const Expr *Init) {
  Init = Init->IgnoreParens();
  if (isa<ImplicitValueInitExpr>(Init))
    return true; // new structs start at zero
  const auto *IL = dyn_cast<InitListExpr>(Init);
  if (!IL) {
    std::vector<int> Src;
    if (!structLeaves(Init, Src))
      return false;
    copyStruct(Dst, Src);
    return true;
  }
  if (IL->getNumInits() == 1 && IL->getInit(0)->getType()->isRecordType() &&
      Ctx.hasSameUnqualifiedType(IL->getInit(0)->getType(), T))
    return structInit(Dst, T, IL->getInit(0)); // `vec3 a = {b};`
  const RecordDecl *RD = T.getCanonicalType()->getAs<RecordType>()->getDecl();
  if (RD->isUnion())
    return unionInit({Dst[0], -1}, T, 0, IL);
  unsigned Pos = 0, I = 0;
  for (const FieldDecl *FD : RD->fields()) {
    QualType FT = FD->getType();
    unsigned N = leafCount(FT);
    const Expr *E = I < IL->getNumInits() ? IL->getInit(I) : nullptr;
    ++I;
    llvm::ArrayRef<int> Sub = Dst.slice(Pos, N);
    Pos += N;
    if (!E || isa<ImplicitValueInitExpr>(E))
      continue;
    if (FT->isRecordType()) {
      if (!structInit(Sub, FT, E))
        return false;
      continue;
    }
    if (FT->isArrayType()) {
      const auto *AL = dyn_cast<InitListExpr>(E->IgnoreParens());
      if (!AL) {
        error(E->getBeginLoc(), "this array initializer",
              "initialise with a brace list of values");
        return false;
      }
      QualType ElT = FT->castAsArrayTypeUnsafe()->getElementType();
      for (unsigned J = 0; J < AL->getNumInits() && (int)J < F.Vars[Sub[0]].Len;
           ++J) {
        const Expr *A = AL->getInit(J);
        if (isa<ImplicitValueInitExpr>(A))
          continue;
        // A struct of an array of structs: element J of each leaf.
        if (ElT->isRecordType()) {
          std::vector<Leaf> EL;
          if (!structLayout(ElT, "el_", EL, A->getBeginLoc(), "an element", "",
                            true))
            return false;
          std::vector<int> Tmp = newStruct(EL);
          if (!structInit(Tmp, ElT, A))
            return false;
          for (size_t K = 0; K < Tmp.size() && K < Sub.size(); ++K)
            B.storeElem(Sub[K], B.constI(Type::I32, J), B.get(Tmp[K]));
          continue;
        }
        // A row of a two-dimensional member: elements J * C + k.
        const auto *RL = dyn_cast<InitListExpr>(A->IgnoreParens());
        const auto *Row = Ctx.getAsConstantArrayType(
            FT->castAsArrayTypeUnsafe()->getElementType());
        if (RL && Row) {
          int64_t C = (int64_t)Row->getSize().getZExtValue();
          for (unsigned K = 0; K < RL->getNumInits() && (int64_t)K < C; ++K) {
            if (isa<ImplicitValueInitExpr>(RL->getInit(K)))
              continue;
            int V = expr(RL->getInit(K));
            if (V < 0)
              return false;
            B.storeElem(Sub[0], B.constI(Type::I32, (int64_t)J * C + K), V);
          }
          continue;
        }
        int V = expr(A);
        if (V < 0)
          return false;
        B.storeElem(Sub[0], B.constI(Type::I32, J), V);
      }
      continue;
    }
    int V = expr(E);
    if (V < 0)
      return false;
    B.set(Sub[0], V);
  }
  return true;
}

unsigned Lowerer::leafStart(const FieldDecl *FD) const {
  unsigned Start = 0;
  for (const FieldDecl *G : FD->getParent()->fields()) {
    if (G == FD)
      break;
    Start += leafCount(G->getType());
  }
  return Start;
}

bool Lowerer::unionWhole(const MemberExpr *ME) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !FD->getParent()->isUnion())
    return false;
  error(ME->getBeginLoc(),
        "using the union member '" + FD->getNameAsString() +
            "' as a whole or through a pointer",
        "read and write its scalar members ('u.parts.msw', 'u.w[1]')");
  return true;
}

bool Lowerer::memberLeaves(const MemberExpr *ME, std::vector<int> &Out) {
  if (unionWhole(ME))
    return false;
  std::vector<int> Base;
  if (ME->isArrow() ? !structPtr(ME->getBase(), Base)
                    : !structLeaves(ME->getBase(), Base))
    return false;
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD) {
    error(ME->getBeginLoc(), "struct member access", "pass scalars");
    return false;
  }
  unsigned Start = leafStart(FD);
  unsigned N = leafCount(FD->getType());
  if (Start + N > Base.size()) { // not a struct lowered here
    error(ME->getBeginLoc(), "struct member access", "pass scalars");
    return false;
  }
  Out.assign(Base.begin() + Start, Base.begin() + Start + N);
  return true;
}

Lowerer::LValue Lowerer::memberLValue(const MemberExpr *ME,
                                      llvm::StringRef Action) {
  if (LValue U; unionMember(ME, U))
    return U;
  if (inRecordArray(ME)) {
    RecRef R;
    if (!recordRef(ME, R))
      return {};
    if (R.Count != 1 || RecArrays[R.Param].Leaves[R.Start].Len > 0) {
      error(ME->getBeginLoc(), "using a struct or array member as a scalar",
            "read its scalar members");
      return {};
    }
    if (Action == "writing" && readOnlyRecords(R)) {
      recordsWrite(ME->getBeginLoc(), R);
      return {};
    }
    return recordLeaf(R, 0);
  }
  std::vector<int> L;
  if (!memberLeaves(ME, L))
    return {};
  if (L.size() != 1 || F.Vars[L[0]].Len > 0) {
    error(ME->getBeginLoc(), "using a struct or array member as a scalar",
          "read its scalar members");
    return {};
  }
  return {L[0], -1};
}

bool Lowerer::structPtr(const Expr *E, std::vector<int> &Out) {
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E);
      CE &&
      (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_LValueToRValue))
    return structPtr(CE->getSubExpr(), Out);
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    return structLeaves(UO->getSubExpr(), Out);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Frames.back().Structs.find(VD) : Frames.back().Structs.end();
    if (It != Frames.back().Structs.end()) {
      Out = It->second;
      return true;
    }
    if (VD && Poisoned.count(VD))
      return fail() >= 0;
  }
  error(E->getBeginLoc(), describeExpr(E) + " as a pointer to a struct",
        "point it at a local struct ('&s') or pass '&s' to the helper");
  return false;
}

bool Lowerer::structLeaves(const Expr *E, std::vector<int> &Out) {
  if (Failed)
    return false;
  E = E->IgnoreParens();
  Where = E;
  if (inRecordArray(E)) { // a record of an array parameter: a copy
    RecRef R;
    if (!recordRef(E, R))
      return false;
    Out = loadRecord(R);
    return true;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_LValueToRValue)
      return structLeaves(CE->getSubExpr(), Out);
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Frames.back().Structs.find(VD) : Frames.back().Structs.end();
    if (It != Frames.back().Structs.end()) {
      Out = It->second;
      return true;
    }
    if (VD && Poisoned.count(VD))
      return fail() >= 0;
    if (VD && VD->hasGlobalStorage()) {
      error(E->getBeginLoc(), "global struct '" + VD->getNameAsString() + "'",
            "pass its values as parameters, or use const scalars or tables");
      return false;
    }
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    return memberLeaves(ME, Out);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return structPtr(UO->getSubExpr(), Out);
  } else if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (call(CE) < 0)
      return false;
    Out = CallStruct;
    return true;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma) {
      expr(BO->getLHS());
      return !Failed && structLeaves(BO->getRHS(), Out);
    }
    if (BO->getOpcode() == BO_Assign && inRecordArray(BO->getLHS())) {
      RecRef R;
      if (!structLeaves(BO->getRHS(), Out) || !recordRef(BO->getLHS(), R))
        return false;
      if (readOnlyRecords(R)) {
        recordsWrite(BO->getBeginLoc(), R);
        return false;
      }
      storeRecord(R, Out);
      return true;
    }
    if (BO->getOpcode() == BO_Assign) {
      std::vector<int> Src;
      if (!structLeaves(BO->getLHS(), Out) || !structLeaves(BO->getRHS(), Src))
        return false;
      copyStruct(Out, Src);
      return true;
    }
  } else if (const auto *CL = dyn_cast<CompoundLiteralExpr>(E)) {
    std::vector<Leaf> L;
    if (!structLayout(CL->getType(), "lit_", L, CL->getBeginLoc(),
                      "a compound literal", "", true))
      return false;
    Out = newStruct(L);
    return structInit(Out, CL->getType(), CL->getInitializer());
  } else if (isa<ConditionalOperator>(E)) {
    error(E->getBeginLoc(), "a '?:' choosing between structs",
          "assign the struct in an if/else");
    return false;
  } else if (isa<ArraySubscriptExpr>(E)) {
    error(E->getBeginLoc(), "an array of structs",
          "use one array per member, or a struct with array members");
    return false;
  }
  error(E->getBeginLoc(), describeExpr(E) + " of struct type",
        "use local structs, '&s', members and helpers taking or returning "
        "structs");
  return false;
}

int Lowerer::denseMembers(QualType T, const std::vector<Leaf> &L) const {
  // Leaf C types are canonical: the spelling fixes the size.
  static const std::pair<const char *, Type> Sized[] = {
      {"float", Type::F32},     {"double", Type::F64},
      {"int", Type::I32},       {"unsigned int", Type::U32},
      {"long", Type::I64},      {"unsigned long", Type::U64},
      {"long long", Type::I64}, {"unsigned long long", Type::U64}};
  if (L.empty())
    return 0;
  int M = 0;
  for (const Leaf &Lf : L) {
    if (Lf.Ty != L[0].Ty || Lf.CType != L[0].CType)
      return 0;
    M += std::max(Lf.Len, 1);
  }
  bool Known = false;
  for (const auto &[Name, Ty] : Sized)
    Known |= L[0].CType == Name && L[0].Ty == Ty;
  uint64_t Elem =
      L[0].Ty == Type::F64 || L[0].Ty == Type::I64 || L[0].Ty == Type::U64 ? 8
                                                                           : 4;
  // (Padding, e.g. from an aligned attribute, makes the size larger.)
  uint64_t Bytes = (uint64_t)Ctx.getTypeSizeInChars(T).getQuantity();
  return Known && M >= 2 && M <= 16 && Bytes == (uint64_t)M * Elem ? M : 0;
}

bool Lowerer::structParam(unsigned I, const ParmVarDecl *P) {
  std::string N = P->getNameAsString();
  if (N.empty())
    N = "p" + std::to_string(I);
  std::vector<Leaf> L;
  if (!structLayout(P->getType(), "", L, P->getLocation(),
                    "parameter '" + N + "'") ||
      !noUnions(L, P->getLocation(), WantGrad && !isNoDiff(P)))
    return false;
  if (L.empty()) {
    error(P->getLocation(), "struct parameter '" + N + "' without members",
          "remove the parameter");
    return false;
  }
  ir::Param H;
  H.Name = N;
  H.Kind = ir::ParamKind::Record;
  H.Ty = Type::Void;
  H.CType = P->getType().getUnqualifiedType().getAsString();
  H.Uniform = isUniform(P);
  H.NoDiff = isNoDiff(P);
  H.Dense = denseMembers(P->getType(), L);
  F.Params.push_back(H);
  RecordParams.push_back({I, L});
  return true;
}

void Lowerer::bindStructParams(Frame &Fr) {
  for (auto &[I, L] : RecordParams) {
    const ir::Param H = F.Params[I];
    std::vector<int> Vars;
    for (const Leaf &Lf : L) {
      // An array member: one scalar member ("v[2]") per element.
      int V = F.newVar(H.Name + "_" + Lf.Name, Lf.Ty);
      F.Vars[V].Len = Lf.Len;
      for (int J = 0; J < std::max(Lf.Len, 1); ++J) {
        std::string Sub = Lf.sub(J);
        ir::Param LP;
        LP.Name =
            H.Name + "_" + Lf.Name + (Lf.Len ? "_" + std::to_string(J) : "");
        LP.Ty = Lf.Ty;
        LP.CType = Lf.CType;
        LP.NativeLayout = false; // read member by member
        LP.Uniform = H.Uniform;
        LP.NoDiff = H.NoDiff || !ir::isFloat(Lf.Ty);
        LP.Record = (int)I;
        LP.Member = Lf.Path + Sub;
        F.Params.push_back(LP);
        int Val = B.param((int)F.Params.size() - 1);
        if (Lf.Len)
          B.storeElem(V, B.constI(Type::I32, J), Val);
        else
          B.set(V, Val);
      }
      Vars.push_back(V);
    }
    Fr.Structs[Top->getParamDecl(I)] = Vars;
  }
}

} // namespace lowering
} // namespace batchdiff
