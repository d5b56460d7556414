//===- LowerCall.cpp - calls: <math.h> functions and inlined helpers
//--------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "attributes/Attributes.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringMap.h"

namespace batchdiff {
namespace lowering {

namespace {

struct MathEntry {
  ir::MathFn Fn;
  Type Ty;
  int NArgs;
};

const llvm::StringMap<MathEntry> &mathTable() {
  static const llvm::StringMap<MathEntry> Table = [] {
    llvm::StringMap<MathEntry> T;
#define BD_MATH(Name, NumArgs, CName, ...)                                     \
  T[CName] = {ir::MathFn::Name, Type::F64, NumArgs};                           \
  T[CName "f"] = {ir::MathFn::Name, Type::F32, NumArgs};
#include "ir/Math.def"
    return T;
  }();
  return Table;
}

} // namespace

llvm::StringRef memFunction(llvm::StringRef Name) {
  // (_FORTIFY_SOURCE turns them into __builtin___memcpy_chk and kin.)
  Name.consume_front("__builtin_");
  if (Name.consume_front("__") && !Name.consume_back("_chk"))
    return {};
  if (Name == "memcpy" || Name == "memmove" || Name == "memset")
    return Name;
  return {};
}

llvm::StringRef allocationCall(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return {};
  llvm::StringRef Name = Callee->getName();
  Name.consume_front("__builtin_");
  for (llvm::StringRef A :
       {"malloc", "calloc", "realloc", "aligned_alloc", "alloca"})
    if (Name == A)
      return A;
  return {};
}

bool onlyMathCalls(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return false;
    const FunctionDecl *Def = Callee->getDefinition();
    if (Def && !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
      return false; // a helper: it may write memory
    std::string Name = Callee->getNameAsString();
    llvm::StringRef N(Name);
    bool Builtin = N.consume_front("__builtin_");
    if (!memFunction(Name).empty() || N.starts_with("frexp") ||
        N.starts_with("modf") || N.starts_with("sincos") ||
        (N.starts_with("lgamma") && N.ends_with("_r")))
      return false; // they write memory
    if (!mathTable().count(N) && !(Builtin && Callee->getBuiltinID()))
      return false;
  }
  for (const Stmt *C : astChildren(S))
    if (!onlyMathCalls(C, Ctx))
      return false;
  return true;
}

/// Whether this file (not a system header, not clang implicitly) declares
/// \p FD.
static bool ownDeclaration(const FunctionDecl *FD, const SourceManager &SM) {
  for (const FunctionDecl *D : FD->redecls())
    if (!D->isImplicit() && D->getLocation().isValid() &&
        !SM.isInSystemHeader(D->getLocation()))
      return true;
  return false;
}

static const StringLiteral *stringArg(const Expr *A);
static const VarDecl *globalPointerArg(const Expr *A);

int Lowerer::call(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  // A helper's function pointer parameter calls what its caller passed.
  if (!Callee)
    Callee = knownFunction(CE->getCallee());
  if (!Callee) {
    // One of several functions, per example.
    FuncList Cands;
    int K = funcCandidates(CE->getCallee(), Frames.back(), Cands);
    if (K > 0 && !Cands.empty())
      return choiceCall(CE, Cands);
    if (K >= 0)
      error(CE->getBeginLoc(), "a call through a function pointer",
            "call a function, or through a pointer whose functions are "
            "known: a function's name, a choice of them ('(x > 0 ? f : "
            "g)(x)'), a local or parameter given only those, an element of "
            "a const table of functions ('ops[k](x)')");
    return fail();
  }
  return callFunction(CE, Callee);
}

int Lowerer::callFunction(const CallExpr *CE, const FunctionDecl *Callee) {
  std::string Name = Callee->getNameAsString();
  llvm::StringRef N(Name);
  N.consume_front("__builtin_");
  const FunctionDecl *Def = Callee->getDefinition();
  bool UserDefined =
      Def && !Ctx.getSourceManager().isInSystemHeader(Def->getLocation());
  // The library's function stands for this call only while no body of the
  // name is known: remember it, so a body defined later is reported.
  auto Library = [&] {
    if (!Def)
      LibraryCalls.push_back({Callee->getCanonicalDecl(), CE->getBeginLoc()});
  };
  // A C library name this file declares itself (cephes' `double erf(double);`,
  // K&R `double exp();`) may get its body later in the file, as a helper
  // would: wait for it. At the end of the file (no Missing) a name still
  // without a body is the library's function.
  // (Only a declaration of the library's type: clang gives it the builtin's
  // ID. Another type is an error below, at once.)
  if (!Def && Missing && Callee->getBuiltinID() &&
      ownDeclaration(Callee, Ctx.getSourceManager())) {
    Missing->Callee = Callee->getCanonicalDecl();
    Missing->At = CE->getBeginLoc();
    Stopped = true;
    return fail();
  }
  // Out-pointer functions: lowered to table functions and a store.
  bool SinCos = N == "sincos" || N == "sincosf";
  bool LgammaR = N == "lgamma_r" || N == "lgammaf_r";
  if (!UserDefined && (N == "frexp" || N == "frexpf" || N == "modf" ||
                       N == "modff" || SinCos || LgammaR)) {
    if (CE->getNumArgs() != (SinCos ? 3u : 2u)) {
      error(CE->getBeginLoc(), "this call of '" + Name + "'",
            "pass the arguments <math.h> declares");
      return -1;
    }
    Library();
    Type FT =
        N == "frexpf" || N == "modff" || N == "sincosf" || N == "lgammaf_r"
            ? Type::F32
            : Type::F64;
    if (SinCos)
      return sincosCall(CE, FT);
    if (LgammaR)
      return lgammaRCall(CE, FT);
    return N.starts_with("frexp") ? frexpCall(CE, FT) : modfCall(CE, FT);
  }
  if (llvm::StringRef Mem = memFunction(Name); !UserDefined && !Mem.empty()) {
    Library();
    return memCall(CE, Mem, N.ends_with("_chk"));
  }
  if (!UserDefined && N == "qsort") {
    Library();
    return qsortCall(CE);
  }
  if (!UserDefined && Callee->getBuiltinID())
    if (std::optional<int> R = builtinCall(CE, N)) {
      Library();
      return *R;
    }
  if (generatedCallee(Callee)) {
    llvm::StringRef Base = llvm::StringRef(Name).rsplit('_').first;
    error(CE->getBeginLoc(),
          "a call to '" + Name + "', which batchdiff generates,",
          "call '" + Base.str() +
              "' itself (it is inlined, batched and differentiated with the "
              "caller), and call '" +
              Name +
              "' from code that is not batch/diff (generated functions are "
              "not differentiated again: no second derivatives)");
    return -1;
  }
  auto It = mathTable().find(N);
  if (It != mathTable().end() && !UserDefined) {
    const MathEntry &M = It->second;
    Library();
    if ((int)CE->getNumArgs() != M.NArgs) {
      error(CE->getBeginLoc(), "this call of '" + Name + "'",
            "pass the arguments <math.h> declares");
      return -1;
    }
    std::vector<int> Args;
    for (const Expr *A : CE->arguments()) {
      int T = expr(A);
      if (T < 0)
        return -1;
      Args.push_back(B.cast(ir::mathArgType(M.Fn, Args.size(), M.Ty), T));
    }
    int R = B.math(M.Fn, Args);
    B.block()->back()->Site = (int)Sites.size();
    Sites.push_back(CE->getBeginLoc());
    return R;
  }
  // (Before calls made once per example: `free(p)` of an array parameter
  // passed on.)
  if (!UserDefined && N == "free" && !(Def && Def->hasBody())) {
    if (freeCall(CE))
      return B.constB(false);
    error(CE->getBeginLoc(), "a call to 'free' of memory not allocated here",
          "free only what a local pointer was set to where it is declared "
          "('double *w = malloc(n * sizeof *w);')");
    return -1;
  }
  if (externCallee(CE, Callee))
    return externCall(CE, Callee);
  // Any function whose body is in this translation unit is inlined, wherever
  // it is defined and however it is declared (static or not, K&R or not):
  // the out-of-line original stays as it is for other callers.
  if (Def && Def->hasBody())
    return inlineCall(CE, Def);
  // A C library function (j0, frexp, ...) outside the table: say
  // so, rather than calling it unknown.
  if (Callee->getBuiltinID() ||
      Ctx.getSourceManager().isInSystemHeader(Callee->getLocation())) {
    error(CE->getBeginLoc(), "the library function '" + Name + "'",
          "it has no batched version yet (docs/subset.md lists the <math.h> "
          "functions that have one)");
    return -1;
  }
  // Not defined yet: its body may come later in the file. The plugin
  // retries once it has been parsed, and reports this call at the end of
  // the translation unit if it never is.
  // (A local that may still be NULL: say so now, as its use would.)
  for (const Expr *A : CE->arguments())
    if (std::optional<NullState> S = localNull(A);
        S && S->K == NullState::Maybe && nullLocalRead(A, false))
      return -1;
  MissingBody M;
  M.Callee = Callee->getCanonicalDecl();
  M.At = CE->getBeginLoc();
  if (Callee->isExternallyVisible())
    for (const Expr *A : CE->arguments())
      if (!externArg(A)) {
        // What the user wrote ('P', '&t[1]'), else what it is.
        llvm::StringRef Text = Lexer::getSourceText(
            CharSourceRange::getTokenRange(A->getSourceRange()),
            Ctx.getSourceManager(), Ctx.getLangOpts());
        M.Pointer = !Text.empty() && Text.size() <= 40
                        ? "'" + Text.str() + "'"
                        : "the '" + A->getType().getAsString() + "' argument";
        break;
      }
  if (Missing) {
    *Missing = M;
    Stopped = true;
    return fail();
  }
  auto [What, Instead] = missingBodyError(M);
  error(CE->getBeginLoc(), What, Instead);
  return -1;
}

/// A string literal argument (through parentheses and conversions).
static const StringLiteral *stringArg(const Expr *A) {
  return dyn_cast<StringLiteral>(A->IgnoreParenImpCasts());
}

/// A file-scope pointer variable passed as it is (stderr, a global log
/// stream): the same for every example, so the call can name it.
static const VarDecl *globalPointerArg(const Expr *A) {
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->getDeclContext()->isFileContext() ||
      !VD->getType()->isPointerType() || VD->getType().isVolatileQualified())
    return nullptr;
  return VD;
}

bool Lowerer::externArg(const Expr *A) const {
  // (An array parameter the call cannot get, varyingArrayArg: the call is
  // made once per example, to say why at the argument.)
  return stringArg(A) || stringLocalArg(A) || globalPointerArg(A) ||
         nullPointerArg(A) || outPointerArg(A) || scalarPointerArg(A) ||
         tableArg(A) || varyingArrayArg(offsetBase(A)) >= 0 ||
         structOutArg(A) || copiedOutArg(A) || irType(A->getType());
}

/// Whether \p CE is made once per lane instead of being inlined
/// (docs/calls.md, "Calls of outside functions"): it passes a string literal,
/// which no inlined body could use (cephes' mtherr("erf", UNDERFLOW), NR's
/// nrerror("...")), or calls a function without a body here, taking numbers
/// and returning void, an integer, float or double: at once for a function
/// declared in a header returning void or an integer that is passed values
/// only (no out-pointer, table or array: its body may come later), and for
/// a C library
/// function (its body never comes); any other once the file has ended
/// without its body (Missing is null: the end-of-file retry), so that a
/// helper defined after its caller is still inlined and differentiated.
bool Lowerer::externCallee(const CallExpr *CE,
                           const FunctionDecl *Callee) const {
  bool String = false, Numbers = true, Values = true;
  for (const Expr *A : CE->arguments()) {
    String |= stringArg(A) || stringLocalArg(A);
    Numbers &= externArg(A);
    // Out-pointers, tables and arrays: a body may come, and then the call
    // is inlined, batched and differentiated (ERFA's eraPr00(date1, date2,
    // &dpsipr, &depspr), declared in erfa.h, defined after its callers).
    Values &= !nullPointerArg(A) && !outPointerArg(A) && !scalarPointerArg(A) &&
              !tableArg(A) && varyingArrayArg(offsetBase(A)) < 0 &&
              !structOutArg(A) && !copiedOutArg(A);
  }
  if (String)
    return true;
  // (An array with a derivative at an offset, `v + 1`, to another file's
  // batch function: its error, diff-batched-array, is batchedCall's.)
  Numbers |= batchedCallee(CE, Callee);
  const SourceManager &SM = Ctx.getSourceManager();
  QualType RT = Callee->getReturnType();
  const FunctionDecl *Def = Callee->getDefinition();
  bool Body = Def && Def->hasBody();
  // A body defined after the annotated function was not there when the
  // function was first lowered. A retry (another call of it waited for a
  // body, and that body or the end of the file came) decides as the first
  // lowering did: a call made once per example stays one, and is not
  // inlined because of another call.
  bool Later = Body && SM.isBeforeInTranslationUnit(Top->getEndLoc(),
                                                    Def->getLocation());
  if (!Numbers || Callee->getName().starts_with("__builtin") ||
      (Body && !Later))
    return false;
  bool Int = RT->isVoidType() || RT->isIntegerType();
  bool Float = RT->isRealFloatingType() && irType(RT);
  bool Library = SM.isInSystemHeader(Callee->getLocation());
  if (Int && (Values || Library) &&
      !SM.isInMainFile(SM.getExpansionLoc(Callee->getLocation())))
    return true;
  if (Body) // a helper defined after its caller: inlined
    return false;
  if (Float && SM.isInSystemHeader(Callee->getLocation()))
    return true;
  // (A static function cannot be defined in another file.)
  return !Missing && (Int || Float) && Callee->isExternallyVisible();
}

int Lowerer::externCall(const CallExpr *CE, const FunctionDecl *Callee,
                        const std::string *Via, bool LocalArrays, int *Entry) {
  if (Entry)
    *Entry = -1;
  if (!Via && !LocalArrays && batchedCallee(CE, Callee))
    return batchedCall(CE, Callee);
  std::string Name = Callee->getNameAsString();
  QualType RT = Callee->getReturnType();
  if (!RT->isVoidType() && !irType(RT)) {
    error(CE->getBeginLoc(),
          "a call to '" + Name + "' returning '" + RT.getAsString() +
              "', which is called once per example,",
          "such a call may return void, an integer, float or double; return "
          "one of those, or pass numbers only so that a body in this file "
          "can be inlined");
    return -1;
  }
  ir::ExternCall X;
  X.Ty = RT.getAsString(Ctx.getPrintingPolicy());
  X.Name = Name;
  X.Why = ir::ExternCall::Outside;
  for (const Expr *A : CE->arguments())
    if (stringArg(A) || stringLocalArg(A)) // per lane even where defined here
      X.Why = ir::ExternCall::StringArg;
  if (Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    X.Why = ir::ExternCall::Library;
  if (Via) {
    X.Why = ir::ExternCall::Recursion;
    X.Via = *Via;
    X.MarkedDiff = hasDiff(Callee);
    X.NoReverse = !hasDiff(Top);
  }
  // Marked batch/diff where this file declares it: say why the call does
  // not go through its generated functions, not to mark it.
  if (const FunctionDecl *Def = Callee->getDefinition();
      X.Why == ir::ExternCall::Outside && !Callee->getBuiltinID() &&
      (hasBatch(Callee) || hasDiff(Callee)) && !(Def && Def->hasBody())) {
    X.Why = ir::ExternCall::BatchedArgs;
    std::tie(X.Via, X.Fix) = batchedWhyNot(CE, Callee);
  }
  X.Call = Name + "(";
  std::vector<int> Args;
  std::vector<ExternOutArg> Outs;
  // Through the callee's NAME_grad where its partials are needed: each
  // argument's number, struct or array's copy (LaneGrad.cpp).
  bool Grad = !Via && !LocalArrays && laneGradCallee(CE, Callee);
  std::vector<LaneKind> Kinds;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    X.Call += I ? ", " : "";
    Kinds.push_back({});
    Grad = Grad && laneKind(A, Callee->getParamDecl(I), X, Args, Kinds.back());
    if (const StringLiteral *SL = stringArg(A)) {
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      SL->outputString(OS);
      X.Call += OS.str();
      continue;
    }
    if (const VarDecl *VD = globalPointerArg(A)) {
      X.Call += VD->getName().str();
      continue;
    }
    if (nullPointerArg(A)) { // (no out-pointer: R's lgammafn_sign(x, NULL))
      X.Call +=
          "((" + A->getType().getAsString(Ctx.getPrintingPolicy()) + ")0)";
      continue;
    }
    if (nullLocalRead(A, false)) // (a local that may still be NULL)
      return -1;
    // A local pointer to string literals: its literal, per example.
    if (const VarDecl *VD = stringLocalArg(A)) {
      int Index;
      std::string Lits = stringChoice(VD, Index);
      if (Index < 0)
        return -1;
      X.Call += Lits + "[\x01" + std::to_string(Args.size()) + "\x02]";
      Args.push_back(Index);
      continue;
    }
    if (outPointerArg(A) || scalarPointerArg(A) || tableArg(A) ||
        (Kinds.back().Struct >= 0 && memberScalarArg(A))) {
      if (Kinds.back().Struct >= 0 ? !laneScalarOutPass(A, Name, X, Args, Outs)
                                   : !externPointerArg(A, Name, X, Args, Outs))
        return -1;
      continue;
    }
    if (const VarDecl *VD = structOutArg(A)) {
      if (!structOutPass(A, VD, Name, X, Args, Outs))
        return -1;
      continue;
    }
    if (int P = std::max(uniformArrayArg(A), passedArrayArg(A)); P >= 0) {
      if (!uniformArrayPass(A, P, Name, X, Args))
        return -1;
      continue;
    }
    if (int P = varyingArrayArg(offsetBase(A));
        P >= 0 && Kinds.back().Struct != -2) { // (-2: copied, paramOutPass)
      externArrayError(A, P, Name);
      return -1;
    }
    // A local array, to a function computing in long double: a copy of the
    // lane's elements (longDoubleCallee checked the parameter's type).
    if (int V = LocalArrays ? localArrayArg(A) : -1; V >= 0) {
      localArrayPass(A, V, X, Args);
      continue;
    }
    // A local array of numbers or a struct's array member, whole, by a row
    // or at an offset (musl's `__rem_pio2(x, y)`, ERFA's `eraIr(r)`,
    // `astrom->eb`): an array of the lane's per call, read back after it.
    const ParmVarDecl *To = // (through NAME_grad: its parameter)
        Kinds.back().Struct == -2 ? Callee->getParamDecl(I) : nullptr;
    if (int R = copiedOutPass(A, To, Name, X, Args, Outs); R >= 0) {
      if (!R)
        return -1;
      if (Kinds.back().Struct == -2) // (through NAME_grad: its copy)
        Kinds.back() = LastCopy;
      continue;
    }
    if (!irType(A->getType())) {
      error(A->getBeginLoc(),
            "passing '" + A->getType().getAsString() + "' to '" + Name +
                "', which is called once per example,",
            "pass numbers, string literals, file-scope pointer variables "
            "(stderr), the address of a scalar local ('&v') or a read-only "
            "table: it gets each example's values");
      return -1;
    }
    int T = expr(A);
    if (T < 0)
      return -1;
    X.Call += "\x01" + std::to_string(Args.size()) + "\x02";
    Args.push_back(T);
  }
  X.Call += ")";
  // A function of another file may write the globals the function reads.
  if (const FunctionDecl *Def = Callee->getDefinition();
      !(Def && Def->hasBody()) && !Callee->getBuiltinID() &&
      !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    refreshAfter(X, Args, Outs, CE->getBeginLoc());
  // The generated code follows the function: a declaration inside it only
  // (NR's block-scope prototypes) is repeated where the call is made.
  // (A recursive callee is defined before them: its body is being lowered.)
  const SourceManager &SM = Ctx.getSourceManager();
  bool Seen = Via != nullptr;
  for (const FunctionDecl *D : Callee->redecls())
    Seen |= !D->getLexicalDeclContext()->isFunctionOrMethod() &&
            SM.isBeforeInTranslationUnit(D->getLocation(), Top->getBeginLoc());
  if (!Seen) {
    X.Decl = "extern " + X.Ty + " " + Name + "(";
    for (unsigned I = 0; I < Callee->getNumParams(); ++I)
      X.Decl +=
          (I ? ", " : "") + Callee->getParamDecl(I)->getType().getAsString(
                                Ctx.getPrintingPolicy());
    if (Callee->isVariadic())
      X.Decl += Callee->getNumParams() ? ", ..." : "...";
    bool Empty = !Callee->getNumParams() && !Callee->isVariadic();
    X.Decl += Empty && Callee->hasPrototype() ? "void)" : ")";
  }
  // _Bool results come back as int lanes, then are compared with 0.
  Type Ty = RT->isVoidType() ? Type::I32 : *irType(RT);
  bool Bool = Ty == Type::Bool;
  int D = F.newTemp(Bool ? Type::I32 : Ty);
  ir::Stmt &St = B.push(ir::Op::Extern, D, Args);
  St.IVal = (int)F.Externs.size();
  St.Site = (int)Sites.size(); // for the derivative's error (diff-extern)
  Sites.push_back(CE->getBeginLoc());
  if (Entry)
    *Entry = (int)F.Externs.size();
  if (!Via && !LocalArrays &&
      (X.Why == ir::ExternCall::Outside || X.Why == ir::ExternCall::StringArg ||
       X.Why == ir::ExternCall::BatchedArgs))
    UsingCalls[(int)F.Externs.size()] = Callee;
  if (Via)
    RecursionCalls[(int)F.Externs.size()] = Callee;
  std::map<size_t, std::vector<LaneTie>> Ties;
  std::vector<LaneTie> RetTies;
  if (Grad && !X.Structs.empty() &&
      !laneGrad(CE, Callee, X, Args, Kinds, Ties, RetTies))
    return -1;
  F.Externs.push_back(std::move(X));
  externOutStores(D, Outs, &Ties);
  if (!RetTies.empty())
    return laneTie(D, D, RetTies);
  return Bool ? B.cmp(ir::Op::CmpNE, D, B.constI(Type::I32, 0)) : D;
}

/// C's default argument promotions (a call with no prototype in scope).
static QualType promoted(ASTContext &Ctx, QualType T) {
  T = T.getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return Ctx.DoubleTy;
  if (Ctx.isPromotableIntegerType(T))
    return Ctx.getPromotedIntegerType(T);
  return T;
}

/// A call of a function whose body is being inlined here already, \p Depth
/// frames up (cephes' erfc calling erf calling erfc): made once per
/// example on the scalar function, as calls of outside functions are, when
/// it passes and returns numbers (docs/calls.md, "Recursion").
int Lowerer::recursiveCall(const CallExpr *CE, const FunctionDecl *Callee,
                           size_t Depth) {
  std::string Name = Callee->getNameAsString();
  QualType RT = Callee->getReturnType();
  bool Numbers = RT->isVoidType() || irType(RT);
  for (const Expr *A : CE->arguments())
    Numbers &= (bool)irType(A->getType());
  if (!Numbers) {
    error(CE->getBeginLoc(), "recursion (through '" + Name + "')",
          "write the recursion as a loop (a recursive call that passes and "
          "returns numbers only is made once per example, on the scalar "
          "function)");
    return -1;
  }
  std::string Via = "'" + Frames[Depth].FD->getNameAsString() + "'";
  for (size_t I = Depth + 1; I < Frames.size(); ++I)
    Via += (I + 1 == Frames.size() ? " and '" : ", '") +
           Frames[I].FD->getNameAsString() + "'";
  if (FirstRecursion.isInvalid()) {
    FirstRecursion = CE->getBeginLoc();
    RecursionName = Name;
  }
  for (size_t I = Depth; I < Frames.size(); ++I)
    RecursionCycle.insert(Frames[I].FD->getCanonicalDecl());
  // (Its definition: the call may see a K&R declaration, `double erf();`.)
  const FunctionDecl *Def = Callee->getDefinition();
  if (Def && recursionBatched(CE, Def))
    return batchedCall(CE, Def, true);
  return externCall(CE, Callee, &Via);
}

/// Every call of a helper is a copy of its body and of everything it calls,
/// so helpers called from several places multiply (toms708.c's bratio: 757
/// statements, about 110,000 operations inlined; a helper calling another
/// twice, at each of 20 levels, a million copies). Past this many
/// operations the function is refused rather than compiled for hours (R's
/// pbeta with toms708.c under batch, diff: 397 s of CPU, docs/compile-time.md).
constexpr size_t InlineBudget = 400000;

int Lowerer::inlineCall(const CallExpr *CE, const FunctionDecl *Callee) {
  if (OverBudget)
    return fail();
  if (B.func().Temps.size() > InlineBudget) {
    OverBudget = true;
    error(CE->getBeginLoc(),
          "a function of more than " + std::to_string(InlineBudget) +
              " operations once every call of its helpers is inlined "
              "(here '" +
              Callee->getNameAsString() + "')",
          "call helpers from fewer places: each call copies the helper and "
          "everything it calls (a loop, or one call whose arguments each "
          "branch chooses), or call a function of another file, which is "
          "called once per example");
    return -1;
  }
  for (size_t I = 0; I < Frames.size(); ++I)
    if (Frames[I].FD->getCanonicalDecl() == Callee->getCanonicalDecl())
      return recursiveCall(CE, Callee, I);
  if (int R = longDoubleCall(CE, Callee); R != -2)
    return R;
  if (Callee->isVariadic()) {
    error(CE->getBeginLoc(), "a call to a variadic function",
          "give the helper a fixed parameter list");
    return -1;
  }
  if (int R = nullArgCall(CE, Callee); R != -2)
    return R;
  Frame Fr;
  Fr.FD = Callee;
  Fr.Call = CE;
  CallArgs CA;
  if (!callArgs(CE, CA) || !bindParams(CE, Callee, CA, Fr))
    return -1;
  return inlineBody(CE, Callee, Fr);
}

int Lowerer::nullArgCall(const CallExpr *CE, const FunctionDecl *Callee) {
  // A pointer local passed as it is where it may be NULL, per example
  // (`first_of(c)`): the helper runs with it where its flag says it is
  // set, and with a null pointer in the other lanes (its tests of it fold
  // there, as for `first_of(NULL)`), as C runs it with the value c has.
  const DeclRefExpr *Arg = nullptr;
  for (const Expr *A : CE->arguments()) {
    const auto *DRE = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
    std::optional<NullState> S =
        DRE && A->getType()->isPointerType() ? localNull(DRE) : std::nullopt;
    if (S && S->K == NullState::Maybe) {
      Arg = DRE;
      break;
    }
  }
  QualType RT = Callee->getReturnType();
  std::optional<Type> T = irType(RT);
  int Flag = Arg && (T || RT->isVoidType()) ? nullFlag(Arg) : -1;
  if (Flag < 0)
    return -2; // (none; or refused where callArgs reads it)
  int V = T ? F.newVar("__call", *T) : -1;
  ir::Stmt &If = B.ifStmt(Flag);
  ir::Block *Saved = B.block();
  bool Ok = true;
  for (bool Null : {false, true}) {
    B.setBlock(Null ? &If.Else : &If.Then);
    NullHere[Arg] = Null;
    int R = inlineCall(CE, Callee); // (another such argument: split again)
    NullHere.erase(Arg);
    if (R < 0)
      Ok = false;
    else if (V >= 0)
      B.set(V, R);
    if (!Ok)
      break;
  }
  B.setBlock(Saved);
  if (!Ok)
    return -1;
  return V >= 0 ? B.get(V) : B.constB(false);
}

std::string Lowerer::maybeNullWhy(const CallExpr *CE, const VarDecl *P,
                                  size_t Caller, std::string &Fix) const {
  for (;;) {
    // A copy (`double *c = o;`): the parameter it copies.
    while (P && !isa<ParmVarDecl>(P)) {
      const Expr *I = P->getInit();
      const auto *D =
          I ? dyn_cast<DeclRefExpr>(I->IgnoreParenImpCasts()) : nullptr;
      P = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    }
    const auto *PD = dyn_cast_or_null<ParmVarDecl>(P);
    if (!PD || PD->getFunctionScopeIndex() >= CE->getNumArgs())
      return "";
    const auto *A = dyn_cast<DeclRefExpr>(
        CE->getArg(PD->getFunctionScopeIndex())->IgnoreParenImpCasts());
    if (A && NullHere.lookup(A)) {
      // The call as written, all its arguments: `p ? hm(x, p) : 0`.
      std::string C = A->getDecl()->getNameAsString(), Call;
      llvm::raw_string_ostream OS(Call);
      CE->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
      Fix = "pass '" + C + "' only where a test of it says it is not NULL ('" +
            C + " ? " + OS.str() + " : 0')";
      return "which may be NULL here (the call at line " +
             std::to_string(Ctx.getSourceManager().getExpansionLineNumber(
                 CE->getBeginLoc())) +
             " passes '" + C + "', which may still be NULL)";
    }
    // The caller's own parameter its call passed NULL, passed on.
    const auto *V = A ? dyn_cast<VarDecl>(A->getDecl()) : nullptr;
    if (!V || Caller == 0 || Caller >= Frames.size())
      return "";
    auto It = Frames[Caller].Nulls.find(V);
    if (It == Frames[Caller].Nulls.end())
      return "";
    CE = It->second;
    P = V;
    --Caller;
  }
}

/// Lowers the arguments of \p CE: scalars to temps, pointers to where they
/// point, structs to a copy (by value) or the struct pointed at.
bool Lowerer::callArgs(const CallExpr *CE, CallArgs &CA) {
  CA.Ptrs.resize(CE->getNumArgs());
  CA.Structs.resize(CE->getNumArgs());
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    if (A->getType()->isFunctionPointerType()) {
      // Bound at this call: the helper is inlined with the function.
      if (const FunctionDecl *FD = knownFunction(A)) {
        CA.Funcs[I] = FD;
        CA.Scalars.push_back(-1);
        continue;
      }
      // One of several functions: the helper calls it through an if/else
      // chain.
      FuncVar FV;
      int K = funcCandidates(A, Frames.back(), FV.Cands);
      if (K > 0 && !FV.Cands.empty()) {
        if ((FV.Var = funcIndex(A, FV.Cands)) < 0)
          return false;
        CA.Choices[I] = std::move(FV);
        CA.Scalars.push_back(-1);
        continue;
      }
      if (K >= 0)
        error(A->getBeginLoc(),
              "a function pointer argument whose functions are not known",
              "pass a function's name ('integrate(f, a, b)'), a choice of "
              "them ('x > 0 ? f : g'), a local or parameter given only those, "
              "or an element of a const table of functions ('ops[k]')");
      fail();
      return false;
    }
    if (isStructPtr(A->getType()) && inRecordArray(A)) {
      if (!recordPtr(A, CA.Recs[I]))
        return false;
      CA.Scalars.push_back(-1);
      continue;
    }
    if (A->getType()->isRecordType() || isStructPtr(A->getType())) {
      std::vector<int> Src;
      if (isStructPtr(A->getType()) ? !structPtr(A, CA.Structs[I])
                                    : !structLeaves(A, Src))
        return false;
      if (A->getType()->isRecordType()) {
        std::vector<Leaf> L;
        if (!structLayout(A->getType(), "arg_", L, A->getBeginLoc(),
                          "this argument", "", true))
          return false;
        CA.Structs[I] = newStruct(L);
        copyStruct(CA.Structs[I], Src);
      }
      CA.Scalars.push_back(-1);
      continue;
    }
    // NULL for an optional out-parameter (`lgammafn_sign(x, NULL)`): the
    // helper's tests of it fold (nullTest) at this call.
    if (A->getType()->isPointerType() && knownNull(A).value_or(false)) {
      CA.Nulls.insert(I);
      CA.Scalars.push_back(-1);
      continue;
    }
    if (A->getType()->isPointerType()) {
      // An array or pointer argument: the parameter points where it does.
      if (!ptrValue(A, CA.Ptrs[I]))
        return false;
      CA.Scalars.push_back(-1);
      continue;
    }
    if (A->getType()->isAnyComplexType()) { // its parts
      CVal V;
      if (!complexValue(A, V))
        return false;
      CA.Complex[I] = {V.Re, V.Im < 0 ? zeroOf(V.Ty) : V.Im};
      CA.Scalars.push_back(-1);
      continue;
    }
    int T = expr(A);
    if (T < 0)
      return false;
    CA.Scalars.push_back(T);
  }
  return true;
}

/// Binds the parameters of \p Callee in frame \p Fr to the arguments.
bool Lowerer::bindParams(const CallExpr *CE, const FunctionDecl *Callee,
                         CallArgs &CA, Frame &Fr) {
  const std::vector<int> &Args = CA.Scalars;
  for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (CA.Funcs.count(I) || CA.Choices.count(I)) {
      if (!P->getType()->isFunctionPointerType()) {
        error(P->getLocation(),
              "passing a function to the parameter '" + P->getNameAsString() +
                  "' of type '" + P->getType().getAsString() + "'",
              "call the function the parameter was passed; declare it as a "
              "pointer to the function's type");
        return false;
      }
      auto It = CA.Funcs.find(I);
      // Bound to one function, as long as the helper keeps it.
      if (It != CA.Funcs.end() && !modifies(Callee->getBody(), P)) {
        Fr.Funcs[P] = It->second;
        continue;
      }
      FuncVar FV;
      if (It != CA.Funcs.end()) {
        FV.Cands.push_back(It->second->getCanonicalDecl());
        FV.Var = B.constI(Type::I32, 0);
      } else {
        FV = CA.Choices[I];
      }
      if (!funcVar(P, Callee->getBody(), Fr, FV.Cands, FV.Var))
        return false;
      continue;
    }
    if (CA.Recs.count(I)) {
      // A helper walking the records (LowerRecordWalk.cpp).
      if (modifies(Callee->getBody(), P)) {
        if (!walkRecords(P, &CA.Recs[I], Fr))
          return false;
        continue;
      }
      Fr.RecPtrs[P] = CA.Recs[I];
      continue;
    }
    if (I < Args.size() && !CA.Structs[I].empty()) {
      if (modifies(Callee->getBody(), P) && isStructPtr(P->getType())) {
        error(P->getLocation(),
              "re-pointing the struct pointer '" + P->getNameAsString() + "'",
              "use one pointer per struct");
        return false;
      }
      Fr.Structs[P] = CA.Structs[I];
      continue;
    }
    if (CA.Nulls.count(I) && P->getType()->isPointerType()) {
      if (modifies(Callee->getBody(), P)) {
        std::string Fix, Why = maybeNullWhy(CE, P, Frames.size() - 1, Fix);
        error(P->getLocation(),
              "re-pointing '" + P->getNameAsString() + "', " +
                  (Why.empty() ? "which a call passes a null pointer" : Why) +
                  ",",
              "leave a parameter that may be NULL as it is, and test it "
              "('if (" +
                  P->getNameAsString() + " != NULL) ...')" +
                  (Fix.empty() ? "" : ", or " + Fix));
        return false;
      }
      Fr.Nulls[P] = CE;
      continue;
    }
    if (auto It = CA.Complex.find(I);
        It != CA.Complex.end() && P->getType()->isAnyComplexType()) {
      complexParam(P, It->second);
      continue;
    }
    if (I < Args.size() && Args[I] < 0 && P->getType()->isPointerType()) {
      if (!bindPointer(P, &CA.Ptrs[I], Fr))
        return false;
      if (I < CE->getNumArgs() && !knownNull(CE->getArg(I)).value_or(true))
        Fr.NotNulls.insert(P);
      continue;
    }
    if (!bindScalarParam(CE, P, I, Args, Fr))
      return false;
  }
  if (CE->getNumArgs() > Callee->getNumParams()) {
    error(CE->getArg(Callee->getNumParams())->getBeginLoc(),
          "passing more arguments than '" + Callee->getNameAsString() +
              "' has parameters",
          "pass one argument per parameter");
    return false;
  }
  return true;
}

