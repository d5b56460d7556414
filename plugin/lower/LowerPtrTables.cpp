//===- LowerPtrTables.cpp - tables of pointers to read-only tables --------===//
//
// ERFA's eraEpv00 keeps its series' coefficients in static const tables,
// one per coordinate, and picks them through tables of pointers:
//
//   static const double *ce0[] = { e0x, e0y, e0z }, *ce1[] = {...};
//   for (i = 0; i < 3; i++) {
//     coeffs = ce0[i]; nterms = ne0[i];
//     for (j = 0; j < nterms; j++) { a = *coeffs++; b = *coeffs++; ... }
//     coeffs = ce1[i]; ...
//
// Such a table of pointers (a static local, or a file-scope one declared
// `const T *const t[]`) holds constants: the address of a read-only table
// plus an element offset per entry, known at compile time. It generates no
// data: `ce0[i]` is a pointer into one of the entries' tables (the pointer
// into one of several read-only tables of LowerChoice.cpp), its table's
// position and its offset chosen from i by selects. i may differ per lane.
// A pointer assigned from several tables of pointers (`coeffs` above)
// points, from its declaration on, into every table they name (seedTables),
// so a read lowered before a later assignment already covers every table
// that assignment can bring.
//
//===----------------------------------------------------------------------===//
#include "lower/FixedGlobals.h"
#include "lower/LowerImpl.h"
#include "lower/LowerPointer.h"

#include "diagnostics/Diagnostics.h"

#include <algorithm>
#include <functional>

