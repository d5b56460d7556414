//===- LowerBatchedCall.cpp - calls of other files' batch functions -------===//
//
// A function marked batch and/or diff where this file declares it (its
// header) and defined in another file has NAME_batched and NAME_grad there,
// with the ABI its declaration gives (CONTRACT.md: the signature and the
// annotations only). A call of it is made by the lanes that are on together,
// through those functions, instead of once per lane on the scalar function;
// NAME_grad's shadows give its partial derivatives, so a diff function can
// differentiate through it (docs/calls.md, "Batch functions of other
// files").
//
//===----------------------------------------------------------------------===//
#include "attributes/Attributes.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace batchdiff {
namespace lowering {

using ir::Type;

/// The callee's parameter or result type as the generated ABI spells it.
static std::string abiType(QualType T, const ASTContext &Ctx) {
  return T.getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
}

} // namespace lowering

std::string abiDeclaration(const clang::FunctionDecl *FD, bool Grad,
                           llvm::ArrayRef<std::string> Types) {
  using namespace clang;
  auto Spell = [&](QualType T) {
    return T.getCanonicalType().getUnqualifiedType().getAsString(
        FD->getASTContext().getPrintingPolicy());
  };
  std::string D = Spell(FD->getReturnType()) + " " + FD->getNameAsString() +
                  "(";
  for (const ParmVarDecl *P : FD->parameters()) {
    D += P->getFunctionScopeIndex() ? ", " : "";
    D += isUniform(P) ? "uniform " : "";
    D += isPackedOffsets(P) ? "packed " : isPackedPointers(P) ? "pointers " : "";
    D += Grad && isNoDiff(P) ? "nodiff " : "";
    unsigned I = P->getFunctionScopeIndex();
    D += I < Types.size() && !Types[I].empty() ? Types[I] : Spell(P->getType());
  }
  return D + (Grad ? "):grad" : "):batched");
}

std::string abiPointer(clang::QualType Elem, clang::ASTContext &Ctx) {
  return lowering::abiType(
      Ctx.getPointerType(Elem.getUnqualifiedType().withConst()), Ctx);
}

namespace lowering {

bool Lowerer::batchedCallee(const CallExpr *CE,
                            const FunctionDecl *Callee) const {
  if (!hasBatch(Callee) && !hasDiff(Callee))
    return false;
  const FunctionDecl *Def = Callee->getDefinition();
  // (A C library function the file marks, `double scalbln(double, long)
  // __attribute__((batch));`, is the library's: no NAME_batched of it
  // exists; diagnoseUnusedFunctionMarks says the mark has no effect.)
  if ((Def && Def->hasBody()) || !Callee->isExternallyVisible() ||
      !Callee->hasPrototype() || Callee->getBuiltinID())
    return false;
  // Declared in this file or its headers, whatever else declares it later:
  // a C library header may declare the name too (glibc's gamma, which
  // <math.h> brings in after the file's first generated function).
  bool Own = false;
  for (const FunctionDecl *D : Callee->redecls())
    Own |= !Ctx.getSourceManager().isInSystemHeader(D->getLocation());
  if (!Own || !batchedSignature(CE, Callee, true))
    return false;
  // An array parameter of this function with a derivative, which the
  // batched call cannot pass with its shadow (batchedArrayPass), goes to
  // a call per example with the callee's NAME_grad where one can take it
  // (a copy of the example's elements: paramCopyArg, LaneGrad.cpp).
  for (unsigned I = 0; I < CE->getNumArgs() && I < Callee->getNumParams(); ++I)
    if (paramCopyArg(CE->getArg(I), Callee->getParamDecl(I)) >= 0)
      return !laneGradCallee(CE, Callee);
  return true;
}

bool Lowerer::batchedSignature(const CallExpr *CE, const FunctionDecl *Callee,
                               bool Arrays) const {
  // Scalar parameters and result only: their ABI is one array of n values
  // each (or one value, BD_UNIFORM).
  QualType RT = Callee->getReturnType();
  if (Callee->isVariadic() || Callee->getNumParams() != CE->getNumArgs() ||
      RT->isVoidType() || !irType(RT))
    return false;
  // Pointers: a table or an array parameter of the caller that the callee
  // does not write (batchedArrayArg).
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    const Expr *A = CE->getArg(I);
    if (Arrays && P->getType()->isPointerType()
            ? !batchedArrayArg(A, P)
            : !irType(P->getType()) || !irType(A->getType()))
      return false;
  }
  return true;
}

