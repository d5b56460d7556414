//===- LowerLongDouble.cpp - code computing in long double, per example ---===//
//
// x86-64's long double is the x87 80-bit format, which has no vector form:
// computing it in double would change the results (R's nmath declares its
// sums `LDOUBLE` for the extra bits). So a function of the file that
// computes in long double (declares a long double local, or has an
// expression of that type: `(long double)x * y`, `s += 1.0L * x`) runs, per
// example, as the scalar function: a helper's call is made once per
// example (as recursive calls and calls of other files' functions are),
// and an annotated function that does so itself gets NAME_batched as one
// such call per example (no vector code at all:
// -fplugin-arg-batchdiff-remarks says so). Results are the scalar
// function's, bit for bit. Only numbers pass (no pointer or struct
// parameter, a number or void returned), null pointers, and to a helper's
// pointer to const a local array of the caller's of at most 64 numbers,
// copied per example (localArrayArg, R's `logspace_sum(lx, 3)`; any other
// pointer is an error at the argument, longDoublePointerError). What a
// helper's tests of a pointer its call passes NULL (or a local's address)
// rule out is not counted (callLongDouble): inlined, it is not lowered
// either. The derivative of such a call is unknown (diff-long-double,
// diff-long-double-function); a helper's scalar run may not use a global
// the batch keeps per example (long-double-global). Such calls run on the
// runtime's threads when the scalar run has no effect beyond its result
// (longDoubleAnyThread: no global or static written, only the file's functions
// and side-effect-free builtins called), else on the calling thread, in the
// scalar loop's order.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "diagnostics/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace batchdiff {
namespace lowering {

namespace {

bool isLongDouble(QualType T) {
  if (T.isNull())
    return false;
  const clang::Type *B = T.getCanonicalType()->getBaseElementTypeUnsafe();
  while (const auto *PT = B->getAs<PointerType>())
    B = PT->getPointeeType().getCanonicalType()->getBaseElementTypeUnsafe();
  if (const auto *CT = B->getAs<ComplexType>())
    B = CT->getElementType().getCanonicalType().getTypePtr();
  return B->isSpecificBuiltinType(BuiltinType::LongDouble);
}

/// The functions of the file \p FD's scalar run may enter (FD, and the
/// functions with a body it calls by name, transitively), and the
/// variables of static storage they name.
void reach(const Stmt *S, llvm::SmallPtrSetImpl<const FunctionDecl *> &Fns,
           llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasGlobalStorage())
      Vars.insert(VD->getCanonicalDecl());
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (const FunctionDecl *Def = FD->getDefinition();
          Def && Def->hasBody() && Fns.insert(Def).second)
        reach(Def->getBody(), Fns, Vars);
  }
  for (const Stmt *C : astChildren(S))
    reach(C, Fns, Vars);
}

/// Whether \p S calls (or names) a function with no body here other than
/// the C library's functions without side effects (clang's builtins marked
/// const or pure: the math functions, whose errno and floating-point flags
/// are the thread's own), or holds inline assembly.
bool callsOutside(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return false;
  if (isa<AsmStmt>(S))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      const FunctionDecl *Def = FD->getDefinition();
      unsigned ID = FD->getBuiltinID();
      const Builtin::Context &BI = Ctx.BuiltinInfo;
      if (!(Def && Def->hasBody()) &&
          !(ID && (BI.isConst(ID) || BI.isPure(ID) ||
                   BI.isConstWithoutErrnoAndExceptions(ID) ||
                   BI.isConstWithoutExceptions(ID))))
        return true;
    }
  for (const Stmt *C : astChildren(S))
    if (callsOutside(C, Ctx))
      return true;
  return false;
}

