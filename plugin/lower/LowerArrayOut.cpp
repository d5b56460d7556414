//===- LowerArrayOut.cpp - local arrays passed to per-lane calls ----------===//
//
// A local array of numbers of constant extents passed to a function called
// once per example (docs/calls.md, "Calls of outside functions"), as musl's
// sin, cos and tan pass their `double y[2]` to `__rem_pio2(x, y)` of
// another file, which writes y[0] and y[1], and ERFA passes its `double
// r[3][3]` to `eraIr(r)` and the rows of `double pv[2][3]` to `eraCp(pv[0],
// c)`: each lane's call gets an array of its own holding all the example's
// elements, the argument points into it where the argument points into the
// array (`y + 1`, `&y[k]`, `r[i]`, `&r[i][j]`), and what the callee leaves
// in each element goes back to the example (ir::ExternCall::Struct with
// Len, emitted by emit/ExternCall.cpp). Two arguments into one array share
// the lane's copy, as they share the array in C. Each element is an
// out-pointer of the kind LowerExternArgs.cpp passes, so under diff what
// the call leaves carries no derivative (diff-extern-out where one is
// needed).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include <cstdint>

namespace batchdiff {
namespace lowering {

const Expr *Lowerer::arrayOutRoot(const Expr *A) {
  const Expr *E = A->IgnoreParenImpCasts();
  for (;;) {
    // `y + k`, `y - k`
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getLHS()->getType()->isPointerType() &&
        BO->getRHS()->getType()->isIntegerType()) {
      E = BO->getLHS()->IgnoreParenImpCasts();
      continue;
    }
    // `&y[k]`, `&r[i][j]`, `&r[i]`
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
          AS && AS->getIdx()->getType()->isIntegerType()) {
        E = AS->getBase()->IgnoreParenImpCasts();
        continue;
      }
    // A row, `r[i]` (an array, used as a pointer to its first element).
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
        AS && AS->getType()->isArrayType() &&
        AS->getIdx()->getType()->isIntegerType()) {
      E = AS->getBase()->IgnoreParenImpCasts();
      continue;
    }
    return E;
  }
}

bool Lowerer::constantRowsOf(ASTContext &Ctx, QualType T, QualType El) {
  while (T->isArrayType()) {
    const auto *AT = Ctx.getAsConstantArrayType(T);
    if (!AT)
      return false;
    T = AT->getElementType();
  }
  return !T.isVolatileQualified() && Ctx.hasSameUnqualifiedType(T, El);
}

int Lowerer::arrayOutArg(const Expr *A) const {
  QualType T = A->getType();
  if (!T->isPointerType() || T->getPointeeType().isVolatileQualified())
    return -1;
  const auto *DR = dyn_cast<DeclRefExpr>(arrayOutRoot(A));
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType().isVolatileQualified())
    return -1;
  QualType El;
  int V = -1;
  if (VD->getType()->isPointerType()) {
    // A pointer (a helper's parameter, a local) bound to such an array,
    // at an offset or not.
    auto It = Frames.back().Ptrs.find(VD);
    if (It == Frames.back().Ptrs.end())
      return -1;
    const PtrVar &P = It->second;
    if (P.Base.Var < 0 || P.Base.Multi >= 0 || P.Base.Arg >= 0 || P.Base.One ||
        P.IdVar >= 0 || !P.Hidden.isNull())
      return -1;
    El = Ctx.getBaseElementType(VD->getType()->getPointeeType());
    if (!constantRowsOf(Ctx, VD->getType()->getPointeeType(), El))
      return -1;
    V = P.Base.Var;
  } else {
    const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
    if (!AT)
      return -1;
    El = Ctx.getBaseElementType(VD->getType());
    auto It = Frames.back().Vars.find(VD);
    if (It == Frames.back().Vars.end() ||
        (uint64_t)F.Vars[It->second].Len !=
            Ctx.getConstantArrayElementCount(AT))
      return -1;
    V = It->second;
  }
  // The callee gets a pointer to the elements' own C type, or to constant
  // rows of them (not `void *`, not a cast).
  std::optional<Type> ETy = irType(El);
  if (El.isVolatileQualified() || !ETy || *ETy == Type::Bool ||
      !constantRowsOf(Ctx, T->getPointeeType(), El))
    return -1;
  const ir::Var &Var = F.Vars[V];
  if (Var.CountVar >= 0 || Var.Len < 1 || Var.Len > LocalArrayMax ||
      Var.Ty != *ETy)
    return -1;
  return V;
}

