//===- Lower.cpp - clang AST to batchdiff IR: the entry point
//---------------===//
#include "lower/Lower.h"
#include "lower/ArrayParams.h"
#include "lower/InPlace.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"

#include "llvm/ADT/ScopeExit.h"

namespace batchdiff {
namespace lowering {

void Lowerer::error(SourceLocation Loc, llvm::StringRef What,
                    llvm::StringRef Instead) {
  Failed = true;
  Reported = true;
  if (!Seen.insert({Loc.getRawEncoding(), (What + Instead).str()}).second)
    return;
  report(Diags, DiagnosticsEngine::Error, Loc,
         "%0 is not supported in a batch/diff function; %1")
      << What << Instead;
}

bool Lowerer::tooDeep(SourceLocation Loc) {
  if (Depth < MaxDepth)
    return false;
  error(Loc,
        "code nested " + std::to_string(MaxDepth) +
            " statements and expressions deep (counting those of inlined "
            "helpers)",
        MaxDepth < FullNestDepth
            ? "nest statements, expressions and calls of helpers less "
              "deeply (the limit is " +
                  std::to_string(FullNestDepth) +
                  " where the plugin can reserve a 256 MB stack for its "
                  "work: raise the address-space limit, 'ulimit -v')"
            : std::string("nest statements, expressions and calls of "
                          "helpers less deeply"));
  // No recovery: every enclosing level would report it again.
  Stopped = true;
  return true;
}

int Lowerer::zeroOf(Type T) {
  if (T == Type::Bool)
    return B.constB(false);
  if (ir::isFloat(T))
    return B.constF(T, 0.0);
  return B.constI(T, 0);
}

/// How the generated code spells a scalar parameter or return type: an
/// enum it cannot name (anonymous, or declared in the parameter list, where
/// it is visible only inside the function) is its integer type.
static std::string scalarCType(QualType T) {
  T = T.getUnqualifiedType();
  if (const auto *ET = T->getAs<EnumType>()) {
    const EnumDecl *ED = ET->getDecl();
    if (!ED->getDeclContext()->isFileContext() ||
        (!ED->getIdentifier() && !ED->getTypedefNameForAnonDecl() &&
         !T->getAs<TypedefType>()))
      return ED->getIntegerType().getUnqualifiedType().getAsString();
  }
  return T.getAsString();
}

/// Why the file scope cannot name the struct or union that \p T is, or
/// points to or holds (through pointers and arrays): it is anonymous (no
/// tag and no typedef name of its own), or declared in a parameter list
/// (visible only inside the function). The generated functions are
/// declared at file scope and must spell their parameters' types. Empty
/// when it can.
static std::string unnameableRecord(const ASTContext &Ctx, QualType T) {
  for (;;) {
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else if (const ArrayType *AT = Ctx.getAsArrayType(T))
      T = AT->getElementType();
    else
      break;
  }
  const auto *RT = T->getAs<RecordType>();
  if (!RT)
    return "";
  const RecordDecl *RD = RT->getDecl();
  if (!RD->getIdentifier() && !RD->getTypedefNameForAnonDecl())
    return std::string("an anonymous ") + (RD->isUnion() ? "union" : "struct") +
           " type";
  const DeclContext *DC = RD->getDeclContext();
  while (isa<RecordDecl>(DC)) // (a struct defined inside another one)
    DC = DC->getParent();
  if (!DC->isFileContext())
    return "type '" + T.getUnqualifiedType().getAsString() +
           "' declared in the parameter list";
  return "";
}

/// Where \p FD's return type is written. Clang's getReturnTypeSourceRange()
/// has none when the function type carries an attribute
/// (`__attribute__((ms_abi)) _Bool f(...)`, robust fuzzer seed 10911: the
/// error had no location); then the return type of the function type under
/// the attributes, else the function's name.
static SourceRange returnTypeRange(const FunctionDecl *FD) {
  SourceRange R = FD->getReturnTypeSourceRange();
  if (R.isValid())
    return R;
  if (const TypeSourceInfo *TSI = FD->getTypeSourceInfo())
    if (auto FTL = TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>())
      R = FTL.getReturnLoc().getSourceRange();
  return R.isValid() ? R : SourceRange(FD->getLocation());
}

/// The return type: F.RetTy, or one Ret output per leaf member of a struct.
bool Lowerer::returnType() {
  QualType RT = Top->getReturnType();
  if (std::string Why = unnameableRecord(Ctx, RT); !Why.empty()) {
    error(returnTypeRange(Top), "returning " + Why,
          "declare it at file scope, with a tag or a typedef name, so that "
          "the generated functions can name it");
    return false;
  }
  if (RT->isVoidType()) {
    F.RetTy = Type::Void;
  } else if (RT->isRecordType()) {
    // One Ret output per leaf member (docs/abi.md, "Structs").
    if (!structLayout(RT, "ret_", RetLeaves, Top->getLocation(),
                      "the return value") ||
        !noUnions(RetLeaves, Top->getLocation(), WantGrad, true))
      return false;
    if (RetLeaves.empty()) {
      error(Top->getLocation(), "returning a struct without members",
            "return a scalar");
      return false;
    }
    F.RetTy = RetLeaves[0].Ty;
    for (const Leaf &L : RetLeaves)
      if (ir::isFloat(L.Ty)) {
        F.RetTy = L.Ty;
        break;
      }
    F.RetCType = RT.getUnqualifiedType().getAsString();
    F.RetNativeLayout = false;
    F.RetDense = denseMembers(RT, RetLeaves);
  } else if (auto T = irType(RT)) {
    F.RetTy = *T;
    F.RetCType = scalarCType(RT);
    F.RetNativeLayout = nativeLayout(Ctx, RT, *T);
  } else {
    error(returnTypeRange(Top), "returning type '" + RT.getAsString() + "'",
          RT->isRecordType()
              ? "return a scalar, or write each member through a scalar "
                "out-parameter such as 'double *re' (struct return values "
                "are not supported yet; structs inside the body are)"
          : RT->isAnyComplexType()
              ? "return a scalar, or write the real and imaginary parts "
                "through out-parameters 'double *re, double *im' (complex "
                "locals are supported)"
              : "return a float, double, integer or _Bool scalar");
    return false;
  }
  return true;
}

/// Parameter \p I: one ir::Param (or a struct's or a record array's), or an
/// error; every parameter keeps its index in F.Params.
void Lowerer::param(unsigned I) {
  const ParmVarDecl *P = Top->getParamDecl(I);
  QualType PT = P->getType();
  auto T = irType(PT);
  ir::Param AP;
  if (std::string Why = unnameableRecord(Ctx, PT); !Why.empty()) {
    error(P->getLocation(),
          "parameter '" + P->getNameAsString() + "' of " + Why,
          "declare it at file scope, with a tag or a typedef name, so that "
          "the generated functions can name it");
    F.Params.push_back(AP); // keeps the parameters' indices
    return;
  }
  if (PT->isRecordType()) {
    if (isPackedOffsets(P) || isPackedPointers(P)) {
      report(Diags, DiagnosticsEngine::Error, P->getLocation(),
             "%0 on struct parameter '%1': a struct passed by value is "
             "one record per example; remove it")
          << (isPackedOffsets(P) ? "BD_PACKED" : "BD_POINTERS")
          << P->getNameAsString();
      Failed = Reported = true;
    }
    if (PT.isVolatileQualified())
      error(P->getLocation(), "a volatile parameter", "remove 'volatile'");
    if (!structParam(I, P)) {
      AP.Kind = ir::ParamKind::Record; // keeps the parameters' indices
      F.Params.push_back(AP);
    }
    return;
  }
  if (isStructPtr(PT) ||
      (PT->isArrayType() &&
       Ctx.getAsArrayType(PT)->getElementType()->isRecordType())) {
    if (!recordArrayParam(I, P) && F.Params.size() == I)
      F.Params.push_back(AP); // keeps the parameters' indices
    return;
  }
  if (!T && PT->isPointerType()) {
    const Expr *Whole = nullptr;
    if (!lowerArrayParam(Top, I, Ctx, Diags, AP, &Whole))
      Failed = Reported = true;
    if (Whole)
      WholeUse[(int)I] = Whole;
    F.Params.push_back(AP);
    return;
  }
  if (!T) {
    bool Ptr = PT->isPointerType() || PT->isArrayType();
    error(P->getLocation(),
          Ptr ? "pointer or array parameter '" + P->getNameAsString() + "'"
              : "parameter '" + P->getNameAsString() + "' of type '" +
                    PT.getAsString() + "'",
          Ptr ? "pointer and array parameters are not supported yet; pass "
                "scalars"
          : PT->isAnyComplexType()
              ? "pass its real and imaginary parts as two double (or float) "
                "parameters and make a complex local of them ('double "
                "complex z = re + im * I;')"
              : "use float, double, integer or _Bool parameters");
    return;
  }
  if (PT.isVolatileQualified())
    error(P->getLocation(), "a volatile parameter", "remove 'volatile'");
  if (isPackedOffsets(P) || isPackedPointers(P)) {
    report(Diags, DiagnosticsEngine::Error, P->getLocation(),
           "%0 on scalar parameter '%1': only pointer and array "
           "parameters have a per-example layout; remove it")
        << (isPackedOffsets(P) ? "BD_PACKED" : "BD_POINTERS")
        << P->getNameAsString();
    Failed = Reported = true;
  }
  ir::Param IP;
  IP.Name = P->getNameAsString();
  if (IP.Name.empty())
    IP.Name = "p" + std::to_string(I);
  IP.Ty = *T;
  IP.CType = scalarCType(PT);
  IP.NativeLayout = nativeLayout(Ctx, PT, *T);
  IP.Uniform = isUniform(P);
  IP.NoDiff = isNoDiff(P) || !ir::isFloat(*T);
  F.Params.push_back(IP);
}

/// 'diff' needs a floating return value or a differentiable output; a
/// function whose outputs are all integers (ERFA's eraA2tf, eraJdcalf,
/// marked diff with the rest of erfa.h) has a NAME_grad that computes them
/// and no derivative, with a warning; one without any output, an error.
bool Lowerer::checkDiff() {
  bool Outputs = false, Any = F.RetTy != Type::Void;
  for (const ir::Param &P : F.Params) {
    Outputs |= P.IsArray && P.Writable && ir::isFloat(P.Ty) && !P.NoDiff;
    Any |= P.IsArray && P.Writable;
  }
  for (const auto &[I, RA] : RecArrays)
    for (const Leaf &L : RA.Leaves) {
      Outputs |=
          F.Params[I].Writable && !F.Params[I].NoDiff && ir::isFloat(L.Ty);
      Any |= F.Params[I].Writable;
    }
  if (!WantGrad || Outputs || ir::isFloat(F.RetTy))
    return !Failed;
  if (!Any) {
    error(Top->getLocation(), "'diff' on a function returning void",
          "return the value to differentiate");
    return false;
  }
  // An integer result (a status, a count) is written as NAME_batched writes
  // it, with the outputs' gradients (no seed of its own); without a
  // floating output there are none.
  // (Once: a function waiting for a callee's body is lowered again.)
  if (!Seen.insert({Top->getLocation().getRawEncoding(), "int outputs"}).second)
    return !Failed;
  report(Diags, DiagnosticsEngine::Warning, Top->getLocation(),
         "'diff' on '%0', whose outputs are all integers: '%0_grad' computes "
         "them as '%0_batched' does and no derivative (every shadow is left "
         "as it is); use only 'batch' if none is wanted")
      << F.Name;
  return !Failed;
}

/// The return value's outputs (one per leaf of a struct), then the
/// globals'.
void Lowerer::outputs(const Frame &Fr) {
  for (size_t K = 0; K < RetLeaves.size() && K < Fr.RetStruct.size(); ++K) {
    const Leaf &L = RetLeaves[K];
    for (int J = 0; J < std::max(L.Len, 1); ++J) {
      ir::Output O{ir::OutKind::Ret, -1, Fr.RetStruct[K]};
      O.CType = L.CType;
      O.Member = L.Path;
      if (L.Len) { // an array member: one output ("v[2]") per element
        O.Var = F.newVar("ret_" + L.Name + "_" + std::to_string(J), L.Ty);
        B.set(O.Var, B.loadElem(Fr.RetStruct[K], B.constI(Type::I32, J)));
        O.Member += L.sub(J);
      }
      F.Outputs.push_back(O);
    }
  }
  if (F.RetTy != Type::Void && RetLeaves.empty())
    F.Outputs.push_back({ir::OutKind::Ret, -1, Fr.RetVar});
  F.Outputs.insert(F.Outputs.end(), GlobalOuts.begin(), GlobalOuts.end());
}

bool Lowerer::run() {
  F.Name = Top->getNameAsString();
  if (!returnType())
    return false;
  if (Top->isVariadic())
    error(Top->getLocation(), "a variadic function",
          "give the function a fixed parameter list");
  Frame Fr;
  Fr.FD = Top;
  for (unsigned I = 0; I < Top->getNumParams(); ++I)
    param(I);
  if (Failed || !checkDiff())
    return false;
  for (unsigned I = 0; I < Top->getNumParams(); ++I) {
    const ParmVarDecl *P = Top->getParamDecl(I);
    if (F.Params[I].Kind == ir::ParamKind::Record)
      continue; // its leaves: bindStructParams, bindRecordArrays
    if (F.Params[I].IsArray) {
      PtrVal Base;
      Base.Base.Arg = (int)I;
      bindPointer(P, &Base, Fr);
      continue;
    }
    int V = F.newVar(F.Params[I].Name, F.Params[I].Ty);
    Fr.Vars[P] = V;
    B.set(V, B.param(I));
  }
  bindStructParams(Fr);
  bindRecordArrays(Fr);
  if (!longDoubleBody(Fr))
    body(Top, Top->getBody(), Fr);
  if (Failed || Reported || !extentsFromAccesses() || !checkGlobalWrites())
    return false;
  F.Body.insert(F.Body.begin(), std::make_move_iterator(Prologue.begin()),
                std::make_move_iterator(Prologue.end()));
  outputs(Fr);
  return true;
}

Ret Lowerer::body(const FunctionDecl *FD, const Stmt *Body, Frame &Fr) {
  if (FD->getReturnType()->isVoidType()) {
    Fr.RetVar = -1;
  } else if (FD->getReturnType()->isRecordType()) {
    // (inlineCall checked its layout.)
    std::vector<Leaf> L;
    structLayout(FD->getReturnType(), "ret_", L, FD->getLocation(), "", "",
                 true);
    Fr.RetVar = -1;
    Fr.RetStruct = newStruct(L);
  } else if (FD->getReturnType()->isAnyComplexType()) {
    // (complexCall checked the part type.)
    Type PT =
        *irType(FD->getReturnType()->getAs<ComplexType>()->getElementType());
    Fr.RetVar = -1;
    Fr.RetComplex = {F.newVar("__ret_re", PT), F.newVar("__ret_im", PT)};
    B.set(Fr.RetComplex.first, zeroOf(PT));
    B.set(Fr.RetComplex.second, zeroOf(PT));
  } else {
    Type RT = *irType(FD->getReturnType());
    Fr.RetVar = F.newVar("__ret", RT);
    B.set(Fr.RetVar, zeroOf(RT));
  }
  Fr.RetFlag = F.newVar("__returned", Type::Bool);
  B.set(Fr.RetFlag, B.constB(false));
  Frames.push_back(std::move(Fr));
  if (Scanned.insert(Body).second)
    scanStatics(Ctx, Body, Scratch);
  collectTargets(Body);
  Ret R = stmt(Body);
  Fr = std::move(Frames.back());
  Frames.pop_back();
  return R;
}

static bool storesArg(const ir::Block &B, int I) {
  for (const auto &S : B)
    if ((S->K == ir::Stmt::Inst && S->Opc == ir::Op::StoreArg &&
         S->IVal == I) ||
        storesArg(S->Then, I) || storesArg(S->Else, I) || storesArg(S->Body, I))
      return true;
  return false;
}

bool Lowerer::mayWriteArray(int I) const {
  return storesArg(F.Body, I) || ExternWhole.count(I);
}

/// The function's ABI spellings with each pointer parameter it does not
/// write spelled as a pointer to const (abiDeclaration).
static std::vector<std::string>
abiSpelled(const FunctionDecl *FD, const ir::Function &F, const Lowerer &L) {
  std::vector<std::string> Spelled(FD->getNumParams());
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType El = P->getType()->isPointerType() ? P->getType()->getPointeeType()
                                                : QualType();
    if (El.isNull() || El.isConstQualified() || El.isVolatileQualified())
      continue;
    for (size_t I = 0; I < F.Params.size(); ++I)
      if (F.Params[I].Kind == ir::ParamKind::User && F.Params[I].IsArray &&
          F.Params[I].Name == P->getName() && !L.mayWriteArray((int)I))
        Spelled[P->getFunctionScopeIndex()] =
            abiPointer(El, FD->getASTContext());
  }
  return Spelled;
}

} // namespace lowering