QualType Lowerer::batchedElement(const Expr *A, const ParmVarDecl *P) const {
  QualType El = P->getType()->getPointeeType();
  if (!El->isVoidType())
    return El;
  // (`void *`, cephes' polevl(double, void *, int): the argument's.)
  if (const VarDecl *VD = tableArg(A))
    if (const ArrayType *AT = Ctx.getAsArrayType(VD->getType()))
      return AT->getElementType();
  QualType AT = A->IgnoreParenImpCasts()->getType();
  if (const ArrayType *Arr = Ctx.getAsArrayType(AT))
    return Arr->getElementType();
  return AT->isPointerType() ? AT->getPointeeType() : QualType();
}

bool Lowerer::batchedArrayArg(const Expr *A, const ParmVarDecl *P) const {
  QualType Declared = P->getType()->getPointeeType();
  QualType El = batchedElement(A, P);
  std::optional<Type> T = El.isNull() ? std::nullopt : irType(El);
  if (El.isNull() || Declared.isVolatileQualified() ||
      El.isVolatileQualified() || !T || *T == Type::Bool)
    return false;
  auto Same = [&](QualType E) { return Ctx.hasSameUnqualifiedType(E, El); };
  if (const VarDecl *VD = tableArg(A)) {
    const ArrayType *AT = Ctx.getAsArrayType(VD->getType());
    return AT && Same(AT->getElementType());
  }
  int I = varyingArrayArg(offsetBase(A));
  QualType AT = A->IgnoreParenImpCasts()->getType();
  if (I < 0 || !AT->isPointerType() || !Same(AT->getPointeeType()))
    return false;
  // (A BD_UNIFORM array the function writes: one array for the batch,
  // call-extern-array-nonconst. One per example: each example's array, as
  // the caller has it, whether it writes it or not.)
  const ir::Param &Pa = F.Params[I];
  // A parameter not declared const takes only what this function does not
  // write: the call references the ABI with a pointer to const, which a
  // callee that writes it does not define (abiDeclaration).
  if (!Declared.isConstQualified() && Pa.Writable)
    return false;
  return !Pa.Uniform || !Pa.Writable;
}

std::pair<std::string, std::string>
Lowerer::batchedWhyNot(const CallExpr *CE, const FunctionDecl *Callee) const {
  std::string Name = "'" + Callee->getNameAsString() + "'";
  std::string Marks = hasBatch(Callee) && hasDiff(Callee) ? "batch, diff"
                      : hasDiff(Callee)                   ? "diff"
                                                          : "batch";
  std::string Is = "is marked " + Marks + " where this file declares it, but ";
  // (Without diff it would give no derivative through NAME_batched either.)
  std::string There =
      (hasDiff(Callee) ? "" : " and mark " + Name + " batch, diff") +
      " where " + Name + " is declared and defined";
  if (!Callee->hasPrototype() || Callee->isVariadic())
    return {Is + "it is declared without a prototype or with '...'",
            "declare its parameters" + There};
  QualType RT = Callee->getReturnType();
  if (RT->isVoidType() || !irType(RT))
    return {Is + "it returns '" + RT.getAsString(Ctx.getPrintingPolicy()) + "'",
            "return a number from it" + There};
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    const Expr *A = CE->getArg(I);
    if (!P->getType()->isPointerType() || batchedArrayArg(A, P))
      continue;
    QualType Declared = P->getType()->getPointeeType();
    QualType El = batchedElement(A, P);
    std::string Par = P->getName().empty()
                          ? "parameter " + std::to_string(I + 1)
                          : "'" + P->getNameAsString() + "'";
    std::optional<Type> T = El.isNull() ? std::nullopt : irType(El);
    if (!El.isNull() && (!T || *T == Type::Bool || El.isVolatileQualified() ||
                         Declared.isVolatileQualified()))
      return {Is + "its parameter " + Par + " points to '" +
                  El.getAsString(Ctx.getPrintingPolicy()) + "'",
              "give it parameters of numbers and of pointers to numbers "
              "(not _Bool)" +
                  There};
    std::string Text = Lexer::getSourceText(
                           CharSourceRange::getTokenRange(A->getSourceRange()),
                           Ctx.getSourceManager(), Ctx.getLangOpts())
                           .str();
    int Own = varyingArrayArg(offsetBase(A));
    if (Own >= 0 && T && !Declared.isConstQualified() &&
        F.Params[Own].Writable) {
      std::string E =
          El.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
      return {Is + "its parameter " + Par + " is a pointer to non-const '" +
                  (Declared->isVoidType() ? "void" : E) +
                  "' and the argument '" + Text +
                  "' is an array this function may write (a batch function "
                  "of another file is passed only arrays it cannot write)",
              "declare '" + F.Params[Own].Name + "' const in this function, "
                  "or " + Par + " 'const " + E + " *'" + There +
                  ", if it does not write the array"};
    }
    return {Is + "the argument '" + Text + "' of its parameter " + Par +
                " is neither a table nor an array parameter of this "
                "function",
            "pass a table or an array parameter of this function there" +
                (hasDiff(Callee) ? std::string() : "," + There)};
  }
  return {Is + "it is declared only in system headers",
          "declare it in this file or one of its own headers" + There};
}