bool Lowerer::arrayOutPass(const Expr *A, int V, const ParmVarDecl *To,
                           const std::string &Callee, ir::ExternCall &X,
                           std::vector<int> &Args,
                           std::vector<ExternOutArg> &Outs) {
  const auto *VD = cast<VarDecl>(cast<DeclRefExpr>(arrayOutRoot(A))->getDecl());
  std::string Name = F.Vars[V].Name;
  // Where the argument points: the array and an offset in elements.
  PtrVal PV;
  if (!ptrValue(A, PV))
    return false;
  if (PV.Base.Var != V || PV.Base.Arg >= 0 || PV.Base.Multi >= 0 ||
      PV.Id >= 0) {
    error(A->getBeginLoc(),
          "passing a pointer into '" + Name + "' to '" + Callee +
              "', which is called once per example,",
          "pass the local array itself, a row of it or an element's address "
          "('" +
              Name + "', '" + Name + " + k', '&" + Name + "[k]')");
    return false;
  }
  QualType PT = A->getType()->getPointeeType();
  bool Const = Ctx.getBaseElementType(PT).isConstQualified();
  QualType El = Ctx.getBaseElementType(PT).getUnqualifiedType();
  // The same array already passed to this call: the lane's copy is shared
  // (the callee sees one array, as in C).
  int From, ToEl;
  int K = sharedCopy(A, To, V, -1, F.Vars[V].Len, X, Outs, From, ToEl);
  if (K == -2)
    return false;
  if (K >= 0 && !Const)
    for (const auto &M : X.Structs[K].Members)
      Outs[M.second].Const = false;
  if (K < 0) {
    K = (int)X.Structs.size();
    ir::ExternCall::Struct St;
    St.CType = El.getCanonicalType().getAsString(Ctx.getPrintingPolicy());
    St.Len = F.Vars[V].Len;
    for (int E = From; E < ToEl; ++E) {
      LValue L;
      L.Var = V;
      L.Idx = B.constI(Type::I32, E);
      St.Members.push_back({"[" + std::to_string(E) + "]", (int)X.Outs.size()});
      ir::ExternCall::Out O;
      O.Arg = (int)Args.size();
      O.CType = St.CType;
      O.Name = O.Array = Name;
      // Passed as a pointer bound to the array (a helper's parameter): its
      // name, and where the helpers' calls bound it.
      if (VD->getType()->isPointerType())
        passedOutNotes(VD, O);
      X.Outs.push_back(std::move(O));
      Outs.push_back({L, A->getBeginLoc(), Const});
      Args.push_back(load(L));
    }
    X.Structs.push_back(std::move(St));
  }
  arrayOutRef(A, K, PV.Off, X, Args);
  return true;
}

void Lowerer::arrayOutRef(const Expr *A, int K, int Off, ir::ExternCall &X,
                          std::vector<int> &Args) {
  // ("\x08k\x02": the lane's copy, an array; at the argument's offset, as
  // the argument's type: `double (*)[3]` for a 2-D array passed whole.)
  QualType PT = A->getType()->getPointeeType();
  QualType El = Ctx.getBaseElementType(PT).getUnqualifiedType();
  std::string Ref = "\x08" + std::to_string(K) + "\x02";
  LastCopy = {-1, K, Off >= 0 ? (int)Args.size() : -1};
  if (Off < 0 && Ctx.hasSameUnqualifiedType(PT, El)) {
    X.Call += Ref;
    return;
  }
  X.Call +=
      "((" +
      A->getType().getCanonicalType().getAsString(Ctx.getPrintingPolicy()) +
      ")(" + Ref;
  if (Off >= 0) {
    X.Call += " + \x01" + std::to_string(Args.size()) + "\x02";
    Args.push_back(Off);
  }
  X.Call += "))";
}

