//===- LowerChoice.cpp - a pointer into one of several read-only tables ---===//
//
// cephes and fdlibm pick a coefficient table per argument range (`c = x <
// 2 ? P1 : P2;`, `if (x < 2) p = P1; else p = P2;`) and hand the pointer to
// a helper such as polevl. Such a pointer's base is a list of read-only
// tables of one element type (file-scope tables, static local tables, and
// array parameters of a constant length the function only reads), and
// its value a per-lane position in that list plus the usual offset. A read
// loads from every table of the list at an index valid for that table (the
// offset where it lies in the table, else 0), so no lane reads outside a
// table it did not choose, and keeps per lane the value of its own table.
// Where the offset is the same for every lane (a walk `*p++` from the
// table's start) those loads are broadcasts, not gathers. The position and
// offset are integers, so the AD sees selects of loads (of constants, or
// of the parameters' elements, whose adjoints go to the lane's own array).
// Writing through such a pointer is an error (pointee()).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/LowerPointer.h"

#include <algorithm>

namespace batchdiff {
namespace lowering {

/// The arms of a pointer '?:' (condition \p C) lowered as an if/else, each
/// in the lanes that take it, their offsets and table positions kept in
/// variables: \p T and \p E read them after the if (what the other lanes
/// hold there is not used: ptrConditional selects by \p C).
bool Lowerer::ptrBranches(int C, const Expr *TE, const Expr *FE, PtrVal &T,
                          PtrVal &E) {
  int Zero = B.constI(Type::I32, 0);
  int Vars[2][2];
  for (auto &V : Vars)
    for (int &X : V)
      B.set(X = F.newVar("__parm", Type::I32), Zero);
  ir::Stmt &If = B.ifStmt(C);
  ir::Block *Saved = B.block();
  bool Ok = true;
  for (int K = 0; K < 2 && Ok; ++K) {
    B.setBlock(K ? &If.Else : &If.Then);
    PtrVal &P = K ? E : T;
    Ok = ptrValue(K ? FE : TE, P);
    if (Ok) {
      B.set(Vars[K][0], P.Off < 0 ? Zero : P.Off);
      B.set(Vars[K][1], P.Id < 0 ? Zero : P.Id);
    }
  }
  B.setBlock(Saved);
  if (!Ok)
    return false;
  for (int K = 0; K < 2; ++K) {
    PtrVal &P = K ? E : T;
    P.Off = B.get(Vars[K][0]);
    P.Id = P.Id < 0 ? -1 : B.get(Vars[K][1]);
  }
  return true;
}

bool Lowerer::tableBase(const PtrBase &P) const {
  if (P.Arg >= 0) {
    const ir::Param &A = F.Params[P.Arg];
    if (A.Kind == ir::ParamKind::Global)
      return A.IsArray;
    // Also an array parameter the function only reads, declared with a
    // constant length (`const double a[4]`): each example's array has that
    // many elements, so a lane may read it where another lane's choice
    // points (loadChoice keeps the index within it) and keep only its own.
    // (Not a length inferred from the function's own indices: reads
    // through the choice may go past it.)
    return A.Kind == ir::ParamKind::User && A.IsArray && !A.Writable &&
           A.StaticLen > 0 && !P.One && P.Arg < (int)Top->getNumParams() &&
           Ctx.getAsConstantArrayType(
               Top->getParamDecl(P.Arg)->getOriginalType());
  }
  return P.Var >= 0 && F.Vars[P.Var].Len > 0 && ReadOnly.count(P.Var);
}

std::string Lowerer::tablesFix(const PtrBase &A, const PtrBase &B) const {
  std::string Fix = pointers::InsteadOne;
  // A read-only array parameter declared without a constant length
  // (`const double *a`): a lane may not read it where another lane's
  // choice points.
  for (const PtrBase *P : {&A, &B})
    for (const PtrBase &Q : choicesOf(*P))
      if (Q.Arg >= 0 && !tableBase(Q) &&
          F.Params[Q.Arg].Kind == ir::ParamKind::User &&
          F.Params[Q.Arg].IsArray && !F.Params[Q.Arg].Writable) {
        const std::string &N = F.Params[Q.Arg].Name;
        return "declare '" + N + "' with its length ('" + N +
               "[N]', N a constant: between read-only arrays of a constant "
               "length it works), or " +
               Fix;
      }
  return Fix;
}

bool Lowerer::choiceParams(const PtrBase &P) const {
  for (const PtrBase &Q : choicesOf(P))
    if (Q.Arg >= 0 && F.Params[Q.Arg].Kind == ir::ParamKind::User)
      return true;
  return false;
}

std::vector<Lowerer::PtrBase> Lowerer::choicesOf(const PtrBase &P) const {
  if (P.Multi >= 0)
    return Choices[P.Multi];
  return {P};
}

bool Lowerer::mergeTables(const PtrVal &A, const PtrVal &Bv, PtrBase &U,
                          int &IdA, int &IdB) {
  std::vector<PtrBase> LA = choicesOf(A.Base), LB = choicesOf(Bv.Base);
  auto ElemTy = [&](const PtrBase &P) {
    return P.Arg >= 0 ? F.Params[P.Arg].Ty : F.Vars[P.Var].Ty;
  };
  Type T = ElemTy(LA[0]);
  for (const auto *L : {&LA, &LB})
    for (const PtrBase &P : *L)
      if (!tableBase(P) || ElemTy(P) != T)
        return false;
  // A's tables first, so the positions A's values hold stay valid.
  std::vector<PtrBase> All = LA;
  std::vector<int64_t> Map;
  for (const PtrBase &P : LB) {
    auto It = std::find(All.begin(), All.end(), P);
    Map.push_back(It - All.begin());
    if (It == All.end())
      All.push_back(P);
  }
  U = PtrBase();
  U.Multi = choiceOf(All);
  int Zero = B.constI(Type::I32, 0);
  IdA = A.Id >= 0 ? A.Id : Zero;
  bool Same = true;
  for (size_t J = 0; J < Map.size(); ++J)
    Same &= Map[J] == (int64_t)J;
  if (Same) {
    IdB = Bv.Id >= 0 ? Bv.Id : Zero;
    return true;
  }
  // B's positions renumbered into All's.
  IdB = B.constI(Type::I32, Map[0]);
  for (size_t J = 1; J < Map.size() && Bv.Id >= 0; ++J)
    IdB = B.select(B.cmp(Op::CmpEQ, Bv.Id, B.constI(Type::I32, (int64_t)J)),
                   B.constI(Type::I32, Map[J]), IdB);
  return true;
}

int Lowerer::loadChoice(const LValue &L) {
  const std::vector<PtrBase> Tabs = Choices[L.Multi];
  int Zero = B.constI(Type::I32, 0);
  int Idx = L.Idx < 0 ? Zero : L.Idx;
  int Id = L.Id < 0 ? Zero : L.Id;
  int V = -1;
  for (size_t K = 0; K < Tabs.size(); ++K) {
    const PtrBase &P = Tabs[K];
    int Len = P.Arg >= 0 ? F.Params[P.Arg].StaticLen : F.Vars[P.Var].Len;
    int Mine = B.cmp(Op::CmpEQ, Id, B.constI(Type::I32, (int64_t)K));
    // In this table's bounds (an `extern T t[]` of unknown length: only
    // where it is the lane's own table).
    int In = Mine;
    if (Len > 0)
      In = B.bin(Op::And, B.cmp(Op::CmpGE, Idx, Zero),
                 B.cmp(Op::CmpLT, Idx, B.constI(Type::I32, Len)));
    LValue E;
    E.Arg = P.Arg;
    E.Var = P.Var;
    E.Idx = B.select(In, Idx, Zero);
    int X = load(E);
    V = V < 0 ? X : B.select(Mine, X, V);
  }
  return V;
}

} // namespace lowering
} // namespace batchdiff