/// Whether condition \p E tests a pointer as pointerTest folds tests (`p`,
/// `!p`, `p != NULL`, and `&&`, `||` of those), not reading through one.
bool testsPointer(const Expr *E) {
  E = E->IgnoreParens();
  if (E->getType()->isPointerType())
    return true;
  if (const auto *CE = dyn_cast<ImplicitCastExpr>(E))
    return CE->getCastKind() == CK_PointerToBoolean ||
           ((CE->getCastKind() == CK_IntegralToBoolean ||
             CE->getCastKind() == CK_NoOp) &&
            testsPointer(CE->getSubExpr()));
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_LNot && testsPointer(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)
      return BO->getLHS()->getType()->isPointerType();
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)
      return testsPointer(BO->getLHS()) || testsPointer(BO->getRHS());
  }
  return false;
}

} // namespace

/// Whether \p Def's scalar run may be made on any thread, the examples in
/// any order: the functions it enters write no variable of static storage
/// (a global, a static local; nor take its address), name no writable
/// array, record or pointer of static storage (what it points to could be
/// written, or called), and call nothing with a body elsewhere
/// (callsOutside). Then NAME_batched need not hold the calling thread.
/// (modifies: through any declaration of the variable.)
bool Lowerer::longDoubleAnyThread(const FunctionDecl *Def) const {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Fns;
  llvm::SmallPtrSet<const VarDecl *, 8> Vars;
  Fns.insert(Def);
  reach(Def->getBody(), Fns, Vars);
  for (const FunctionDecl *FD : Fns)
    if (callsOutside(FD->getBody(), Ctx))
      return false;
  for (const VarDecl *VD : Vars) {
    QualType E = Ctx.getBaseElementType(VD->getType());
    if (E.isVolatileQualified() || E->isRecordType())
      return false;
    if (E->isPointerType()) { // a table of string literals
      QualType P = E->getPointeeType();
      if (!E.isConstQualified() || !P.isConstQualified() || P->isFunctionType())
        return false;
      continue;
    }
    if (E.isConstQualified())
      continue;
    if (!VD->getType()->isScalarType())
      return false;
    for (const FunctionDecl *FD : Fns)
      if (modifies(FD->getBody(), VD))
        return false;
  }
  return true;
}

/// Whether \p S declares a long double local (R's `LDOUBLE sum;`), or, with
/// \p Exprs, has an evaluated expression of that type (a cast, a `1.0L`, a
/// long double global, a call returning one); not counting what the
/// lowering leaves out: the side of an if that a constant condition rules
/// out, the arm of a ?:, the right of && or || and the body of a while or
/// for that a test of pointers known to be null or not rules out
/// (nullTest: `s ? ldfun(x) : 0.0` where the call passes NULL), nor
/// sizeof's operand. With \p Sure, not the sides of an if or ?: testing a
/// pointer either (a helper's test of a pointer its call passes NULL folds
/// once inlined).
bool Lowerer::declaresLongDouble(const Stmt *S, bool Exprs, bool Sure) const {
  if (!S || isa<UnaryExprOrTypeTraitExpr>(S)) // sizeof: not evaluated
    return false;
  auto Count = [&](const Stmt *C) {
    return declaresLongDouble(C, Exprs, Sure);
  };
  if (const auto *IS = dyn_cast<IfStmt>(S)) {
    if (std::optional<bool> V = constantIf(IS))
      return Count(*V ? IS->getThen() : IS->getElse());
    if (Sure && testsPointer(IS->getCond()))
      return Count(IS->getCond());
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    if (std::optional<bool> V = choiceTest(CO->getCond()))
      return Count(*V ? CO->getTrueExpr() : CO->getFalseExpr());
    if (Sure && testsPointer(CO->getCond()))
      return Count(CO->getCond());
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr))
    if (std::optional<bool> V = nullTest(BO->getLHS());
        V && *V == (BO->getOpcode() == BO_LOr))
      return false; // (logical(): the test alone, a constant)
  const Expr *LoopCond = nullptr;
  if (const auto *WS = dyn_cast<WhileStmt>(S))
    LoopCond = WS->getCond();
  if (const auto *FS = dyn_cast<ForStmt>(S))
    LoopCond = FS->getCond();
  if (std::optional<bool> V = LoopCond ? nullTest(LoopCond) : std::nullopt;
      V && !*V) // (anyLoop: the body is never lowered; a for's init is)
    return isa<ForStmt>(S) && Count(cast<ForStmt>(S)->getInit());
  // (Both sides of another '?:' count, as the lowering lowers both. A
  // constant test chooses one: glibc's type-generic `issignaling (x)`,
  // `sizeof (x) == sizeof (double) ? __issignaling (x) : __issignalingl
  // (x)`, and musl's signbit, isnan, FORCE_EVAL no longer make a function
  // run per example.)
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && isLongDouble(VD->getType()))
        return true;
  if (const auto *E = dyn_cast<Expr>(S);
      Exprs && E && isLongDouble(E->getType()))
    return true;
  for (const Stmt *C : astChildren(S))
    if (Count(C))
      return true;
  return false;
}