/// Scalar parameter \p P (the \p I th) as a variable holding its argument,
/// converted as C converts it.
bool Lowerer::bindScalarParam(const CallExpr *CE, const ParmVarDecl *P,
                              unsigned I, const std::vector<int> &Args,
                              Frame &Fr) {
  auto T = irType(P->getType());
  if (!T || I >= Args.size()) {
    error(P->getLocation(), "helper parameter '" + P->getNameAsString() + "'",
          P->getType()->isAnyComplexType()
              ? "pass it a complex value (give the helper a prototype, so "
                "C converts a real argument to its complex type)"
              : "helpers take scalar parameters");
    return false;
  }
  // Without a prototype in scope (a K&R definition, `double f();`) the
  // argument arrives promoted and the callee converts it to its
  // parameter's type; C defines this only when the promoted types agree.
  const Expr *A = CE->getArg(I);
  QualType AT = A->getType(), PT = P->getType();
  QualType PA = promoted(Ctx, AT), PP = promoted(Ctx, PT);
  bool SameWidthInts = PA->isIntegerType() && PP->isIntegerType() &&
                       Ctx.getTypeSize(PA) == Ctx.getTypeSize(PP);
  if (!Ctx.hasSameType(PA, PP) && !SameWidthInts) {
    error(A->getBeginLoc(),
          "passing '" + AT.getAsString() + "' to the parameter '" +
              P->getNameAsString() + "' of type '" + PT.getAsString() +
              "' of a function without a prototype",
          "convert the argument, or declare a prototype so C converts it");
    return false;
  }
  Where = A;
  int V = F.newVar(P->getNameAsString(), *T);
  Fr.Vars[P] = V;
  B.set(V, convert(Args[I], AT, PT));
  return true;
}

