//===- LowerFuncChoice.cpp - a function pointer that is one of several ----===//
//
// A function value is known when it names one function (`sq`, `&sq`, a
// helper's parameter bound to one at its call, a local initialized with one
// and never assigned, a const global initialized with one, an element of a
// const table at a constant index): calls through it are calls of that
// function (LowerCall.cpp). Otherwise it may still be one of a finite set
// of known functions, per example: a '?:' of them (`apply(x > 0 ? sq : cube,
// x)`), a local or helper parameter assigned only such values (`f = k == 1 ?
// a : b;`), an element of a const table of functions (`ops[k]`). Such a
// value is a per-lane I32 position in its list of candidates (-1 or out of
// range: none, as an index out of a table is the user's bug in C), and a
// call through it an if/else chain on that position with one inlined call
// per candidate: each lane runs only its own function, lanes choosing none
// (masked off, or out of range) run none, and the batcher and the AD see
// ordinary branches.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace batchdiff {
namespace lowering {

/// \p E without parentheses, implicit conversions, `*` and `&` (`(*f)(x)`,
/// `&sq`): the function designator or pointer it calls.
static const Expr *stripFunc(const Expr *E) {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || (UO->getOpcode() != UO_Deref && UO->getOpcode() != UO_AddrOf))
      return E;
    E = UO->getSubExpr();
  }
}

/// The function \p E names itself (`sq`, `&sq`), or null.
static const FunctionDecl *namedFunction(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(stripFunc(E));
  return DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
}

/// The entries of table of functions \p VD (null: a null pointer) when its
/// elements are const and its initializer names functions; else false, and
/// in \p Bad the element that is not a function's name, if any.
static bool tableEntries(const VarDecl *VD, ASTContext &Ctx,
                         std::vector<const FunctionDecl *> &Entries,
                         const Expr *&Bad) {
  const VarDecl *Def = nullptr;
  const Expr *Init = VD->getAnyInitializer(Def);
  const auto *CAT = Def ? Ctx.getAsConstantArrayType(Def->getType()) : nullptr;
  if (!Init || !CAT || !CAT->getElementType().isConstQualified())
    return false;
  const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreParens());
  if (!IL)
    return false;
  uint64_t N = CAT->getSize().getZExtValue();
  for (uint64_t I = 0; I < N; ++I) {
    const Expr *E = I < IL->getNumInits() ? IL->getInit(I) : nullptr;
    if (!E || isa<ImplicitValueInitExpr>(E) ||
        E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
      Entries.push_back(nullptr);
      continue;
    }
    const FunctionDecl *FD = namedFunction(E);
    if (!FD) {
      Bad = E;
      return false;
    }
    Entries.push_back(FD->getCanonicalDecl());
  }
  return true;
}

/// The array of function pointers \p E names, or null.
static const VarDecl *tableOfFunctions(const Expr *E, ASTContext &Ctx) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const ArrayType *AT = VD ? Ctx.getAsArrayType(VD->getType()) : nullptr;
  return AT && AT->getElementType()->isFunctionPointerType() ? VD : nullptr;
}

const FunctionDecl *Lowerer::knownFunction(const Expr *E,
                                           const Frame &Fr) const {
  E = stripFunc(E);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    // ops[1]: that element.
    const VarDecl *VD = tableOfFunctions(ASE->getBase(), Ctx);
    Expr::EvalResult R;
    std::vector<const FunctionDecl *> Entries;
    const Expr *Bad = nullptr;
    if (!VD || ASE->getIdx()->isValueDependent() ||
        !ASE->getIdx()->EvaluateAsInt(R, Ctx) ||
        !tableEntries(VD, Ctx, Entries, Bad))
      return nullptr;
    int64_t I = R.Val.getInt().getSExtValue();
    return I >= 0 && I < (int64_t)Entries.size() ? Entries[I] : nullptr;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
    return FD;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD)
    return nullptr;
  if (auto It = Fr.Funcs.find(VD); It != Fr.Funcs.end())
    return It->second;
  // `static double (*const act)(double) = sq;`
  if (VD->hasGlobalStorage() && VD->getType().isConstQualified() &&
      VD->getType()->isFunctionPointerType())
    if (const Expr *Init = VD->getAnyInitializer())
      return namedFunction(Init);
  return nullptr;
}