bool Lowerer::callLongDouble(const CallExpr *CE, const FunctionDecl *Def,
                             bool Exprs, bool Sure) const {
  // Whether each pointer argument is null, known where the call is, as
  // callArgs and bindParams bind it: NULL (or a parameter passed NULL), a
  // local array by its name, a local's address, a pointer into a local.
  llvm::DenseMap<const VarDecl *, bool> Nulls;
  for (unsigned I = 0; I < CE->getNumArgs() && I < Def->getNumParams(); ++I) {
    const Expr *A = CE->getArg(I);
    if (!A->getType()->isPointerType())
      continue;
    std::optional<bool> N = knownNull(A);
    const Expr *E = A->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParens();
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!N && VD && !VD->getType()->isPointerType() && !Frames.empty() &&
        Frames.back().Vars.count(VD) && E != A->IgnoreParenImpCasts())
      N = false; // `&v`
    if (!N && VD && VD->getType()->isArrayType() && !Frames.empty() &&
        Frames.back().Vars.count(VD))
      N = false; // a local array
    if (N)
      Nulls[Def->getParamDecl(I)] = *N;
  }
  const llvm::DenseMap<const VarDecl *, bool> *Saved = CalleeNulls;
  CalleeNulls = &Nulls;
  bool R = declaresLongDouble(Def->getBody(), Exprs, Sure);
  CalleeNulls = Saved;
  return R;
}

/// What makes \p FD run per example, for messages: "declares a long double
/// local" or "computes in long double".
std::string Lowerer::longDoubleWhy(const FunctionDecl *FD) const {
  return declaresLongDouble(FD->getBody(), false)
             ? "declares a long double local"
             : "computes in long double";
}

/// Whether \p CE calls a helper that computes in long double, passing
/// numbers (or local arrays of the caller's to pointers to const:
/// localArrayArg) and returning a number or void.
bool Lowerer::longDoubleCallee(const CallExpr *CE,
                               const FunctionDecl *Callee) const {
  const FunctionDecl *Def = Callee->getDefinition();
  QualType RT = Def ? Def->getReturnType() : QualType();
  if (!Def || !Def->hasBody() || Def->isVariadic() ||
      (!RT->isVoidType() && !irType(RT)) ||
      CE->getNumArgs() != Def->getNumParams() || !callLongDouble(CE, Def, true))
    return false;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    QualType P = Def->getParamDecl(I)->getType();
    const Expr *A = CE->getArg(I);
    if (irType(P) && irType(A->getType()))
      continue;
    // A null pointer (`ld(x, NULL)`, a parameter passed NULL): the same for
    // every example's call (externCall).
    if (P->isPointerType() && nullPointerArg(A))
      continue;
    // The annotated function's own array (the example's, or a BD_UNIFORM
    // one), at its start or an offset, to a pointer to its element type:
    // passed as to calls of outside functions (externCall).
    if (P->isPointerType() && A->getType()->isPointerType() &&
        (uniformArrayArg(A) >= 0 || passedArrayArg(A) >= 0) &&
        Ctx.hasSameUnqualifiedType(P->getPointeeType(),
                                   A->getType()->getPointeeType()))
      continue;
    // A local array (or a pointer bound to one whole) to a pointer to const
    // of its element type (no cast).
    const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!P->isPointerType() || !P->getPointeeType().isConstQualified() || !VD ||
        localArrayArg(A) < 0 ||
        !Ctx.hasSameUnqualifiedType(P->getPointeeType(), localArrayElem(VD)))
      return false;
  }
  // Defined before the annotated function or after it: a body not parsed
  // yet makes the plugin wait for it, as for any helper (callFunction), so
  // the generated code follows the definition either way; a declaration
  // inside a function only (NR's block-scope prototypes) is repeated where
  // the call is made (externCall).
  return true;
}