/// The body of \p Callee in frame \p Fr; its result's temp (a struct
/// result: CallStruct), or -1 after an error.
int Lowerer::inlineBody(const CallExpr *CE, const FunctionDecl *Callee,
                        Frame &Fr) {
  std::vector<Leaf> RetLayout;
  if (Callee->getReturnType()->isRecordType()) {
    if (!structLayout(Callee->getReturnType(), "", RetLayout, CE->getBeginLoc(),
                      "a helper returning", "", true))
      return -1;
    body(Callee, Callee->getBody(), Fr);
    if (Failed)
      return -1;
    CallStruct = Fr.RetStruct;
    return B.constB(false);
  }
  if (Callee->getReturnType()->isAnyComplexType()) {
    body(Callee, Callee->getBody(), Fr); // (complexValue checked the type)
    if (Failed)
      return -1;
    CallComplex = {B.get(Fr.RetComplex.first), B.get(Fr.RetComplex.second),
                   F.Vars[Fr.RetComplex.first].Ty};
    return B.constB(false);
  }
  if (Callee->getReturnType()->isVoidType() ||
      irType(Callee->getReturnType())) {
    body(Callee, Callee->getBody(), Fr);
  } else if (Callee->getReturnType()->isRealFloatingType()) { // long double
    error(CE->getBeginLoc(),
          "a helper returning '" + Callee->getReturnType().getAsString() + "'",
          "return a double: a helper that computes in long double and "
          "passes and returns numbers is called once per example on the "
          "scalar function");
  } else {
    error(CE->getBeginLoc(), "a helper returning a non-scalar",
          "return a scalar");
  }
  if (Failed)
    return -1;
  if (Fr.RetVar < 0)
    return B.constB(false);
  return B.get(Fr.RetVar);
}

} // namespace lowering

std::pair<std::string, std::string> missingBodyError(const MissingBody &M) {
  std::string Name = M.Callee->getNameAsString();
  if (M.Pointer.empty())
    return {"a call to '" + Name +
                "', which this file declares but never defines,",
            "define it in this file (before or after the caller) so its body "
            "can be inlined"};
  return {"a call to '" + Name + "', which another file defines, with " +
              M.Pointer + " as an argument",
          "a function of another file is called once per example with "
          "numbers, string literals, file-scope pointer variables, the "
          "address of a scalar local ('&v', or a pointer to one passed on; "
          "for an element, copy it into one), the address of a struct of "
          "numbers ('&r'), a local array of at most 64 numbers, a row of it "
          "or a pointer into it ('y', 'r[i]', 'y + k'), an array parameter "
          "passed on (or a row of it), "
          "a null pointer, a 'const' table or a table the file only passes "
          "whole to such calls; define '" +
              Name +
              "' in this file (or static inline in the header that declares "
              "it) so its body can be inlined"};
}

} // namespace batchdiff