namespace {
/// The assignments of a function pointer variable in a body, and a use
/// that is not an assignment, a read or a call (`&f`, `f++`).
struct FuncAssigns {
  const VarDecl *VD;
  std::vector<const Expr *> Values;
  const Expr *Bad = nullptr;
  bool names(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  }
  void walk(const Stmt *S) {
    if (!S || Bad)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && names(BO->getLHS())) {
      if (BO->getOpcode() != BO_Assign)
        Bad = BO;
      Values.push_back(BO->getRHS());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
          names(UO->getSubExpr()))
        Bad = UO;
    for (const Stmt *C : astChildren(S))
      walk(C);
  }
};
} // namespace

int Lowerer::funcCandidates(const Expr *E, const Frame &Fr, FuncList &Out) {
  E = stripFunc(E);
  auto Add = [&Out](const FunctionDecl *FD) {
    if (FD && std::find(Out.begin(), Out.end(), FD) == Out.end())
      Out.push_back(FD);
  };
  if (const FunctionDecl *FD = knownFunction(E, Fr)) {
    Add(FD->getCanonicalDecl());
    return 1;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    int K = funcCandidates(CO->getTrueExpr(), Fr, Out);
    return K <= 0 ? K : funcCandidates(CO->getFalseExpr(), Fr, Out);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (auto It = Fr.FuncVars.find(VD); It != Fr.FuncVars.end()) {
        for (const FunctionDecl *FD : It->second.Cands)
          Add(FD);
        return 1;
      }
  // A local function pointer declared after the one being given it (`f =
  // g;` with g declared after f): what its initializer and assignments
  // give it, as funcVar will find at its declaration.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        VD->getType()->isFunctionPointerType() && Fr.FD->getBody()) {
      if (!LaterFuncVars.insert(VD).second)
        return 1;
      FuncList Own;
      int K = 1;
      if (const Expr *Init = VD->getInit())
        K = funcCandidates(Init, Fr, Own);
      FuncAssigns W{VD, {}};
      W.walk(Fr.FD->getBody());
      for (size_t I = 0; I < W.Values.size() && K > 0; ++I)
        K = funcCandidates(W.Values[I], Fr, Own);
      LaterFuncVars.erase(VD);
      if (K > 0)
        for (const FunctionDecl *FD : Own)
          Add(FD);
      return W.Bad ? 0 : K;
    }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    FuncList Entries;
    bool Bad = false;
    if (!funcTable(ASE->getBase(), Entries, Bad))
      return Bad ? -1 : 0;
    for (const FunctionDecl *FD : Entries)
      Add(FD);
    return 1;
  }
  return 0;
}

/// The error at a table of functions whose functions are not known.
static std::pair<std::string, std::string> tableError(const VarDecl *VD,
                                                      const Expr *BadInit) {
  std::string Name = "'" + VD->getNameAsString() + "'";
  std::string Form = " ('double (*const ops[])(double) = {f, g, h};'): its "
                     "functions are then known";
  if (BadInit)
    return {"the table of functions " + Name +
                " holding something other than a function's name",
            "initialize it with functions' names only" + Form};
  const ArrayType *AT = VD->getType()->getAsArrayTypeUnsafe();
  if (AT && AT->getElementType().isConstQualified())
    return {"the table of functions " + Name +
                ", whose initializer this file does not have,",
            "define it in this file with functions' names" + Form};
  return {"the table of functions " + Name + ", whose elements are not const,",
          "declare its elements const and initialize them with functions' "
          "names" +
              Form};
}