namespace batchdiff {
namespace lowering {

using pointers::declOf;

namespace {
/// The largest table of pointers: its entries are chosen by a chain of
/// selects, one per entry.
constexpr uint64_t MaxEntries = 256;
} // namespace

bool Lowerer::isPointerTable(const VarDecl *VD) const {
  if (!VD || !VD->hasGlobalStorage() || Frames.back().Ptrs.count(VD) ||
      Scratch.Local.count(VD))
    return false;
  const auto *CAT = Ctx.getAsConstantArrayType(VD->getType());
  return CAT && CAT->getElementType()->isPointerType();
}

const VarDecl *Lowerer::pointerTableOf(const Expr *E) const {
  const VarDecl *VD = declOf(E);
  return isPointerTable(VD) ? VD : nullptr;
}

bool Lowerer::pointerTableShape(const VarDecl *TD, SourceLocation At,
                                const APValue *&Init) {
  const auto *CAT = Ctx.getAsConstantArrayType(TD->getType());
  QualType PT = CAT->getElementType();
  QualType ET = PT->getPointeeType();
  std::string Name = TD->getNameAsString();
  uint64_t N = CAT->getSize().getZExtValue();
  if (!irType(ET) || ET.isVolatileQualified() || N == 0 || N > MaxEntries) {
    error(At,
          "the table of pointers '" + Name + "' of type '" +
              TD->getType().getAsString() + "'",
          "use a table of 1.." + std::to_string(MaxEntries) +
              " pointers to float, double, integer or _Bool tables");
    return false;
  }
  // Other functions of the program may re-point a file-scope one between
  // calls; a static local only its own function, where it is an error.
  if (!TD->isStaticLocal() && !PT.isConstQualified()) {
    error(At,
          "the file-scope table of pointers '" + Name +
              "', whose entries other code may change,",
          "declare its entries const: '" + ET.getAsString() + " *const " +
              Name + "[]'");
    return false;
  }
  const VarDecl *Def = nullptr;
  const Expr *IE = TD->getAnyInitializer(Def);
  Init = IE && Def ? Def->evaluateValue() : nullptr;
  if (!Init || !Init->isArray()) {
    error(At,
          IE ? "the initializer of the table of pointers '" + Name + "'"
             : "the table of pointers '" + Name + "' without an initializer",
          "initialise it with the names of tables ('{ a, b, c }'), '&t[k]' "
          "or 't + k'");
    return false;
  }
  return true;
}

bool Lowerer::pointerTable(const VarDecl *TD, SourceLocation At,
                           std::vector<PtrBase> &Bases,
                           std::vector<int64_t> &Offs) {
  const APValue *Init = nullptr;
  if (!pointerTableShape(TD, At, Init))
    return false;
  const auto *CAT = Ctx.getAsConstantArrayType(TD->getType());
  QualType ET = CAT->getElementType()->getPointeeType();
  uint64_t N = CAT->getSize().getZExtValue();
  std::string Name = TD->getNameAsString();
  for (uint64_t K = 0; K < N; ++K) {
    const APValue &V = K < Init->getArrayInitializedElts()
                           ? Init->getArrayInitializedElt((unsigned)K)
                           : Init->getArrayFiller();
    PtrBase P;
    int64_t Off;
    if (!pointerEntry(V, ET, At,
                      "entry " + std::to_string(K) +
                          " of the table of pointers '" + Name + "'",
                      P, Off))
      return false;
    Bases.push_back(P);
    Offs.push_back(Off);
  }
  return true;
}

/// One constant pointer \p V (an entry of a table of pointers, a pointer
/// member of a const struct) to \p ET elements: the read-only table it
/// points into and its element offset there.
bool Lowerer::pointerEntry(const APValue &V, QualType ET, SourceLocation At,
                           const std::string &Entry, PtrBase &P, int64_t &Off) {
  int64_t Size = Ctx.getTypeSizeInChars(ET).getQuantity();
  const ValueDecl *D = V.isLValue() && !V.isNullPointer()
                           ? V.getLValueBase().dyn_cast<const ValueDecl *>()
                           : nullptr;
  const auto *TV = dyn_cast_or_null<VarDecl>(D);
  if (!TV) {
    error(At,
          Entry + (V.isLValue() && V.isNullPointer()
                       ? std::string(", a null pointer,")
                       : std::string(", not the address of a table,")),
          "point every entry into a read-only table");
    return false;
  }
  int64_t Bytes = V.getLValueOffset().getQuantity();
  if (!TV->getType()->isArrayType() ||
      !Ctx.hasSameUnqualifiedType(Ctx.getBaseElementType(TV->getType()), ET) ||
      Bytes % Size != 0) {
    error(At,
          Entry + ", which points into '" + TV->getNameAsString() +
              "' of type '" + TV->getType().getAsString() + "',",
          "point every entry into a table of '" +
              ET.getUnqualifiedType().getAsString() + "' elements");
    return false;
  }
  if (TV->isStaticLocal()) {
    if (Scratch.Local.count(TV)) {
      error(At,
            Entry + ", which points into '" + TV->getNameAsString() +
                "', a static local the function writes,",
            "point every entry into a read-only table");
      return false;
    }
    if (!StaticVars.count(TV) && !staticLocal(TV))
      return false;
    P.Var = StaticVars[TV];
  } else {
    P.Arg = globalParam(TV, At);
    if (P.Arg < 0)
      return false;
  }
  if (!tableBase(P)) {
    error(At, Entry + ", which points into '" + TV->getNameAsString() + "',",
          "point every entry into a read-only table");
    return false;
  }
  Off = Bytes / Size;
  return true;
}

bool Lowerer::ptrTableElem(const ArraySubscriptExpr *AS, const VarDecl *TD,
                           PtrVal &Out) {
  std::vector<PtrBase> Bases;
  std::vector<int64_t> Offs;
  if (!pointerTable(TD, AS->getBeginLoc(), Bases, Offs))
    return false;
  int I = expr(AS->getIdx());
  if (I < 0)
    return false;
  pickEntry(B.cast(Type::I32, I), Bases, Offs, Out);
  return true;
}

/// Out = entry I of the constant pointers Bases[k] + Offs[k].
void Lowerer::pickEntry(int I, const std::vector<PtrBase> &Bases,
                        const std::vector<int64_t> &Offs, PtrVal &Out) {
  std::vector<PtrBase> Tabs;
  std::vector<int64_t> Pos;
  for (const PtrBase &P : Bases) {
    auto It = std::find(Tabs.begin(), Tabs.end(), P);
    Pos.push_back(It - Tabs.begin());
    if (It == Tabs.end())
      Tabs.push_back(P);
  }
  // Entry i's position and offset; an index outside the table (undefined
  // in C) takes entry 0's, so no lane reads outside the tables.
  int Id = B.constI(Type::I32, Pos[0]), Off = B.constI(Type::I32, Offs[0]);
  for (size_t K = 1; K < Bases.size(); ++K) {
    if (Pos[K] == Pos[0] && Offs[K] == Offs[0])
      continue;
    int Is = B.cmp(Op::CmpEQ, I, B.constI(Type::I32, (int64_t)K));
    if (Pos[K] != Pos[0])
      Id = B.select(Is, B.constI(Type::I32, Pos[K]), Id);
    if (Offs[K] != Offs[0])
      Off = B.select(Is, B.constI(Type::I32, Offs[K]), Off);
  }
  Out = PtrVal();
  Out.Off = Off;
  if (Tabs.size() == 1) {
    Out.Base = Tabs[0];
    return;
  }
  Out.Base.Multi = choiceOf(Tabs);
  Out.Id = Id;
}

/// A pointer member of a const struct, or of an element of a const array
/// of structs: `P.c`, `P.in.c`, `T[k].c`, `p->c` (p = &T[k], T + k).
/// Its initializer holds constants (the address of a read-only table plus
/// an offset) as a table of pointers' entries do; k may differ per lane.
/// 1: lowered into \p Out; 0: failed (reported); -1: not such a member.
int Lowerer::ptrConstMember(const MemberExpr *ME, PtrVal &Out) {
  std::vector<const FieldDecl *> Path; // innermost member first
  const Expr *E = ME;
  const MemberExpr *Arrow = nullptr;
  while (const auto *M = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!FD || FD->getParent()->isUnion())
      return -1;
    Path.push_back(FD);
    if (M->isArrow()) {
      Arrow = M;
      break;
    }
    E = M->getBase()->IgnoreParens();
  }
  const Expr *Idx = nullptr;
  const VarDecl *VD = nullptr;
  int I = -1; // the record's index, for p->c
  if (Arrow) {
    // A pointer into a global table of structs (LowerGlobalRecords.cpp).
    RecRef R;
    if (!recordPtr(Arrow->getBase(), R))
      return 0;
    for (const auto &[D, K] : GlobalRecords)
      if (K == R.Param && R.Start == 0)
        VD = D;
    if (!VD)
      return -1;
    I = R.Idx >= 0 ? R.Idx : B.constI(Type::I32, 0);
  } else {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      Idx = AS->getIdx();
      E = AS->getBase();
    }
    VD = declOf(E);
    if (!VD || !VD->hasGlobalStorage() || Frames.back().Vars.count(VD) ||
        Scratch.Local.count(VD))
      return -1;
  }
  const VarDecl *Def = VD->getDefinition();
  const auto *CAT = Ctx.getAsConstantArrayType((Def ? Def : VD)->getType());
  bool Table = Idx || (Arrow && CAT);
  if (Table ? !CAT || !CAT->getElementType()->isRecordType()
            : !VD->getType()->isRecordType())
    return -1;
  std::string Name = VD->getNameAsString(),
              Member = "the pointer member '" +
                       ME->getMemberDecl()->getNameAsString() + "' of '" +
                       Name + (Table ? "[k]'" : "'");
  SourceLocation At = ME->getBeginLoc();
  // Other code may re-point a member of a struct that is not const,
  // unless it is static and no code of the file changes it (GSL's
  // `static cheb_series bj0_cs = {...}`: FixedGlobals.h).
  if (!Ctx.getBaseElementType(VD->getType()).isConstQualified() &&
      !keepsInitializer(VD, Ctx, At, Member)) {
    auto [What, Instead] = changedMemberError(Member, VD);
    bool New = !Seen.count({At.getRawEncoding(), What + Instead});
    error(At, What, Instead);
    if (const Expr *C = New ? changeOf(VD, Ctx) : nullptr)
      report(Diags, DiagnosticsEngine::Note, C->getExprLoc(),
             "'%0' may be changed here")
          << Name;
    return 0;
  }
  const Expr *IE = VD->getAnyInitializer(Def);
  const APValue *Init = IE && Def ? Def->evaluateValue() : nullptr;
  if (!Init || (Table && !Init->isArray())) {
    error(At,
          Member + (IE ? ", whose initializer is not constant,"
                       : ", which has no initializer,"),
          "initialise it with the names of tables ('{ 4, a }'), '&t[k]' or "
          "'t + k'");
    return 0;
  }
  QualType ET = ME->getType()->getPointeeType();
  uint64_t N = Table ? CAT->getSize().getZExtValue() : 1;
  if (N == 0 || N > MaxEntries) {
    error(At, Member + " of an array of " + std::to_string(N) + " structs",
          "use an array of 1.." + std::to_string(MaxEntries) + " structs");
    return 0;
  }
  std::vector<PtrBase> Bases;
  std::vector<int64_t> Offs;
  for (uint64_t K = 0; K < N; ++K) {
    const APValue *V = Init;
    if (Table)
      V = K < Init->getArrayInitializedElts()
              ? &Init->getArrayInitializedElt((unsigned)K)
              : &Init->getArrayFiller();
    for (auto It = Path.rbegin(); It != Path.rend() && V; ++It)
      V = V->isStruct() ? &V->getStructField((*It)->getFieldIndex()) : nullptr;
    PtrBase P;
    int64_t Off;
    if (!V ||
        !pointerEntry(*V, ET, At,
                      Table ? Member + " at k = " + std::to_string(K) : Member,
                      P, Off))
      return V ? 0 : -1;
    Bases.push_back(P);
    Offs.push_back(Off);
  }
  if (!Arrow)
    I = Idx ? expr(Idx) : B.constI(Type::I32, 0);
  if (I < 0)
    return 0;
  pickEntry(B.cast(Type::I32, I), Bases, Offs, Out);
  return 1;
}