bool Lowerer::batchedArrayPass(const Expr *A, const FunctionDecl *Callee,
                               ir::ExternCall &X,
                               ir::ExternCall::CalleeParam &CP,
                               std::vector<int> &Args) {
  std::string Name = Callee->getNameAsString();
  CP.Array = true;
  int Off = -1;
  if (const VarDecl *VD = tableArg(A)) {
    CP.Ptr = VD->getNameAsString();
    if (VD->isStaticLocal()) { // (a copy: the generated code cannot name it)
      ir::ExternCall::Table T;
      if (!tableCopy(VD, T)) {
        error(A->getBeginLoc(),
              "passing the static local table '" + VD->getNameAsString() +
                  "' to '" + Name + "', a batch function of another file,",
              "pass a one-dimensional table of numbers with a constant "
              "initializer, or a file-scope 'const' table");
        return false;
      }
      CP.Ptr = "__bd_tb" + std::to_string(X.Tables.size());
      X.Tables.push_back(std::move(T));
    }
  } else {
    int I = varyingArrayArg(offsetBase(A));
    const ir::Param &P = F.Params[I];
    // NAME_grad's shadow of the array would need the seed of this call's
    // result, which the partials (seed 1, Op::Tie) do not carry.
    if (WantGrad && ir::isFloat(P.Ty) && !P.NoDiff) {
      error(A->getBeginLoc(),
            "passing the array parameter '" + P.Name +
                "', which has a derivative, to '" + Name +
                "', a batch function of another file,",
            "batchdiff passes arrays to its NAME_grad without their shadows, "
            "so the derivative through the array would be lost; annotate '" +
                P.Name +
                "' BD_NODIFF, use 'batch' without 'diff', or define '" + Name +
                "' in this file (static inline in the header that declares "
                "it) so that it is inlined and differentiated");
      return false;
    }
    if (!arrayOffset(A, I, Off))
      return false;
    CP.Ptr = "__bd_p" + std::to_string(I);
    CP.Caller = P.Uniform ? -1 : I;
    ExternWhole.insert({I, Name});
  }
  CP.Offset = Off >= 0;
  Args.push_back(Off >= 0 ? Off : B.constI(Type::I64, 0));
  return true;
}

bool Lowerer::recursionBatched(const CallExpr *CE,
                               const FunctionDecl *Callee) const {
  // Only where a derivative may flow (a float result and argument): other
  // recursive calls stay scalar ones, whose frames are smaller.
  // A static function's wrappers are declared before the call where it is
  // the one being generated (EmitC.cpp) or defined before it (after its
  // definition, or its declarations there if deferred).
  const FunctionDecl *Def = Callee->getDefinition();
  bool Before = Callee->getCanonicalDecl() == Top->getCanonicalDecl() ||
                (Def && Ctx.getSourceManager().isBeforeInTranslationUnit(
                            Def->getEndLoc(), Top->getBeginLoc()));
  if (!hasDiff(Top) || !hasDiff(Callee) ||
      (!Before && !Callee->isExternallyVisible()) ||
      !batchedSignature(CE, Callee, false) ||
      !Callee->getReturnType()->isRealFloatingType())
    return false;
  bool FloatArg = false;
  for (const ParmVarDecl *P : Callee->parameters())
    FloatArg |= P->getType()->isRealFloatingType();
  return FloatArg;
}