const VarDecl *Lowerer::funcTable(const Expr *Base, FuncList &Entries,
                                  bool &Bad) {
  const VarDecl *VD = tableOfFunctions(Base, Ctx);
  if (!VD)
    return nullptr;
  const Expr *BadInit = nullptr;
  if (tableEntries(VD, Ctx, Entries, BadInit))
    return VD;
  auto [What, Instead] = tableError(VD, BadInit);
  error(Base->getBeginLoc(), What, Instead);
  Bad = true;
  fail();
  return nullptr;
}

void Lowerer::funcTableDecl(const VarDecl *VD) {
  FuncList Entries;
  const Expr *BadInit = nullptr;
  if (tableEntries(VD, Ctx, Entries, BadInit))
    return;
  auto [What, Instead] = tableError(VD, BadInit);
  error(BadInit ? BadInit->getBeginLoc() : VD->getLocation(), What, Instead);
}

int Lowerer::remapFunc(int Id, const FuncList &From, const FuncList &All) {
  bool Prefix = From.size() <= All.size();
  for (size_t J = 0; Prefix && J < From.size(); ++J)
    Prefix = From[J] == All[J];
  if (Prefix)
    return Id;
  int R = B.constI(Type::I32, -1);
  for (size_t J = 0; J < From.size(); ++J) {
    auto It = std::find(All.begin(), All.end(), From[J]);
    R = B.select(B.cmp(Op::CmpEQ, Id, B.constI(Type::I32, (int64_t)J)),
                 B.constI(Type::I32, It - All.begin()), R);
  }
  return R;
}

int Lowerer::funcIndex(const Expr *E, const FuncList &All) {
  E = stripFunc(E);
  auto Pos = [&All](const FunctionDecl *FD) -> int64_t {
    auto It = std::find(All.begin(), All.end(), FD->getCanonicalDecl());
    return It == All.end() ? -1 : It - All.begin();
  };
  if (const FunctionDecl *FD = knownFunction(E))
    return B.constI(Type::I32, Pos(FD));
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    int C = cond(CO->getCond());
    if (C < 0)
      return -1;
    const Expr *Arms[2] = {CO->getTrueExpr(), CO->getFalseExpr()};
    bool Plain = true;
    for (const Expr *A : Arms)
      Plain &= pure(A) && !readsUserMemory(A) && !hasCall(A);
    if (Plain) {
      int T = funcIndex(Arms[0], All);
      int E2 = T < 0 ? -1 : funcIndex(Arms[1], All);
      return E2 < 0 ? -1 : B.select(C, T, E2);
    }
    // Arms with effects (`c ? ops[k++] : sq`): each in the lanes taking it.
    int V = F.newVar("__fsel", Type::I32);
    B.set(V, B.constI(Type::I32, -1));
    ir::Stmt &If = B.ifStmt(C);
    ir::Block *Saved = B.block();
    for (int K = 0; K < 2; ++K) {
      B.setBlock(K ? &If.Else : &If.Then);
      int X = funcIndex(Arms[K], All);
      if (X < 0) {
        B.setBlock(Saved);
        return -1;
      }
      B.set(V, X);
    }
    B.setBlock(Saved);
    return B.get(V);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (auto It = Frames.back().FuncVars.find(VD);
          It != Frames.back().FuncVars.end()) {
        FuncVar FV = It->second;
        return remapFunc(B.get(FV.Var), FV.Cands, All);
      }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    FuncList Entries;
    bool Bad = false;
    if (!funcTable(ASE->getBase(), Entries, Bad))
      return -1;
    const Expr *Idx = ASE->getIdx();
    int K = expr(Idx);
    Where = Idx;
    K = convert(K, Idx->getType(), Ctx.IntTy);
    if (K < 0)
      return -1;
    // The entries in All's order: the index is the position (an index out
    // of the table selects none).
    bool Same = Entries.size() <= All.size();
    for (size_t J = 0; Same && J < Entries.size(); ++J)
      Same = Entries[J] == All[J];
    int None = B.constI(Type::I32, -1);
    if (Same && Entries.size() == All.size())
      return K;
    if (Same) {
      int Zero = B.constI(Type::I32, 0);
      int N = B.constI(Type::I32, (int64_t)Entries.size());
      int In =
          B.bin(Op::And, B.cmp(Op::CmpGE, K, Zero), B.cmp(Op::CmpLT, K, N));
      return B.select(In, K, None);
    }
    int R = None;
    for (size_t J = 0; J < Entries.size(); ++J)
      if (Entries[J])
        R = B.select(B.cmp(Op::CmpEQ, K, B.constI(Type::I32, (int64_t)J)),
                     B.constI(Type::I32, Pos(Entries[J])), R);
    return R;
  }
  return fail(); // funcCandidates refused it first
}

