//===- LowerExternArgs.cpp - out-pointers and tables of per-lane calls ----===//
//
// Arguments of calls made once per example (docs/subset.md, "Calls of
// outside functions") that are not numbers: the address of a scalar local
// or parameter (`ebd0(x, l, &yh, &yl)`: the callee gets a scalar of the
// lane's, what it leaves there goes back into the lane), and a read-only
// table passed whole (`chebyshev_eval(t, gamcs, n)`: the same address for
// every example).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include <cstdint>

namespace batchdiff {
namespace lowering {

const VarDecl *Lowerer::outPointerArg(const Expr *A) const {
  const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *DR = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType().isVolatileQualified())
    return nullptr;
  std::optional<Type> T = irType(VD->getType());
  return T && *T != Type::Bool ? VD : nullptr;
}

const VarDecl *Lowerer::tableArg(const Expr *A) const {
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->hasGlobalStorage() || !VD->getType()->isArrayType())
    return nullptr;
  // (Not a block-scope 'extern' declaration: the generated code, after
  // the function, may not see its name.)
  if (!VD->isStaticLocal() && !VD->getDeclContext()->isFileContext())
    return nullptr;
  QualType El = Ctx.getBaseElementType(VD->getType());
  if (!El.isConstQualified() || El.isVolatileQualified() || !irType(El))
    return nullptr;
  return VD;
}

/// The C text of element value \p V of type \p El: exact (hexadecimal
/// floating constants).
static std::string elementText(const APValue &V) {
  if (V.isInt()) {
    const llvm::APSInt &I = V.getInt();
    if (I.isUnsigned())
      return std::to_string(I.getZExtValue()) + "ull";
    int64_t S = I.getSExtValue();
    if (S == INT64_MIN)
      return "(-9223372036854775807ll - 1)";
    return std::to_string(S) + "ll";
  }
  if (!V.isFloat())
    return "";
  const llvm::APFloat &F = V.getFloat();
  std::string Sign = F.isNegative() ? "-" : "";
  if (F.isNaN())
    return Sign + "__builtin_nan(\"\")";
  if (F.isInfinity())
    return Sign + "__builtin_inf()";
  char Buf[64];
  unsigned N =
      F.convertToHexString(Buf, 0, false, llvm::APFloat::rmNearestTiesToEven);
  return std::string(Buf, N);
}

bool Lowerer::tableCopy(const VarDecl *VD, ir::ExternCall::Table &T) {
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  const APValue *V = VD->getInit() ? VD->evaluateValue() : nullptr;
  QualType El = AT ? AT->getElementType() : QualType();
  if (!AT || !V || !V->isArray() || El->isArrayType() ||
      AT->getSize().getZExtValue() > 65536)
    return false;
  unsigned Len = (unsigned)AT->getSize().getZExtValue();
  T.CType = El.getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
  T.Name = VD->getNameAsString();
  T.Len = (int)Len;
  T.Init = "{";
  for (unsigned I = 0; I < Len; ++I) {
    if (I >= V->getArrayInitializedElts() && !V->hasArrayFiller())
      return false;
    const APValue &E = I < V->getArrayInitializedElts()
                           ? V->getArrayInitializedElt(I)
                           : V->getArrayFiller();
    std::string Text = elementText(E);
    if (Text.empty())
      return false;
    T.Init += (I ? ", " : "") + Text;
  }
  T.Init += "}";
  return true;
}

bool Lowerer::externPointerArg(const Expr *A, const std::string &Callee,
                               ir::ExternCall &X, std::vector<int> &Args,
                               std::vector<ExternOutArg> &Outs) {
  if (const VarDecl *VD = tableArg(A)) {
    if (!VD->isStaticLocal()) {
      X.Call += VD->getName().str();
      return true;
    }
    ir::ExternCall::Table T;
    if (!tableCopy(VD, T)) {
      error(A->getBeginLoc(),
            "passing the static local table '" + VD->getNameAsString() +
                "' to '" + Callee + "', which is called once per example,",
            "pass a one-dimensional table of numbers with a constant "
            "initializer, or a file-scope 'const' table");
      return false;
    }
    X.Call += "\x04" + std::to_string(X.Tables.size()) + "\x02";
    X.Tables.push_back(std::move(T));
    return true;
  }
  const VarDecl *VD = outPointerArg(A);
  const Expr *E = cast<UnaryOperator>(A->IgnoreParenImpCasts())->getSubExpr();
  bool Const = VD->getType().isConstQualified();
  LValue L = lvalue(E, Const ? "reading" : "writing");
  if (!L.ok())
    return false;
  for (const ExternOutArg &O : Outs)
    if (O.L.Var == L.Var && O.L.Arg == L.Arg) {
      error(A->getBeginLoc(),
            "passing '&" + VD->getNameAsString() + "' twice to '" + Callee +
                "', which is called once per example,",
            "each out-pointer gets a scalar of its own: pass each "
            "variable's address once (copy it into another local for the "
            "second)");
      return false;
    }
  int T = load(L);
  X.Call += "\x03" + std::to_string(X.Outs.size()) + "\x02";
  ir::ExternCall::Out O;
  O.Arg = (int)Args.size();
  O.CType = VD->getType().getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
  O.Name = VD->getNameAsString();
  X.Outs.push_back(std::move(O));
  Outs.push_back({L, A->getBeginLoc(), Const});
  Args.push_back(T);
  return true;
}

void Lowerer::externOutStores(int Call, const std::vector<ExternOutArg> &Outs) {
  for (size_t K = 0; K < Outs.size(); ++K) {
    if (Outs[K].Const) // (the callee may not write it)
      continue;
    int O = F.newTemp(typeOf(Outs[K].L));
    ir::Stmt &S = B.push(Op::ExternOut, O, {Call});
    S.IVal = (int64_t)K;
    S.Site = (int)Sites.size(); // for diff-extern-out
    Sites.push_back(Outs[K].At);
    store(Outs[K].L, O);
  }
}

} // namespace lowering
} // namespace batchdiff