int Lowerer::paramCopyArg(const Expr *A, const ParmVarDecl *To,
                          int *Len) const {
  QualType T = A->getType();
  if (!T->isPointerType() || T->getPointeeType().isVolatileQualified())
    return -1;
  int P = varyingArrayArg(offsetBase(A));
  if (P < 0 || passedArrayArg(A) >= 0 || uniformArrayArg(A) >= 0)
    return -1;
  const ir::Param &Pa = F.Params[P];
  QualType El = Ctx.getBaseElementType(T->getPointeeType());
  std::optional<Type> ETy = irType(El);
  if (Pa.Uniform || Pa.StaticLen > LocalArrayMax || !ETy ||
      *ETy == Type::Bool || *ETy != Pa.Ty ||
      !constantRowsOf(Ctx, T->getPointeeType(), El))
    return -1;
  int N = Pa.StaticLen;
  // Without an extent (only passed on): the parameter itself, to a pointer
  // to one scalar (`double *phi`, not `double phi[3]`), one element.
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  if (!N && Pa.DimParam < 0 && DR && isa<ParmVarDecl>(DR->getDecl()) &&
      DR->getDecl()->getDeclContext() == Top && To &&
      !To->getOriginalType()->isArrayType() &&
      !T->getPointeeType()->isArrayType())
    N = 1;
  if (N < 1)
    return -1;
  if (Len)
    *Len = N;
  return P;
}

bool Lowerer::paramOutPass(const Expr *A, int P, int Len, const ParmVarDecl *To,
                           const std::string &Callee, ir::ExternCall &X,
                           std::vector<int> &Args,
                           std::vector<ExternOutArg> &Outs) {
  const ir::Param &Pa = F.Params[P];
  PtrVal PV;
  if (!ptrValue(A, PV))
    return false;
  if (PV.Base.Arg != P || PV.Base.Var >= 0 || PV.Base.Multi >= 0 ||
      PV.Base.One || PV.Id >= 0) {
    error(A->getBeginLoc(),
          "passing a pointer into '" + Pa.Name + "' to '" + Callee +
              "', which is called once per example,",
          "pass the local array itself, a row of it or an element's address "
          "('" +
              Pa.Name + "', '" + Pa.Name + " + k', '&" + Pa.Name + "[k]')");
    return false;
  }
  QualType PT = A->getType()->getPointeeType();
  bool Const = Ctx.getBaseElementType(PT).isConstQualified();
  // Declared const, passed where the callee takes a pointer to non-const
  // (C converts it with a warning): what the callee may leave in the copy
  // has nowhere to go.
  if (!Const && !Pa.Writable) {
    error(A->getBeginLoc(),
          "passing '" + Pa.Name + "', a parameter of const elements, to '" +
              Callee +
              "' as a pointer to non-const, where its derivative comes "
              "from '" +
              Callee + "_grad',",
          "declare the parameter const where this file declares '" + Callee +
              "' (its copy is then only read), or copy '" + Pa.Name +
              "' into a local array and pass that");
    return false;
  }
  // The same parameter already passed to this call: one copy, as for a
  // local array (arrayOutPass).
  int From, ToEl;
  int K = sharedCopy(A, To, -1, P, Len, X, Outs, From, ToEl);
  if (K == -2)
    return false;
  if (K >= 0 && !Const)
    for (const auto &M : X.Structs[K].Members)
      Outs[M.second].Const = false;
  if (K < 0) {
    K = (int)X.Structs.size();
    ir::ExternCall::Struct St;
    St.CType = Ctx.getBaseElementType(PT)
                   .getUnqualifiedType()
                   .getCanonicalType()
                   .getAsString(Ctx.getPrintingPolicy());
    St.Len = Len;
    for (int E = From; E < ToEl; ++E) {
      LValue L;
      L.Arg = P;
      L.Idx = B.constI(Type::I32, E);
      St.Members.push_back({"[" + std::to_string(E) + "]", (int)X.Outs.size()});
      ir::ExternCall::Out O;
      O.Arg = (int)Args.size();
      O.CType = St.CType;
      O.Name = O.Array = Pa.Name;
      X.Outs.push_back(std::move(O));
      Outs.push_back({L, A->getBeginLoc(), Const});
      Args.push_back(load(L));
    }
    X.Structs.push_back(std::move(St));
  }
  arrayOutRef(A, K, PV.Off, X, Args);
  return true;
}