static const char *FuncValues =
    "give it a function's name, a choice of them ('x > 0 ? f : g'), another "
    "such pointer or an element of a const table of functions ('ops[k]')";

/// What the error at a value \p V given to function pointer \p Name says
/// (`f = NULL`: that a null one is not followed, and what to write).
static std::pair<std::string, std::string>
funcValueError(const Expr *V, const std::string &Name, ASTContext &Ctx) {
  if (isNullPointer(V, Ctx) || nullArm(V, Ctx))
    return {"setting the function pointer " + Name + " to NULL",
            "assign it a function on every path before a call instead, or "
            "keep which one in an int ('int k = -1;', then 'if (k >= 0)')"};
  return {"giving the function pointer " + Name +
              " a value whose function is not known",
          FuncValues};
}

bool Lowerer::funcVar(const VarDecl *VD, const Stmt *Body, Frame &Fr,
                      const FuncList &Init, int InitId) {
  std::string Name = "'" + VD->getNameAsString() + "'";
  FuncAssigns W{VD, {}};
  W.walk(Body);
  if (W.Bad) {
    const auto *UO = dyn_cast<UnaryOperator>(W.Bad);
    error(W.Bad->getBeginLoc(),
          (UO && UO->getOpcode() == UO_AddrOf ? "taking the address of"
                                              : "changing") +
              std::string(" the function pointer ") + Name,
          "assign it functions, call it, or pass it to a helper");
    return false;
  }
  FuncVar FV;
  FV.Cands = Init;
  Fr.FuncVars[VD] = FV; // (what it is given may name it: `f = c ? f : g`)
  for (const Expr *V : W.Values) {
    FuncList More;
    int K = funcCandidates(V, Fr, More);
    if (K == 0) {
      auto [What, Instead] = funcValueError(V, Name, Ctx);
      error(V->getBeginLoc(), What, Instead);
    }
    if (K <= 0) {
      Fr.FuncVars.erase(VD);
      fail();
      return false;
    }
    for (const FunctionDecl *FD : More)
      if (std::find(FV.Cands.begin(), FV.Cands.end(), FD) == FV.Cands.end())
        FV.Cands.push_back(FD);
  }
  FV.Var = F.newVar(VD->getNameAsString(), Type::I32);
  B.set(FV.Var, InitId >= 0 ? remapFunc(InitId, Init, FV.Cands)
                            : B.constI(Type::I32, -1));
  Fr.FuncVars[VD] = FV;
  return true;
}

void Lowerer::functionPointerDecl(const VarDecl *VD) {
  Frame &Fr = Frames.back();
  const Expr *Init = VD->getInit();
  const FunctionDecl *FD = Init ? knownFunction(Init) : nullptr;
  // Initialized with one function and never assigned: bound to it.
  if (FD && !modifies(Fr.FD->getBody(), VD)) {
    Fr.Funcs[VD] = FD;
    return;
  }
  FuncList Cands;
  int Id = -1;
  if (Init) {
    int K = funcCandidates(Init, Fr, Cands);
    if (K == 0) {
      auto [What, Instead] =
          funcValueError(Init, "'" + VD->getNameAsString() + "'", Ctx);
      error(Init->getBeginLoc(), What, Instead);
    }
    if (K <= 0) {
      fail();
      return;
    }
    if ((Id = funcIndex(Init, Cands)) < 0)
      return;
  }
  funcVar(VD, Fr.FD->getBody(), Fr, Cands, Id);
}