int Lowerer::batchedCall(const CallExpr *CE, const FunctionDecl *Callee,
                         bool SameFile) {
  QualType RT = Callee->getReturnType();
  Type RTy = *irType(RT);
  ir::ExternCall X;
  X.Name = Callee->getNameAsString();
  X.Ty = abiType(RT, Ctx);
  X.AnyThread = true; // the generated functions are reentrant
  ir::ExternCall::Callee C;
  C.HasBatched = hasBatch(Callee);
  C.HasGrad = hasDiff(Callee);
  // (Pointers as pointers to const: what the callee's file spells for
  // arrays it does not write, abiDeclaration.)
  std::vector<std::string> Spelled(CE->getNumArgs());
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (Callee->getParamDecl(I)->getType()->isPointerType())
      Spelled[I] = abiPointer(
          batchedElement(CE->getArg(I), Callee->getParamDecl(I)), Ctx);
  C.AbiBatched = abiDeclaration(Callee, false, Spelled);
  C.AbiGrad = abiDeclaration(Callee, true, Spelled);
  C.SameFile = SameFile;
  std::vector<int> Args;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    ir::ExternCall::CalleeParam CP;
    CP.Uniform = isUniform(P);
    if (P->getType()->isPointerType()) { // (an array: an offset)
      QualType El = batchedElement(CE->getArg(I), P);
      CP.CType = abiType(El, Ctx);
      CP.ArrayShadow = ir::isFloat(*irType(El)) && !isNoDiff(P);
      if (!batchedArrayPass(CE->getArg(I), Callee, X, CP, Args))
        return -1;
      C.Params.push_back(CP);
      continue;
    }
    Type PTy = *irType(P->getType());
    int T = expr(CE->getArg(I));
    if (T < 0)
      return -1;
    Args.push_back(B.cast(PTy, T));
    CP.CType = abiType(P->getType(), Ctx);
    CP.Shadow = ir::isFloat(PTy) && !isNoDiff(P);
    C.Params.push_back(CP);
  }
  // Its value carries no derivative without NAME_grad, nor in a function
  // whose NAME_hvp would need the callee's second derivatives.
  bool Partials = ir::isFloat(RTy) && C.HasGrad && !hasHvpDiff(Top);
  X.Why = !ir::isFloat(RTy) || Partials ? ir::ExternCall::Outside
          : C.HasGrad                   ? ir::ExternCall::BatchedHvp
                                        : ir::ExternCall::BatchedNoGrad;
  if (SameFile && X.Why == ir::ExternCall::BatchedHvp) { // (a recursion)
    X.Why = ir::ExternCall::Recursion;
    X.NoReverse = true;
    X.Via = "'" + X.Name + "'";
  }
  // (Its value carries a derivative, with its partials, unless a
  // BD_NODIFF parameter's argument does: named in that error.)
  for (size_t I = 0; Partials && I < C.Params.size(); ++I)
    if (!C.Params[I].Array &&
        ir::isFloat(*irType(Callee->getParamDecl(I)->getType())) &&
        !C.Params[I].Shadow) {
      X.Why = ir::ExternCall::BatchedNoDiff;
      X.Via += (X.Via.empty() ? "'" : ", '") +
               Callee->getParamDecl(I)->getNameAsString() + "'";
    }
  bool Bool = RTy == Type::Bool;
  int D = F.newTemp(Bool ? Type::I32 : RTy);
  ir::Stmt &St = B.push(ir::Op::Extern, D, Args);
  St.IVal = (int)F.Externs.size();
  St.Site = (int)Sites.size();
  Sites.push_back(CE->getBeginLoc());
  std::vector<int> TieArgs{D};
  if (Partials)
    for (size_t I = 0; I < C.Params.size(); ++I) {
      if (!C.Params[I].Shadow)
        continue;
      ir::ExternCall::Out O;
      O.Partial = (int)I;
      O.CType = C.Params[I].CType;
      int P = F.newTemp(*irType(Callee->getParamDecl(I)->getType()));
      ir::Stmt &PS = B.push(ir::Op::ExternOut, P, {D});
      PS.IVal = (int)X.Outs.size();
      X.Outs.push_back(std::move(O));
      TieArgs.push_back(Args[I]);
      TieArgs.push_back(P);
    }
  X.Tied = TieArgs.size() > 1;
  X.Batched = std::move(C);
  (SameFile ? RecursionCalls : UsingCalls)[(int)F.Externs.size()] = Callee;
  F.Externs.push_back(std::move(X));
  if (Bool)
    return B.cmp(ir::Op::CmpNE, D, B.constI(Type::I32, 0));
  if (TieArgs.size() == 1)
    return D;
  int R = F.newTemp(RTy);
  B.push(ir::Op::Tie, R, TieArgs);
  return R;
}

} // namespace lowering
} // namespace batchdiff
