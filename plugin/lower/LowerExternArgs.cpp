//===- LowerExternArgs.cpp - out-pointers and tables of per-lane calls ----===//
//
// Arguments of calls made once per example (docs/calls.md, "Calls of
// outside functions") that are not numbers: the address of a scalar local
// or parameter (`ebd0(x, l, &yh, &yl)`: the callee gets a scalar of the
// lane's, what it leaves there goes back into the lane), and a read-only
// table passed whole (`chebyshev_eval(t, gamcs, n)`: the same address for
// every example), and a read-only BD_UNIFORM array parameter passed whole
// (`strcmp(scale, "UTC")`: one array for the batch, named as it is); for
// calls of functions computing in long double, a local array of the
// caller's passed whole as a pointer to const (a copy of the lane's
// elements); and pointers passed on (R's `lgammafn_sign(x, s_choose)`): an
// array parameter with an array per example (each example's call gets its
// own array, at the pointer's offset), a pointer to a scalar local (as
// `&v`).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/OutsideGlobals.h"
#include "lower/PassedTables.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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

int Lowerer::localArrayArg(const Expr *A) const {
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  QualType T = A->getType();
  if (!VD || !VD->hasLocalStorage() || !T->isPointerType() ||
      !T->getPointeeType().isConstQualified() ||
      T->getPointeeType().isVolatileQualified())
    return -1;
  // A pointer (a helper's parameter, a local) bound to such an array whole,
  // never re-pointed (`mid(x, a)` passing its `v` on): that array.
  if (VD->getType()->isPointerType()) {
    auto It = Frames.back().Ptrs.find(VD);
    if (It == Frames.back().Ptrs.end())
      return -1;
    const PtrVar &P = It->second;
    QualType ET = VD->getType()->getPointeeType();
    std::optional<Type> ETy = irType(ET);
    if (P.Base.Var < 0 || P.Base.Multi >= 0 || P.Base.Arg >= 0 || P.Off >= 0 ||
        P.OffVar >= 0 || P.IdVar >= 0 || !P.Hidden.isNull() || !ETy ||
        ET.isVolatileQualified())
      return -1;
    const ir::Var &V = F.Vars[P.Base.Var];
    if (V.CountVar >= 0 || V.Len < 1 || V.Len > LocalArrayMax || V.Ty != *ETy)
      return -1;
    return P.Base.Var;
  }
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  if (!AT || AT->getElementType()->isArrayType() ||
      AT->getElementType().isVolatileQualified() ||
      !irType(AT->getElementType()))
    return -1;
  auto It = Frames.back().Vars.find(VD);
  if (It == Frames.back().Vars.end())
    return -1;
  const ir::Var &V = F.Vars[It->second];
  if (V.CountVar >= 0 || V.Len < 1 || V.Len > LocalArrayMax ||
      (uint64_t)V.Len != AT->getSize().getZExtValue())
    return -1;
  return It->second;
}

QualType Lowerer::localArrayElem(const VarDecl *VD) const {
  if (VD->getType()->isPointerType())
    return VD->getType()->getPointeeType();
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  return AT ? AT->getElementType() : QualType();
}

void Lowerer::localArrayPass(const Expr *A, int V, ir::ExternCall &X,
                             std::vector<int> &Args) {
  ir::ExternCall::Array Arr;
  const auto *VD =
      cast<VarDecl>(cast<DeclRefExpr>(A->IgnoreParenImpCasts())->getDecl());
  QualType El = localArrayElem(VD);
  Arr.CType = El.getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
  Arr.First = (int)Args.size();
  Arr.Len = F.Vars[V].Len;
  for (int K = 0; K < Arr.Len; ++K)
    Args.push_back(B.loadElem(V, B.constI(Type::I32, K)));
  X.Call += "\x06" + std::to_string(X.Arrays.size()) + "\x02";
  X.Arrays.push_back(std::move(Arr));
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
  if (El.isVolatileQualified() || !irType(El))
    return nullptr;
  if (El.isConstQualified())
    return VD;
  // Not const (cephes' `static double P[]`): passed as it is where the file
  // only passes it whole to such calls, known once the file has ended
  // (Missing is null: the end-of-file retry).
  if (Missing || VD->isStaticLocal())
    return nullptr;
  auto [It, New] = PassedOnly.try_emplace(VD->getCanonicalDecl(), false);
  if (New)
    It->second = onlyPassedOut(VD, Ctx);
  return It->second ? VD : nullptr;
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

int Lowerer::varyingArrayArg(const Expr *A) const {
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isPointerType())
    return -1;
  auto It = Frames.back().Ptrs.find(VD);
  if (It == Frames.back().Ptrs.end())
    return -1;
  const PtrBase &PB = It->second.Base;
  if (PB.Arg < 0 || PB.One || PB.Multi >= 0 || PB.Var >= 0)
    return -1;
  const ir::Param &P = F.Params[PB.Arg];
  if (P.Kind != ir::ParamKind::User || !P.IsArray || P.Record >= 0)
    return -1;
  return PB.Arg;
}