/// Why pointer argument \p A is not one a call made per example can pass
/// to parameter \p P (localArrayArg): "" when it is.
std::string Lowerer::longDoubleArgWhy(const Expr *A,
                                      const ParmVarDecl *P) const {
  QualType PT = P->getType();
  if (knownNull(A).value_or(false)) // (passed as it is)
    return "";
  if (int I = varyingArrayArg(offsetBase(A)); I >= 0) {
    const ir::Param &AP = F.Params[I];
    if (!AP.Uniform && WantGrad && ir::isFloat(AP.Ty) && !AP.NoDiff)
      return "an array parameter with a derivative: the call runs as the "
             "scalar function, which has none; mark '" +
             AP.Name + "' BD_NODIFF if it needs none";
    if (!Ctx.hasSameUnqualifiedType(PT->getPointeeType(),
                                    A->getType()->getPointeeType()))
      return "an array of '" +
             A->getType()->getPointeeType().getUnqualifiedType().getAsString() +
             "' for a pointer to '" + PT->getPointeeType().getAsString() + "'";
  }
  if (!PT->getPointeeType().isConstQualified())
    return "for '" + P->getNameAsString() +
           "', a pointer to non-const: each example's call would get a copy "
           "of the elements, and what it writes there would be lost";
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  // A pointer bound to a local array (a helper's parameter, a local).
  auto It = VD ? Frames.back().Ptrs.find(VD) : Frames.back().Ptrs.end();
  if (It != Frames.back().Ptrs.end() && It->second.Base.Var >= 0 &&
      F.Vars[It->second.Base.Var].Len > 0) {
    const ir::Var &V = F.Vars[It->second.Base.Var];
    QualType El = localArrayElem(VD);
    if (localArrayArg(A) >= 0)
      return Ctx.hasSameUnqualifiedType(PT->getPointeeType(), El)
                 ? ""
                 : "an array of '" + El.getUnqualifiedType().getAsString() +
                       "' for a pointer to '" +
                       PT->getPointeeType().getAsString() + "'";
    std::string W = "'" + VD->getNameAsString() +
                    "' points into local array '" + baseName(It->second.Base) +
                    "'";
    if (V.CountVar >= 0)
      return W + ", of variable length";
    if (V.Len > LocalArrayMax)
      return W + ", of " + std::to_string(V.Len) + " elements: at most " +
             std::to_string(LocalArrayMax) +
             " are copied for each example's call";
    return W + " but not at its start, or is re-pointed: only a local "
               "array passed whole is copied for each example's call";
  }
  if (!VD || !VD->hasLocalStorage() || !VD->getType()->isArrayType()) {
    if (VD && isa<ParmVarDecl>(VD))
      return "a parameter: only a local array is copied for each example's "
             "call";
    return "not a local array passed whole";
  }
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  if (!AT || localArrayArg(A) < 0) {
    if (AT && AT->getElementType()->isArrayType())
      return "a local array of two or more dimensions";
    if (AT && AT->getSize().getZExtValue() > (uint64_t)LocalArrayMax)
      return "a local array of " +
             std::to_string(AT->getSize().getZExtValue()) +
             " elements: at most " + std::to_string(LocalArrayMax) +
             " are copied for each example's call";
    return AT ? "a local array of elements that are not numbers"
              : "a local array of variable length";
  }
  QualType El = AT->getElementType();
  if (!Ctx.hasSameUnqualifiedType(PT->getPointeeType(), El))
    return "an array of '" + El.getUnqualifiedType().getAsString() +
           "' for a pointer to '" + PT->getPointeeType().getAsString() + "'";
  return "";
}