/// The offset in elements (of the innermost arrays' type) of pointer \p A
/// from the array it is computed from (arrayOutRoot's), where constant.
static std::optional<int64_t> constOffset(ASTContext &Ctx, const Expr *A) {
  auto Count = [&](QualType T) -> int64_t {
    const auto *AT = Ctx.getAsConstantArrayType(T);
    return AT ? (int64_t)Ctx.getConstantArrayElementCount(AT) : 1;
  };
  auto Int = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  };
  int64_t Off = 0;
  const Expr *E = A->IgnoreParenImpCasts();
  for (;;) {
    const Expr *Base = nullptr, *Idx = nullptr;
    int Sign = 1;
    QualType Step;
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getLHS()->getType()->isPointerType()) {
      Base = BO->getLHS();
      Idx = BO->getRHS();
      Sign = BO->getOpcode() == BO_Sub ? -1 : 1;
      Step = Base->getType()->getPointeeType();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_AddrOf) {
      const auto *AS =
          dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
      if (!AS)
        return std::nullopt;
      Base = AS->getBase();
      Idx = AS->getIdx();
      Step = AS->getType();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
               AS && AS->getType()->isArrayType()) {
      Base = AS->getBase();
      Idx = AS->getIdx();
      Step = AS->getType();
    } else {
      // The array itself, or the function's own parameter (not a pointer
      // bound somewhere).
      const auto *DR = dyn_cast<DeclRefExpr>(E);
      const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      if (!VD || (VD->getType()->isPointerType() && !isa<ParmVarDecl>(VD)))
        return std::nullopt;
      return Off;
    }
    std::optional<int64_t> K = Int(Idx);
    if (!K)
      return std::nullopt;
    Off += Sign * *K * Count(Step);
    E = Base->IgnoreParenImpCasts();
  }
}

int Lowerer::sharedCopy(const Expr *A, const ParmVarDecl *To, int Var, int Arg,
                        int Len, const ir::ExternCall &X,
                        const std::vector<ExternOutArg> &Outs, int &From,
                        int &ToEl) {
  // What the callee's parameter reaches: its declared extent (`double
  // a[3]`, `double r[3][3]`) at the argument's constant offset.
  int RF = 0, RT = Len;
  bool Known = false;
  if (To) {
    const auto *AT = Ctx.getAsConstantArrayType(To->getOriginalType());
    std::optional<int64_t> C = constOffset(Ctx, A);
    int64_t N = AT ? (int64_t)Ctx.getConstantArrayElementCount(AT) : -1;
    if (C && N > 0 && *C >= 0 && *C + N <= Len) {
      RF = (int)*C;
      RT = (int)(*C + N);
      Known = true;
    }
  }
  int Share = -1, Same = 0;
  bool Clash = false;
  for (size_t S = 0; S < X.Structs.size(); ++S) {
    const ir::ExternCall::Struct &St = X.Structs[S];
    if (!St.Len || St.Members.empty() ||
        (size_t)St.Members[0].second >= Outs.size() ||
        Outs[St.Members[0].second].L.Var != Var ||
        Outs[St.Members[0].second].L.Arg != Arg || !CopyUses.count((int)S))
      continue;
    ++Same;
    CopyUse &U = CopyUses[(int)S];
    if (Known && (RT <= U.ReachFrom || U.ReachTo <= RF))
      continue; // (apart)
    if (Share < 0 && U.From <= RF && RT <= U.To)
      Share = (int)S;
    else
      Clash = true;
  }
  if (Clash) { // (To is not null: the full copy alone reaches everything)
    std::string Name = Var >= 0 ? F.Vars[Var].Name : F.Params[Arg].Name;
    std::string G =
        "'" + cast<FunctionDecl>(To->getDeclContext())->getNameAsString() +
        "_grad'";
    error(A->getBeginLoc(),
          "passing '" + Name +
              "' again, into elements another argument of the call reaches "
              "and past them, where its derivative comes from " +
              G + ",",
          "pass arguments into one array that reach the same elements or "
          "none in common (each gets a copy of its own for " +
              G +
              "), or copy the array into another local array for one of "
              "them");
    return -2;
  }
  if (Share >= 0) {
    CopyUse &U = CopyUses[Share];
    U.ReachFrom = std::min(U.ReachFrom, RF);
    U.ReachTo = std::max(U.ReachTo, RT);
    return Share;
  }
  // The first copy of the array holds all of it; another one, apart from
  // the others, only what its parameter reaches.
  From = Same ? RF : 0;
  ToEl = Same ? RT : Len;
  CopyUses[(int)X.Structs.size()] = {From, ToEl, RF, RT};
  return -1;
}

} // namespace lowering
} // namespace batchdiff