int Lowerer::uniformArrayArg(const Expr *A) const {
  // (Whole or at an offset: `u`, `u + 1`, `&u[k]`.)
  int I = varyingArrayArg(offsetBase(A));
  if (I < 0)
    return -1;
  const ir::Param &P = F.Params[I];
  // Read-only for the callee too (a pointer to const where it is passed),
  // and no derivative lost in a call batchdiff cannot differentiate.
  QualType T = A->getType();
  if (!P.Uniform || P.Writable || !T->isPointerType() ||
      !T->getPointeeType().isConstQualified() ||
      (WantGrad && ir::isFloat(P.Ty) && !P.NoDiff))
    return -1;
  return I;
}

const Expr *Lowerer::offsetBase(const Expr *A) {
  // Through rows of a multi-dimensional array parameter too (ERFA's
  // `eraCp(pv[0], c)` of `double pv[2][3]`, `&pv[i][j]`, `pv[1] + k`).
  A = A->IgnoreParenImpCasts();
  for (;;) {
    if (const auto *BO = dyn_cast<BinaryOperator>(A);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getLHS()->getType()->isPointerType() &&
        BO->getRHS()->getType()->isIntegerType()) {
      A = BO->getLHS()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(A);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
          AS && AS->getIdx()->getType()->isIntegerType()) {
        A = AS->getBase()->IgnoreParenImpCasts();
        continue;
      }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(A);
        AS && AS->getType()->isArrayType() &&
        AS->getIdx()->getType()->isIntegerType()) {
      A = AS->getBase()->IgnoreParenImpCasts();
      continue;
    }
    return A;
  }
}

int Lowerer::passedArrayArg(const Expr *A) const {
  int I = varyingArrayArg(offsetBase(A));
  if (I < 0)
    return -1;
  const ir::Param &P = F.Params[I];
  // No derivative lost in a call batchdiff cannot differentiate.
  if (P.Uniform || (WantGrad && ir::isFloat(P.Ty) && !P.NoDiff))
    return -1;
  return I;
}

const VarDecl *Lowerer::scalarPointerArg(const Expr *A) const {
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isPointerType() ||
      VD->getType().isVolatileQualified())
    return nullptr;
  auto It = Frames.back().Ptrs.find(VD);
  if (It == Frames.back().Ptrs.end())
    return nullptr;
  const PtrVar &P = It->second;
  if (P.Base.Multi >= 0 || !scalarBase(P.Base) || P.OffVar >= 0 ||
      P.IdVar >= 0 || !P.Hidden.isNull())
    return nullptr;
  // The callee's scalar has the pointee's C type: the variable's own.
  QualType ET = VD->getType()->getPointeeType();
  std::optional<Type> T = irType(ET);
  Type VT = P.Base.One ? F.Params[P.Base.Arg].Ty : F.Vars[P.Base.Var].Ty;
  if (!T || *T == Type::Bool || *T != VT || ET.isVolatileQualified())
    return nullptr;
  return VD;
}

std::string Lowerer::paramArrayText(int I, const std::string &Ty) const {
  // ("\x05k\x02": parameter k's array, one for the batch; "\x07k\x02": the
  // lane's example's array of parameter k, ExternCall.cpp.)
  return "((" + Ty + ")(" + (F.Params[I].Uniform ? "\x05" : "\x07") +
         std::to_string(I) + "\x02";
}

bool Lowerer::uniformArrayPass(const Expr *A, int I, const std::string &Callee,
                               ir::ExternCall &X, std::vector<int> &Args) {
  // The generated code names the array's pointer (one for the batch; with
  // an array per example, the lane's example's), at the offset the pointer
  // has (a helper's parameter `s + k`, `s++`; `x + 1`, `&x[k]`).
  int Off;
  if (!arrayOffset(A, I, Off))
    return false;
  X.Call +=
      paramArrayText(I, A->getType().getAsString(Ctx.getPrintingPolicy()));
  if (Off >= 0) {
    X.Call += " + \x01" + std::to_string(Args.size()) + "\x02";
    Args.push_back(Off);
  }
  X.Call += "))";
  ExternWhole.insert({I, Callee});
  return true;
}

