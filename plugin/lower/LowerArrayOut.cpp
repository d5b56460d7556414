//===- LowerArrayOut.cpp - local arrays passed to per-lane calls ----------===//
//
// A local array of numbers of a constant extent passed whole to a function
// called once per example (docs/calls.md, "Calls of outside functions"), as
// musl's sin, cos and tan pass their `double y[2]` to `__rem_pio2(x, y)` of
// another file, which writes y[0] and y[1]: each lane's call gets an array
// of its own holding the example's elements, and what the callee leaves in
// each element goes back to the example (ir::ExternCall::Struct with Len,
// emitted by emit/ExternCall.cpp). Each element is an out-pointer of the
// kind LowerExternArgs.cpp passes, so under diff what the call leaves
// carries no derivative (diff-extern-out where one is needed).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include <cstdint>

namespace batchdiff {
namespace lowering {

int Lowerer::arrayOutArg(const Expr *A) const {
  QualType T = A->getType();
  if (!T->isPointerType() || T->getPointeeType().isVolatileQualified())
    return -1;
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType().isVolatileQualified())
    return -1;
  QualType El;
  int V = -1;
  if (VD->getType()->isPointerType()) {
    // A pointer (a helper's parameter) bound to such an array whole, never
    // re-pointed.
    auto It = Frames.back().Ptrs.find(VD);
    if (It == Frames.back().Ptrs.end())
      return -1;
    const PtrVar &P = It->second;
    if (P.Base.Var < 0 || P.Base.Multi >= 0 || P.Base.Arg >= 0 || P.Off >= 0 ||
        P.OffVar >= 0 || P.IdVar >= 0 || !P.Hidden.isNull())
      return -1;
    El = VD->getType()->getPointeeType();
    V = P.Base.Var;
  } else {
    const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
    if (!AT)
      return -1;
    El = AT->getElementType();
    auto It = Frames.back().Vars.find(VD);
    if (It == Frames.back().Vars.end() ||
        (uint64_t)F.Vars[It->second].Len != AT->getSize().getZExtValue())
      return -1;
    V = It->second;
  }
  // The callee gets a pointer to the elements' own C type (not `void *`,
  // not a cast).
  std::optional<Type> ETy = irType(El);
  if (El->isArrayType() || El.isVolatileQualified() || !ETy ||
      *ETy == Type::Bool ||
      !Ctx.hasSameUnqualifiedType(El, T->getPointeeType()))
    return -1;
  const ir::Var &Var = F.Vars[V];
  if (Var.CountVar >= 0 || Var.Len < 1 || Var.Len > LocalArrayMax ||
      Var.Ty != *ETy)
    return -1;
  return V;
}

bool Lowerer::arrayOutPass(const Expr *A, int V, const std::string &Callee,
                           ir::ExternCall &X, std::vector<int> &Args,
                           std::vector<ExternOutArg> &Outs) {
  const auto *VD =
      cast<VarDecl>(cast<DeclRefExpr>(A->IgnoreParenImpCasts())->getDecl());
  std::string Name = F.Vars[V].Name;
  for (const ExternOutArg &O : Outs)
    if (O.L.Var == V && O.L.Arg < 0) {
      error(A->getBeginLoc(),
            "passing the local array '" + Name + "' twice to '" + Callee +
                "', which is called once per example,",
            "each call gets a copy of the example's array per argument: pass "
            "it once (copy it into another local array for the second)");
      return false;
    }
  QualType PT = A->getType()->getPointeeType();
  bool Const = PT.isConstQualified();
  ir::ExternCall::Struct St;
  St.CType = PT.getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
  St.Len = F.Vars[V].Len;
  for (int K = 0; K < St.Len; ++K) {
    LValue L;
    L.Var = V;
    L.Idx = B.constI(Type::I32, K);
    St.Members.push_back({"[" + std::to_string(K) + "]", (int)X.Outs.size()});
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
  X.Call += "\x08" + std::to_string(X.Structs.size()) + "\x02";
  X.Structs.push_back(std::move(St));
  return true;
}

} // namespace lowering
} // namespace batchdiff