bool lowerFunction(const clang::FunctionDecl *FD, clang::Sema &S, bool WantGrad,
                   bool Remarks, ir::Function &Out, LowerInfo &Info,
                   MissingBody *Missing, ReportedErrors *Reported,
                   unsigned MaxDepth) {
  ReportedErrors Own;
  lowering::Lowerer L(FD, S, WantGrad, Out, Missing,
                      Reported ? *Reported : Own);
  L.setMaxDepth(MaxDepth);
  // Errors found before a call to a function defined later: report them now
  // and do not wait (a retry would report them again).
  auto NoRetryAfterErrors = llvm::make_scope_exit([&] {
    if (Missing && L.reported())
      *Missing = MissingBody();
  });
  // Filled first: a deferred definition's declarations need them.
  Info.Loc = FD->getLocation();
  Info.Static = lowering::internalLinkage(FD, S.getSourceManager());
  if (!Info.Static) {
    Info.AbiBatched = abiDeclaration(FD, false);
    Info.AbiGrad = abiDeclaration(FD, true);
  }
  Info.IncludeRuntime = !lowering::runtimeDeclared(S);
  if (!L.run())
    return false;
  if (!Info.Static) {
    std::vector<std::string> Spelled = lowering::abiSpelled(FD, Out, L);
    Info.AbiBatched = abiDeclaration(FD, false, Spelled);
    Info.AbiGrad = abiDeclaration(FD, true, Spelled);
    if (std::string D = abiDeclaration(FD, true); D != Info.AbiGrad)
      Info.AbiGradDeclared = D;
  }
  if (!Info.Static) {
    bool Sets, Uses;
    L.globalEffects(Sets, Uses);
    Info.SetsNoGlobal = !Sets;
    Info.UsesNoGlobal = !Uses;
    Info.SetsGlobals = L.setsGlobals();
    for (const InPlacePromise &P : inPlacePromises(FD, S.getASTContext()))
      Info.InPlace.push_back({FD->getNameAsString() + ":" +
                                  std::to_string(P.I) + ":" +
                                  std::to_string(P.J),
                              P.Deps});
  }
  Info.LibraryCalls = L.libraryCalls().vec();
  Info.ScratchGlobals = L.scratchGlobals();
  Info.FileDecls = L.fileDecls();
  if (Remarks) {
    // Where those calls run (docs/calls.md, "Long double locals", Threads).
    bool AnyThread = true;
    for (const ir::ExternCall &X : Out.Externs)
      AnyThread &= X.AnyThread;
    if (!L.scalarBody().empty())
      report(S.getDiagnostics(), clang::DiagnosticsEngine::Remark,
             FD->getLocation(),
             "batchdiff: '%0' %1, which has no vector form: its batched "
             "version calls '%0' once per example, %2")
          << FD->getName() << L.scalarBody()
          << (AnyThread ? "on the runtime's threads (its scalar run has no "
                          "effect beyond its result)"
                        : "on the calling thread only (its scalar run may "
                          "write a global or static, or call a function of "
                          "another file or one with effects)");
    L.globalRemarks();
    lowering::paramRemarks(FD, S.getDiagnostics(), Out, WantGrad);
  }
  if (WantGrad &&
      !lowering::checkDerivatives(Out, L.sites(), S.getDiagnostics(),
                                  Reported ? *Reported : Own))
    return false;
  return true;
}

} // namespace batchdiff