bool Lowerer::arrayOffset(const Expr *A, int I, int &Off) {
  if (F.Params[I].Uniform && isa<DeclRefExpr>(A->IgnoreParenImpCasts())) {
    const auto *VD =
        cast<VarDecl>(cast<DeclRefExpr>(A->IgnoreParenImpCasts())->getDecl());
    const PtrVar &P = Frames.back().Ptrs.find(VD)->second;
    Off = P.OffVar >= 0 ? B.get(P.OffVar) : P.Off;
    return true;
  }
  PtrVal V;
  if (!ptrValue(A, V))
    return false;
  Off = V.Off;
  return true;
}

void Lowerer::externArrayError(const Expr *A, int I,
                               const std::string &Callee) {
  const ir::Param &P = F.Params[I];
  std::string To = "to '" + Callee + "', which is called once per example,";
  if (!P.Uniform) { // (passedArrayArg refuses it: it has a derivative)
    error(A->getBeginLoc(),
          "passing the array parameter '" + P.Name +
              "', which has a derivative, " + To,
          "its derivative through the call is unknown to batchdiff: annotate "
          "it BD_NODIFF, or use 'batch' without 'diff'");
    return;
  }
  QualType T = A->getType();
  if (P.Writable || !T->isPointerType() ||
      !T->getPointeeType().isConstQualified()) {
    error(A->getBeginLoc(),
          "passing the BD_UNIFORM array '" + P.Name +
              "' as a pointer to non-const " + To,
          "pass it where the callee takes a pointer to const ('const " +
              (T->isPointerType()
                   ? T->getPointeeType().getUnqualifiedType().getAsString()
                   : std::string("T")) +
              " *') and do not write it: one array serves the whole batch");
    return;
  }
  error(A->getBeginLoc(),
        "passing the BD_UNIFORM array '" + P.Name +
            "', which has a derivative, " + To,
        "its derivative through the call is unknown to batchdiff: annotate "
        "it BD_NODIFF, or use 'batch' without 'diff'");
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
  if (const VarDecl *PV = scalarPointerArg(A)) {
    // The variable it points at, as `&v` (a pointer to const: only read).
    const PtrVar &P = Frames.back().Ptrs.find(PV)->second;
    PtrVal V;
    V.Base = P.Base;
    V.Off = P.Off;
    bool Const = A->getType()->getPointeeType().isConstQualified();
    LValue L = pointee(V, nullptr, A, Const ? "reading" : "writing");
    if (!L.ok() ||
        !externOutArg(A, L, baseName(P.Base), PV->getType()->getPointeeType(),
                      Const, Callee, X, Args, Outs))
      return false;
    passedOutNotes(PV, X.Outs.back());
    return true;
  }
  const VarDecl *VD = outPointerArg(A);
  const Expr *E = cast<UnaryOperator>(A->IgnoreParenImpCasts())->getSubExpr();
  bool Const = VD->getType().isConstQualified();
  LValue L = lvalue(E, Const ? "reading" : "writing");
  return L.ok() && externOutArg(A, L, VD->getNameAsString(), VD->getType(),
                                Const, Callee, X, Args, Outs);
}

bool Lowerer::externOutArg(const Expr *A, const LValue &L,
                           const std::string &Name, QualType CT, bool Const,
                           const std::string &Callee, ir::ExternCall &X,
                           std::vector<int> &Args,
                           std::vector<ExternOutArg> &Outs,
                           const std::string &CText, bool Member) {
  for (const ExternOutArg &O : Outs)
    if (O.L.Var == L.Var && O.L.Arg == L.Arg) {
      error(A->getBeginLoc(),
            "passing '&" + Name + "' twice to '" + Callee +
                "', which is called once per example,",
            "each out-pointer gets a scalar of its own: pass each "
            "variable's address once (copy it into another local for the "
            "second)");
      return false;
    }
  int T = load(L);
  if (!Member)
    X.Call += "\x03" + std::to_string(X.Outs.size()) + "\x02";
  ir::ExternCall::Out O;
  O.Arg = (int)Args.size();
  O.CType = !CText.empty()
                ? CText
                : CT.getCanonicalType().getUnqualifiedType().getAsString(
                      Ctx.getPrintingPolicy());
  O.Name = Name;
  X.Outs.push_back(std::move(O));
  Outs.push_back({L, A->getBeginLoc(), Const});
  Args.push_back(T);
  return true;
}

