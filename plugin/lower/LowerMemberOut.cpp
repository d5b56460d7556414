//===- LowerMemberOut.cpp - struct array members passed to per-lane calls -===//
//
// An array member of numbers of a struct local or parameter passed to a
// function called once per example (docs/calls.md, "Calls of outside
// functions"), as ERFA's eraApcs passes `astrom->eb` of its `eraASTROM
// *astrom` to `eraCp(pv[0], astrom->eb)` and eraAticq `astrom->bpn` to
// `eraTrxp(astrom->bpn, ppr, pi)`: as a local array is (LowerArrayOut.cpp),
// each lane's call gets an array of its own holding the example's elements
// of the member, the argument pointing into it where it points into the
// member, and what the callee leaves goes back to the example's member.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <cstdint>

namespace batchdiff {
namespace lowering {

/// The struct local or parameter, or pointer to one, whose member \p ME
/// is (`s.m`, `p->m`; not nested), where the function has it: else null.
static const VarDecl *memberBase(const MemberExpr *ME) {
  // `b[i].pv` of an array of structs the function has a pointer to (ERFA's
  // eraLdn passing `b[i].pv[0]` of its `eraLDBODY b[]`).
  if (const auto *AS =
          dyn_cast<ArraySubscriptExpr>(ME->getBase()->IgnoreParenImpCasts());
      AS && !ME->isArrow()) {
    const auto *DR =
        dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return VD && VD->hasLocalStorage() && VD->getType()->isPointerType() &&
                   !VD->getType().isVolatileQualified()
               ? VD
               : nullptr;
  }
  const auto *DR = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType().isVolatileQualified() ||
      ME->isArrow() != VD->getType()->isPointerType())
    return nullptr;
  return VD;
}

const MemberExpr *Lowerer::memberOutArg(const Expr *A) const {
  QualType T = A->getType();
  if (!T->isPointerType() || T->getPointeeType().isVolatileQualified())
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(arrayOutRoot(A));
  const auto *AT = ME ? Ctx.getAsConstantArrayType(ME->getType()) : nullptr;
  if (!AT)
    return nullptr;
  QualType El = Ctx.getBaseElementType(ME->getType());
  std::optional<Type> ETy = irType(El);
  if (!ETy || *ETy == Type::Bool || !constantRowsOf(Ctx, ME->getType(), El) ||
      !constantRowsOf(Ctx, T->getPointeeType(), El) ||
      Ctx.getConstantArrayElementCount(AT) > (uint64_t)LocalArrayMax)
    return nullptr;
  // A member of the struct itself (`s.eb`, `p->eb`; not nested), a local
  // or parameter, or a pointer to one.
  const VarDecl *VD = memberBase(ME);
  if (!VD)
    return nullptr;
  const Frame &Fr = Frames.back();
  if (!Fr.Structs.count(VD) && !Fr.RecPtrs.count(VD))
    return nullptr;
  return ME;
}

int Lowerer::copiedOutPass(const Expr *A, const ParmVarDecl *To,
                           const std::string &Callee, ir::ExternCall &X,
                           std::vector<int> &Args,
                           std::vector<ExternOutArg> &Outs) {
  if (int V = arrayOutArg(A); V >= 0)
    return arrayOutPass(A, V, To, Callee, X, Args, Outs);
  int Len;
  if (int P = paramCopyArg(A, To, &Len); P >= 0)
    return paramOutPass(A, P, Len, To, Callee, X, Args, Outs);
  if (const MemberExpr *ME = memberOutArg(A))
    return memberOutPass(A, ME, Callee, X, Args, Outs);
  const MemberExpr *ME = memberScalarArg(A);
  if (!ME)
    return -1;
  // `&astrom->em`: a scalar of the example's, as `&v` is.
  bool Const = A->getType()->getPointeeType().isConstQualified();
  LValue L = lvalue(ME, Const ? "reading" : "writing");
  return L.ok() && externOutArg(A, L, memberText(ME), ME->getType(), Const,
                                Callee, X, Args, Outs);
}

std::string Lowerer::memberText(const MemberExpr *ME) const {
  const SourceManager &SM = Ctx.getSourceManager();
  return Lexer::getSourceText(SM.getExpansionRange(ME->getSourceRange()), SM,
                              Ctx.getLangOpts())
      .str();
}

const MemberExpr *Lowerer::memberScalarArg(const Expr *A) const {
  QualType T = A->getType();
  const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
  if (!T->isPointerType() || T->getPointeeType().isVolatileQualified() || !UO ||
      UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParens());
  std::optional<Type> ETy = ME ? irType(ME->getType()) : std::nullopt;
  if (!ETy || *ETy == Type::Bool || ME->getType().isVolatileQualified() ||
      !Ctx.hasSameUnqualifiedType(ME->getType(), T->getPointeeType()))
    return nullptr;
  const VarDecl *VD = memberBase(ME);
  const Frame &Fr = Frames.back();
  return VD && (Fr.Structs.count(VD) || Fr.RecPtrs.count(VD)) ? ME : nullptr;
}

bool Lowerer::memberOutPass(const Expr *A, const MemberExpr *ME,
                            const std::string &Callee, ir::ExternCall &X,
                            std::vector<int> &Args,
                            std::vector<ExternOutArg> &Outs) {
  std::string Name = memberText(ME);
  // The member's elements (a local struct's leaf, or a record's, at the
  // record's offset), and where the argument points among them.
  PtrVal PM, PA;
  if (!ptrValue(ME, PM) || !ptrValue(A, PA))
    return false;
  if (!(PA.Base == PM.Base) || PM.Base.Multi >= 0 || PM.Base.One ||
      PM.Id >= 0 || PA.Id >= 0) {
    error(A->getBeginLoc(),
          "passing a pointer into '" + Name + "' to '" + Callee +
              "', which is called once per example,",
          "pass the member itself, a row of it or an element's address");
    return false;
  }
  // One copy per member and call: a second argument into it (or the
  // struct passed whole besides) would see another copy.
  for (const ExternOutArg &O : Outs)
    if (O.L.Var == PM.Base.Var && O.L.Arg == PM.Base.Arg) {
      error(A->getBeginLoc(),
            "passing '" + Name + "' to '" + Callee +
                "', which is called once per example, with another argument "
                "into the same struct",
            "each argument gets a copy of the example's values: pass the "
            "member once (copy it into a local array for the other)");
      return false;
    }
  QualType PT = A->getType()->getPointeeType();
  bool Const = Ctx.getBaseElementType(PT).isConstQualified();
  // Where the callee may write the copy, the member must be one the
  // function may write: not of a const parameter or a table of the file.
  if (!Const && PM.Base.Arg >= 0 &&
      (F.Params[PM.Base.Arg].Kind != ir::ParamKind::User ||
       !F.Params[PM.Base.Arg].Writable)) {
    error(A->getBeginLoc(),
          "passing '" + Name +
              "', a member of structs the function does not write (const, "
              "or the file's), to '" +
              Callee + "' as a pointer to non-const,",
          "declare the parameter const where this file declares '" + Callee +
              "' (its copy is then only read), or copy the member into a "
              "local array and pass that");
    return false;
  }
  QualType El = Ctx.getBaseElementType(PT).getUnqualifiedType();
  ir::ExternCall::Struct St;
  St.CType = El.getCanonicalType().getAsString(Ctx.getPrintingPolicy());
  St.Len = (int)Ctx.getConstantArrayElementCount(
      Ctx.getAsConstantArrayType(ME->getType()));
  for (int E = 0; E < St.Len; ++E) {
    LValue L;
    L.Var = PM.Base.Var;
    L.Arg = PM.Base.Arg;
    L.Idx = PM.Off < 0 ? B.constI(Type::I32, E)
                       : B.add(PM.Off, B.constI(Type::I32, E));
    St.Members.push_back({"[" + std::to_string(E) + "]", (int)X.Outs.size()});
    ir::ExternCall::Out O;
    O.Arg = (int)Args.size();
    O.CType = St.CType;
    O.Name = O.Array = Name;
    X.Outs.push_back(std::move(O));
    Outs.push_back({L, A->getBeginLoc(), Const});
    Args.push_back(load(L));
  }
  int K = (int)X.Structs.size();
  X.Structs.push_back(std::move(St));
  // The argument's offset from the member's first element.
  int Off = PA.Off;
  if (PM.Off >= 0)
    Off = B.sub(PA.Off < 0 ? B.constI(Type::I32, 0) : PA.Off, PM.Off);
  arrayOutRef(A, K, Off, X, Args);
  return true;
}

bool Lowerer::structArrayOut(const Expr *A, const LValue &At, int64_t Inner,
                             const std::vector<std::string> &Paths,
                             const std::string &CType, const std::string &Name,
                             bool Const, const std::string &Callee,
                             ir::ExternCall::Struct &St, ir::ExternCall &X,
                             std::vector<int> &Args,
                             std::vector<ExternOutArg> &Outs) {
  for (const ExternOutArg &O : Outs)
    if (O.L.Var == At.Var && O.L.Arg == At.Arg) {
      error(A->getBeginLoc(),
            "passing '&" + Name + "' twice to '" + Callee +
                "', which is called once per example,",
            "each out-pointer gets a scalar of its own: pass each "
            "variable's address once (copy it into another local for the "
            "second)");
      return false;
    }
  // Element J: of a local struct's leaf, J; of a record's, J elements of
  // the leaf apart from the record's first.
  for (int J = 0; J < (int)Paths.size(); ++J) {
    LValue L = At;
    int Step = B.constI(Type::I32, (int)(J * Inner));
    L.Idx = At.Idx < 0 ? Step : B.add(At.Idx, Step);
    St.Members.push_back({Paths[J], (int)X.Outs.size()});
    ir::ExternCall::Out O;
    O.Arg = (int)Args.size();
    O.CType = CType;
    O.Name = Name;
    X.Outs.push_back(std::move(O));
    Outs.push_back({L, A->getBeginLoc(), Const});
    Args.push_back(load(L));
  }
  return true;
}

} // namespace lowering
} // namespace batchdiff