/// A call of a helper computing in long double that longDoubleCallee does
/// not take only because of a pointer argument: an error there, saying why
/// (inlined, the helper would only have its long double refused, far from
/// the call that is the cause). False when \p CE is not such a call, or
/// when the long double is under a test of a pointer (`if (s) { long double
/// t ... }`), which may fold once inlined: inlined as before.
bool Lowerer::longDoublePointerError(const CallExpr *CE,
                                     const FunctionDecl *Callee) {
  const FunctionDecl *Def = Callee->getDefinition();
  QualType RT = Def ? Def->getReturnType() : QualType();
  if (!Def || !Def->hasBody() || Def->isVariadic() ||
      (!RT->isVoidType() && !irType(RT)) ||
      CE->getNumArgs() != Def->getNumParams() ||
      !callLongDouble(CE, Def, true, true))
    return false;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const Expr *A = CE->getArg(I);
    if (irType(P->getType()) && irType(A->getType()))
      continue;
    if (!P->getType()->isPointerType() || !A->getType()->isPointerType())
      return false; // (a struct: inlined and refused, as before)
    std::string Why = longDoubleArgWhy(A, P);
    if (Why.empty())
      continue;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Text =
        Lexer::getSourceText(SM.getExpansionRange(A->getSourceRange()), SM,
                             Ctx.getLangOpts())
            .str();
    std::string Name = Def->getNameAsString();
    error(A->getBeginLoc(),
          "passing " +
              (Text.empty() || Text.size() > 40 ? std::string("argument ")
                                                : "'" + Text + "', argument ") +
              std::to_string(I + 1) + " (" + Why + "), to '" + Name +
              "', which " + longDoubleWhy(Def) +
              " and so runs only as the scalar function, once per example,",
          "pass it numbers, the function's own arrays, and to a pointer to "
          "const a local array of at most " +
              std::to_string(LocalArrayMax) +
              " numbers of its element type, whole (by its name, or a "
              "pointer to its start; each example's call gets a copy); or "
              "compute '" +
              Name + "' in double");
    return true;
  }
  return false;
}

/// Such a call, made once per example on the scalar function (-1 after an
/// error, -2 when \p CE is not one).
int Lowerer::longDoubleCall(const CallExpr *CE, const FunctionDecl *Callee) {
  if (!longDoubleCallee(CE, Callee))
    return longDoublePointerError(CE, Callee) ? fail() : -2;
  const FunctionDecl *Def = Callee->getDefinition();
  // (Its own entry, by the index externCall gives, not F.Externs.back():
  // whatever externCall may append after it.)
  int K = -1;
  int R = externCall(CE, Def, nullptr, true, &K);
  if (R >= 0 && K >= 0) {
    ir::ExternCall &X = F.Externs[K];
    X.Why = ir::ExternCall::LongDouble;
    X.Via = longDoubleWhy(Def);
    X.AnyThread = longDoubleAnyThread(Def);
    LongDoubleCalls.push_back({CE->getBeginLoc(), Def});
  }
  return R;
}