const VarDecl *Lowerer::structOutArg(const Expr *A) const {
  QualType T = A->getType();
  if (!T->isPointerType() || !T->getPointeeType()->isStructureType() ||
      T->getPointeeType().isVolatileQualified())
    return nullptr;
  const Expr *E = A->IgnoreParenImpCasts();
  bool Addr = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf) {
    E = UO->getSubExpr()->IgnoreParens();
    Addr = true;
  }
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  // `&s` of a struct local (or parameter), or a pointer to a struct
  // (a parameter of the function or of a helper) passed on.
  if (!VD || VD->getType().isVolatileQualified() ||
      (Addr ? !VD->hasLocalStorage() || !VD->getType()->isStructureType()
            : !VD->getType()->isPointerType()))
    return nullptr;
  // (Members structOutPass cannot pass are its error.) A pointer to the
  // records of a parameter (`gsl_sf_result *result`), whole: its record 0.
  if (auto R = Frames.back().RecPtrs.find(VD);
      !Addr && R != Frames.back().RecPtrs.end())
    return R->second.Param >= 0 && R->second.Idx < 0 && R->second.Whole
               ? VD
               : nullptr;
  auto It = Frames.back().Structs.find(VD);
  if (It == Frames.back().Structs.end() || It->second.empty())
    return nullptr;
  return VD;
}

bool Lowerer::structOutPass(const Expr *A, const VarDecl *VD,
                            const std::string &Callee, ir::ExternCall &X,
                            std::vector<int> &Args,
                            std::vector<ExternOutArg> &Outs) {
  QualType RT = A->getType()->getPointeeType();
  bool Const = RT.isConstQualified();
  std::string Name = VD->getNameAsString();
  std::vector<Leaf> L;
  if (!structLayout(RT.getUnqualifiedType(), "", L, A->getBeginLoc(),
                    "the struct '" + Name + "'"))
    return false;
  // The members: the variables of a struct, or record 0 of a parameter's.
  std::vector<LValue> Ls;
  std::vector<int64_t> Inner; // (an array member's elements apart)
  if (auto R = Frames.back().RecPtrs.find(VD);
      R != Frames.back().RecPtrs.end()) {
    for (unsigned K = 0; K < R->second.Count; ++K) {
      Ls.push_back(recordLeaf(R->second, K));
      Inner.push_back(leafInner(R->second.Param, R->second.Start + K));
      if (!Const && Ls.back().Arg >= 0 && !F.Params[Ls.back().Arg].Writable)
        Ls.clear(); // (read only: refused below)
    }
  } else {
    for (int V : Frames.back().Structs.find(VD)->second) {
      Ls.emplace_back();
      Ls.back().Var = V;
      Inner.push_back(1);
    }
  }
  // The generated code names the struct's type: its tag, or its typedef.
  const RecordDecl *RD = RT->getAsRecordDecl();
  std::string CType = RD->getIdentifier() ? "struct " + RD->getNameAsString()
                      : RD->getTypedefNameForAnonDecl()
                          ? RD->getTypedefNameForAnonDecl()->getNameAsString()
                          : std::string();
  const DeclContext *DC = RD->getDeclContext();
  while (isa<RecordDecl>(DC))
    DC = DC->getParent();
  bool Plain = L.size() == Ls.size();
  // (Array members of numbers too, ERFA's eraASTROM: element by element.)
  for (const Leaf &Lf : L)
    Plain &= Lf.Tail.empty() && Lf.Len <= LocalArrayMax && Lf.Union.empty() &&
             !Lf.Ptr && Lf.Ty != Type::Bool;
  if (CType.empty() || !DC->isFileContext() || !Plain) {
    error(A->getBeginLoc(),
          "passing '" + Name + "', a struct of type '" +
              RT.getUnqualifiedType().getAsString() + "', to '" + Callee +
              "', which is called once per example,",
          "such a struct may have members of numbers (scalars, arrays of at "
          "most " +
              std::to_string(LocalArrayMax) +
              " elements, nested structs of them) and a type declared at "
              "file scope with a tag or a typedef name");
    return false;
  }
  ir::ExternCall::Struct St;
  St.CType = CType;
  for (size_t K = 0; K < L.size(); ++K) {
    if (L[K].Len) {
      std::vector<std::string> Paths;
      for (int J = 0; J < L[K].Len; ++J)
        Paths.push_back(L[K].Path + L[K].sub(J));
      if (!structArrayOut(A, Ls[K], Inner[K], Paths, L[K].CType, Name, Const,
                          Callee, St, X, Args, Outs))
        return false;
      continue;
    }
    St.Members.push_back({L[K].Path, (int)X.Outs.size()});
    if (!externOutArg(A, Ls[K], Name, QualType(), Const, Callee, X, Args, Outs,
                      L[K].CType, true))
      return false;
  }
  X.Call += "\x08" + std::to_string(X.Structs.size()) + "\x02";
  X.Structs.push_back(std::move(St));
  return true;
}