int Lowerer::funcAssign(const BinaryOperator *BO) {
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  auto It = VD ? Frames.back().FuncVars.find(VD) : Frames.back().FuncVars.end();
  if (It == Frames.back().FuncVars.end()) {
    if (VD && Poisoned.count(VD))
      return fail();
    error(BO->getBeginLoc(), "assigning a function pointer that is not local",
          "keep the function in a local function pointer, or pass it to "
          "the helpers that call it");
    return -1;
  }
  FuncVar FV = It->second;
  int Id = funcIndex(BO->getRHS(), FV.Cands);
  if (Id < 0)
    return -1;
  B.set(FV.Var, Id);
  return B.constB(false);
}

int Lowerer::choiceCall(const CallExpr *CE, const FuncList &Cands) {
  QualType FT = CE->getCallee()->getType();
  if (const auto *PT = FT->getAs<PointerType>())
    FT = PT->getPointeeType();
  for (const FunctionDecl *C : Cands)
    if (!Ctx.typesAreCompatible(C->getType(), FT)) {
      error(CE->getBeginLoc(),
            "calling '" + C->getNameAsString() +
                "' through a pointer to another function type ('" +
                FT.getAsString() + "')",
            "give the functions a pointer may hold the pointer's type");
      return -1;
    }
  QualType RT = CE->getType();
  std::optional<Type> T;
  if (!RT->isVoidType() && !(T = irType(RT))) {
    error(CE->getBeginLoc(),
          "a call of one of several functions returning '" + RT.getAsString() +
              "'",
          "return a scalar, or call the functions directly under if/else");
    return -1;
  }
  int Id = funcIndex(CE->getCallee(), Cands);
  if (Id < 0)
    return -1;
  int R = -1;
  if (T) {
    R = F.newVar("__call", *T);
    B.set(R, zeroOf(*T));
  }
  // The arguments once, before the chain (as C evaluates them before the
  // call), when every candidate is a helper inlined here; else each branch
  // makes its whole call (a <math.h> function, one made once per example).
  // (Whether callFunction would inline the body here, as inlineCall: a
  // helper of this file, not called once per example, not recursive, not
  // computing in long double.)
  auto Inlined = [&](const FunctionDecl *C) {
    const FunctionDecl *Def = C->getDefinition();
    if (!Def || !Def->hasBody() || Def->isVariadic() ||
        Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
        generatedCallee(C) || externCallee(CE, C) || longDoubleCallee(CE, C))
      return false;
    for (const Frame &Fr : Frames)
      if (Fr.FD->getCanonicalDecl() == C->getCanonicalDecl())
        return false;
    return true;
  };
  bool Inline = std::all_of(Cands.begin(), Cands.end(), Inlined);
  CallArgs CA;
  if (Inline && !callArgs(CE, CA))
    return -1;
  // if (id == 0) f0(...) else if (id == 1) f1(...) ...: each lane runs its
  // own function only.
  ir::Block *Saved = B.block();
  for (size_t K = 0; K < Cands.size(); ++K) {
    ir::Stmt &If =
        B.ifStmt(B.cmp(Op::CmpEQ, Id, B.constI(Type::I32, (int64_t)K)));
    B.setBlock(&If.Then);
    int V = -1;
    if (Inline) {
      Frame Fr;
      Fr.FD = Cands[K]->getDefinition();
      Fr.Call = CE;
      CallArgs Args = CA;
      if (bindParams(CE, Fr.FD, Args, Fr))
        V = inlineBody(CE, Fr.FD, Fr);
    } else {
      V = callFunction(CE, Cands[K]);
    }
    if (V < 0) {
      B.setBlock(Saved);
      return -1;
    }
    if (R >= 0)
      B.set(R, V);
    B.setBlock(&If.Else);
  }
  B.setBlock(Saved);
  return R >= 0 ? B.get(R) : B.constB(false);
}

} // namespace lowering
} // namespace batchdiff
