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
#include "lower/LowerImpl.h"
#include "lower/LowerPointer.h"

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
  int64_t Size = Ctx.getTypeSizeInChars(ET).getQuantity();
  uint64_t N = CAT->getSize().getZExtValue();
  std::string Name = TD->getNameAsString();
  for (uint64_t K = 0; K < N; ++K) {
    const APValue &V = K < Init->getArrayInitializedElts()
                           ? Init->getArrayInitializedElt((unsigned)K)
                           : Init->getArrayFiller();
    std::string Entry = "entry " + std::to_string(K) +
                        " of the table of "
                        "pointers '" +
                        Name + "'";
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
        !Ctx.hasSameUnqualifiedType(Ctx.getBaseElementType(TV->getType()),
                                    ET) ||
        Bytes % Size != 0) {
      error(At,
            Entry + ", which points into '" + TV->getNameAsString() +
                "' of type '" + TV->getType().getAsString() + "',",
            "point every entry into a table of '" +
                ET.getUnqualifiedType().getAsString() + "' elements");
      return false;
    }
    PtrBase P;
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
    Bases.push_back(P);
    Offs.push_back(Bytes / Size);
  }
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
  I = B.cast(Type::I32, I);
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
    return true;
  }
  Out.Base.Multi = choiceOf(Tabs);
  Out.Id = Id;
  return true;
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
    for (const Stmt *C : S->children())
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