int Lowerer::seedTables(const VarDecl *VD, const Stmt *Body) {
  std::vector<const VarDecl *> Tds;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    const Expr *Val = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign && declOf(BO->getLHS()) == VD)
      Val = BO->getRHS();
    if (const auto *AS =
            Val ? dyn_cast<ArraySubscriptExpr>(Val->IgnoreParenImpCasts())
                : nullptr)
      if (const VarDecl *TD = pointerTableOf(AS->getBase()))
        if (std::find(Tds.begin(), Tds.end(), TD) == Tds.end())
          Tds.push_back(TD);
    for (const Stmt *C : astChildren(S))
      if (C)
        Scan(C);
  };
  if (Body)
    Scan(Body);
  if (Tds.size() < 2)
    return -1;
  std::vector<PtrBase> All;
  for (const VarDecl *TD : Tds) {
    std::vector<PtrBase> Bases;
    std::vector<int64_t> Offs;
    if (!pointerTable(TD, TD->getLocation(), Bases, Offs))
      return -1;
    for (const PtrBase &P : Bases)
      if (std::find(All.begin(), All.end(), P) == All.end())
        All.push_back(P);
  }
  return choiceOf(All);
}

int Lowerer::choiceOf(const std::vector<PtrBase> &Tabs) {
  auto It = std::find(Choices.begin(), Choices.end(), Tabs);
  int K = (int)(It - Choices.begin());
  if (It == Choices.end())
    Choices.push_back(Tabs);
  return K;
}

void Lowerer::seedPointer(const PtrVar &P, PtrVal &V) {
  if (P.Seed < 0 || !(V.Base.Multi >= 0 || tableBase(V.Base)))
    return;
  PtrVal S;
  S.Base.Multi = P.Seed;
  PtrBase U;
  int IdS, IdV;
  if (!mergeTables(S, V, U, IdS, IdV))
    return;
  V.Base = U;
  V.Id = IdV;
}

} // namespace lowering
} // namespace batchdiff