void Lowerer::passedOutNotes(const VarDecl *PV, ir::ExternCall::Out &O) {
  O.Ptr = PV->getNameAsString();
  // A helper's parameter: where each call up the chain of inlined helpers
  // bound it (`both(x, &yh, &yl)` for 'h'), innermost first, so that the
  // error at the helper's 'h' shows the caller's '&yh' too.
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I = Frames.size() - 1; I > 0 && Frames[I].Call; --I) {
    const auto *P = dyn_cast<ParmVarDecl>(PV);
    const CallExpr *CE = Frames[I].Call;
    if (!P || declFunctionContext(P) != Frames[I].FD ||
        P->getFunctionScopeIndex() >= CE->getNumArgs())
      return;
    const Expr *A = CE->getArg(P->getFunctionScopeIndex());
    std::string Text =
        Lexer::getSourceText(SM.getExpansionRange(A->getSourceRange()), SM,
                             Ctx.getLangOpts())
            .str();
    std::string Name = Frames[I].FD->getNameAsString();
    O.Notes.push_back(
        {(int)Sites.size(),
         Text.empty() || Text.size() > 40 || Text.find('\n') != Text.npos
             ? "'" + Name + "' is called here, with this argument as '" +
                   P->getNameAsString() + "'"
             : "'" + Name + "' is called here with '" + Text + "' as '" +
                   P->getNameAsString() + "'"});
    Sites.push_back(A->getBeginLoc());
    // Passed on from the caller's own pointer parameter: its binding too.
    const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
    PV = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    if (!PV || !PV->getType()->isPointerType())
      return;
  }
}

const std::vector<std::pair<const VarDecl *, int>> &Lowerer::refreshed() {
  if (Refreshed)
    return *Refreshed;
  Refreshed.emplace();
  for (const VarDecl *VD : outsideWritable(Top, Ctx)) {
    int G = globalParam(VD, VD->getLocation());
    if (G < 0)
      continue;
    int V = F.newVar(VD->getNameAsString(), F.Params[G].Ty);
    ir::Block *Saved = B.block();
    B.setBlock(&Prologue);
    B.set(V, B.param(G));
    B.setBlock(Saved);
    Refreshed->push_back({VD, V});
  }
  return *Refreshed;
}

void Lowerer::refreshAfter(ir::ExternCall &X, std::vector<int> &Args,
                           std::vector<ExternOutArg> &Outs, SourceLocation At) {
  for (const auto &[VD, V] : refreshed()) {
    ir::ExternCall::Out O;
    O.Arg = (int)Args.size();
    O.CType = VD->getType().getCanonicalType().getUnqualifiedType().getAsString(
        Ctx.getPrintingPolicy());
    O.Name = O.After = VD->getNameAsString();
    Args.push_back(B.get(V));
    X.Outs.push_back(std::move(O));
    LValue L;
    L.Var = V;
    Outs.push_back({L, At, false});
  }
}

void Lowerer::externOutStores(
    int Call, const std::vector<ExternOutArg> &Outs,
    const std::map<size_t, std::vector<LaneTie>> *Ties) {
  for (size_t K = 0; K < Outs.size(); ++K) {
    if (Outs[K].Const) // (the callee may not write it)
      continue;
    int O = F.newTemp(typeOf(Outs[K].L));
    ir::Stmt &S = B.push(Op::ExternOut, O, {Call});
    S.IVal = (int64_t)K;
    S.Site = (int)Sites.size(); // for diff-extern-out
    Sites.push_back(Outs[K].At);
    if (Ties)
      if (auto It = Ties->find(K); It != Ties->end())
        O = laneTie(Call, O, It->second);
    store(Outs[K].L, O);
    // An element of the function's own array (or struct) parameter: the
    // example's memory, which a callee that leaves the element alone did
    // not write (an input the callee's header does not declare const, as
    // ERFA declares none): stored only where its bits changed, so such an
    // input may be read-only memory or shared by examples.
    if (Outs[K].L.Arg >= 0 && !B.block()->empty() &&
        B.block()->back()->K == ir::Stmt::Inst &&
        B.block()->back()->Opc == Op::StoreArg)
      B.block()->back()->IfChanged = true;
  }
}

} // namespace lowering
} // namespace batchdiff