/// The annotated function computes in long double itself: its body is one
/// call per example of the scalar function, passed the example's numbers
/// and, for an array parameter, the example's own array (a BD_UNIFORM one:
/// the batch's), as calls of outside functions pass them. False when that
/// does not apply (the body is lowered, and its long double refused).
bool Lowerer::longDoubleBody(Frame &Fr) {
  if (Top->isVariadic() || !declaresLongDouble(Top->getBody(), true))
    return false;
  QualType RT = Top->getReturnType();
  if (!RT->isVoidType() && !irType(RT))
    return false;
  for (unsigned I = 0; I < Top->getNumParams(); ++I) {
    const ir::Param &P = F.Params[I];
    if (!irType(Top->getParamDecl(I)->getType()) &&
        (P.Kind != ir::ParamKind::User || !P.IsArray || P.Record >= 0))
      return false;
  }
  std::string Name = Top->getNameAsString();
  ir::ExternCall X;
  X.Ty = RT.getAsString(Ctx.getPrintingPolicy());
  X.Name = Name;
  X.Why = ir::ExternCall::LongDouble;
  X.Via = ScalarWhy = longDoubleWhy(Top);
  X.AnyThread = longDoubleAnyThread(Top);
  X.Call = Name + "(";
  std::vector<int> Args;
  for (unsigned I = 0; I < Top->getNumParams(); ++I) {
    const ParmVarDecl *PD = Top->getParamDecl(I);
    X.Call += I ? ", " : "";
    if (!F.Params[I].IsArray) {
      X.Call += "\x01" + std::to_string(Args.size()) + "\x02";
      Args.push_back(B.get(Fr.Vars[PD]));
      continue;
    }
    X.Call +=
        paramArrayText(I, PD->getType().getAsString(Ctx.getPrintingPolicy())) +
        "))";
    ExternWhole.insert({(int)I, Name});
  }
  X.Call += ")";
  bool Void = RT->isVoidType();
  Type Ty = Void ? Type::I32 : *irType(RT);
  bool Bool = Ty == Type::Bool;
  int D = F.newTemp(Bool ? Type::I32 : Ty);
  ir::Stmt &St = B.push(ir::Op::Extern, D, Args);
  St.IVal = (int)F.Externs.size();
  St.Site = (int)Sites.size(); // for the derivative's error
  Sites.push_back(Top->getLocation());
  F.Externs.push_back(std::move(X));
  if (Void) {
    Fr.RetVar = -1;
    return true;
  }
  Fr.RetVar = F.newVar("__ret", Ty);
  B.set(Fr.RetVar, Bool ? B.cmp(ir::Op::CmpNE, D, B.constI(Type::I32, 0)) : D);
  return true;
}

/// long-double-global: a helper's scalar run (and the functions it calls)
/// using a variable the batch keeps per example or reads once.
void Lowerer::longDoubleGlobals() {
  for (const auto &[At, Def] : LongDoubleCalls) {
    llvm::SmallPtrSet<const FunctionDecl *, 8> Fns;
    llvm::SmallPtrSet<const VarDecl *, 8> Vars;
    Fns.insert(Def);
    reach(Def->getBody(), Fns, Vars);
    // A global the batch keeps per example (written here) or reads once
    // (read here, written by the call), or a static local lowered as a
    // local, of a function the call enters too.
    const VarDecl *Bad = nullptr;
    const char *Why = "";
    for (const VarDecl *VD : Vars) {
      bool Written = false;
      for (const FunctionDecl *FD : Fns)
        Written |= modifies(FD->getBody(), VD);
      const VarDecl *C = VD->getCanonicalDecl();
      const char *W = nullptr;
      for (const auto &KV : GlobalVars)
        if (KV.first->getCanonicalDecl() == C)
          W = "which the batch keeps per example";
      for (const VarDecl *S : ScratchDecls)
        if (Written && S->getCanonicalDecl() == C)
          W = "which the batch keeps per example";
      for (const auto &KV : FirstRead)
        if (!W && Written && KV.first->getCanonicalDecl() == C)
          W = "which the batch reads once for all examples";
      if (W && (!Bad || VD->getName() < Bad->getName()))
        Bad = VD, Why = W;
    }
    if (!Bad)
      continue;
    error(At,
          "a call of '" + Def->getNameAsString() + "' (which " +
              longDoubleWhy(Def) + ", so runs as the scalar function) using " +
              (Bad->isStaticLocal() ? "static local '" : "global '") +
              Bad->getNameAsString() + "', " + Why + ",",
          "the call uses the variable itself, not what each example has "
          "made of it; pass the value as an argument, or return it instead "
          "of keeping it in the variable");
    return;
  }
}

} // namespace lowering
} // namespace batchdiff
