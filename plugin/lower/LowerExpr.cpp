//===- LowerExpr.cpp - expressions, lvalues and conversions
//-----------------===//
#include "lower/LowerImpl.h"
#include "lower/LowerPointer.h"
#include "lower/Types.h"

#include "llvm/ADT/ScopeExit.h"

namespace batchdiff {
namespace lowering {

int Lowerer::constant(const Expr *E) {
  if (E->isValueDependent() || !literalOnly(E, Ctx, &Literal))
    return -1;
  auto T = irType(E->getType());
  if (!T)
    return -1;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects)
    return -1;
  if (R.Val.isInt()) {
    if (*T == Type::Bool)
      return B.constB(R.Val.getInt().getBoolValue());
    if (ir::isFloat(*T))
      return -1;
    const llvm::APSInt &V = R.Val.getInt();
    return B.constI(*T, V.isSigned() ? V.getSExtValue()
                                     : (int64_t)V.getZExtValue());
  }
  if (R.Val.isFloat() && ir::isFloat(*T)) {
    llvm::APFloat V = R.Val.getFloat();
    bool Lost;
    V.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &Lost);
    return B.constF(*T, V.convertToDouble());
  }
  return -1;
}

int Lowerer::expr(const Expr *E) {
  if (Failed || tooDeep(E->getBeginLoc()))
    return -1;
  ++Depth;
  auto Leave = llvm::make_scope_exit([&] { --Depth; });
  E = E->IgnoreParens();
  Where = E;
  if (E->getType()->isVoidType() && fromAssert(E))
    return B.constB(false);
  // A struct-valued expression as a statement (`a = b;`, `f(&s);`'s
  // value): only its side effects matter.
  if (E->getType()->isRecordType()) {
    std::vector<int> L;
    return structLeaves(E, L) ? B.constB(false) : -1;
  }
  // A pointer-typed expression as a statement or operand of ',': only its
  // side effects (p++, p = q) matter.
  if (E->getType()->isPointerType()) {
    // memcpy(...); as a statement: its result (dst) is not used.
    if (const auto *CE = dyn_cast<CallExpr>(E->IgnoreParens()))
      if (const FunctionDecl *FD = CE->getDirectCallee();
          FD && FD->getIdentifier() && !memFunction(FD->getName()).empty())
        return call(CE);
    // `msg = "value out of range";` of a local pointer to string literals.
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
        if (stringLocal(dyn_cast<VarDecl>(DRE->getDecl())))
          return stringAssign(BO);
    // `f = x < 0 ? cube : sq;` of a function pointer variable.
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Assign &&
        E->getType()->isFunctionPointerType())
      return funcAssign(BO);
    // `c = NULL;` of a pointer variable: nothing to compute (where c is
    // null, NullLocals.cpp follows).
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Assign && isNullPointer(BO->getRHS(), Ctx))
      if (PtrVar *P = ptrVar(BO->getLHS()); P && P->OffVar >= 0) {
        if (P->NullVar >= 0) // (null here: its tests read the flag)
          B.set(P->NullVar, B.constB(false));
        return B.constB(false);
      }
    // `p++`, `p = q` of a struct pointer walking records (`p++, o++`).
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Comma && isStructPtr(E->getType()))
      return expr(BO->getLHS()) < 0 ? -1 : expr(BO->getRHS());
    if (isStructPtr(E->getType()) && inRecordArray(E)) {
      RecRef R;
      return recordPtr(E, R) ? B.constB(false) : -1;
    }
    PtrVal P;
    return ptrValue(E, P) ? B.constB(false) : -1;
  }
  // Complex values, and creal(z), cabs(z), `(double)z` (LowerComplex.cpp).
  if (int C; complexScalar(E, C))
    return C;
  if (int C = constant(E); C >= 0)
    return C;
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return castExpr(CE);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return unary(UO);
  if (const auto *CAO = dyn_cast<CompoundAssignOperator>(E))
    return compoundAssign(CAO);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binary(BO);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return conditional(CO);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return call(CE);
  if (const auto *UE = dyn_cast<UnaryExprOrTypeTraitExpr>(E))
    if (int S = vlaSizeof(UE); S != -2)
      return S;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return B.constI(*irType(E->getType()), EC->getInitVal().getSExtValue());
  if (const auto *ME = dyn_cast<MemberExpr>(E)) { // of a struct rvalue
    LValue L = memberLValue(ME, "reading");
    return L.ok() ? load(L) : -1;
  }
  if (isa<ArraySubscriptExpr>(E))
    error(E->getBeginLoc(), "array subscripting",
          "index array parameters and local arrays with [] instead");
  else if (isa<StmtExpr>(E))
    error(E->getBeginLoc(), describeExpr(E), "use a helper function");
  else if (isa<StringLiteral>(E))
    error(E->getBeginLoc(), "a string literal", "use numbers");
  else if (isa<BinaryConditionalOperator>(E))
    error(E->getBeginLoc(), "the GNU '?:' extension", "write 'a ? a : b'");
  else if (const auto *UE = dyn_cast<UnaryExprOrTypeTraitExpr>(E);
           UE && UE->getKind() == UETT_SizeOf)
    error(E->getBeginLoc(), describeExpr(E),
          "multiply the size by the element's ('n * sizeof(double)'); "
          "'sizeof t' of a local variable-length array works");
  else
    error(E->getBeginLoc(), describeExpr(E),
          "use arithmetic on scalar locals and parameters");
  return -1;
}

int Lowerer::convert(int T, QualType From, QualType To) {
  if (T < 0)
    return -1;
  auto FT = irType(From), TT = irType(To);
  if (!FT || !TT) {
    error(Where ? Where->getBeginLoc() : SourceLocation(),
          "a conversion to '" + To.getAsString() + "'", "use arithmetic types");
    return -1;
  }
  if (*TT == Type::Bool) {
    if (*FT == Type::Bool)
      return T;
    return B.cmp(Op::CmpNE, T, zeroOf(*FT));
  }
  int R = B.cast(*TT, T);
  if (auto N = narrowing(To)) {
    auto FN = narrowing(From);
    bool Same = FN && Ctx.hasSameUnqualifiedType(From, To);
    if (!Same && *FT != Type::Bool)
      R = B.un(*N, R);
  }
  return R;
}

int Lowerer::castExpr(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
    return readLValue(Sub);
  case CK_NoOp:
    return expr(Sub);
  case CK_ToVoid:
    // `(void)p;` of a local pointer variable (an unused one, NULL or not
    // set yet): reads nothing.
    if (const VarDecl *VD = pointers::declOf(Sub);
        VD && VD->hasLocalStorage() && VD->getType()->isPointerType() &&
        !VD->getType().isVolatileQualified())
      return B.constB(false);
    expr(Sub);
    return Failed ? -1 : B.constB(false);
  case CK_IntegralCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean: {
    int T = expr(Sub);
    Where = CE;
    return convert(T, Sub->getType(), CE->getType());
  }
  case CK_PointerToBoolean:
    if (std::optional<bool> V = nullTest(CE))
      return B.constB(*V);
    if (int N = nullFlag(Sub); N >= 0)
      return N;
    if (nullLocalRead(Sub, true))
      return -1;
    [[fallthrough]];
  case CK_PointerToIntegral:
    error(CE->getBeginLoc(), "testing or converting a pointer",
          "pointers here always point into an array; test an integer "
          "index or count instead");
    return -1;
  default:
    if (isa<StringLiteral>(Sub->IgnoreParens())) {
      error(Sub->getBeginLoc(), "a string literal", "use numbers");
      return -1;
    }
    error(CE->getBeginLoc(), describeConversion(Sub->getType(), CE->getType()),
          "use conversions between arithmetic types");
    return -1;
  }
}

/// A global pointer named directly as the base of `*g` or `g[i]` (global
/// arrays are tables, lowered as pointers).
static const VarDecl *globalPointer(const Expr *Base) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasGlobalStorage() && VD->getType()->isPointerType()
             ? VD
             : nullptr;
}

Lowerer::LValue Lowerer::lvalue(const Expr *E, llvm::StringRef Action) {
  E = E->IgnoreParens();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return memberLValue(ME, Action);
  const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
  const auto *UO = dyn_cast<UnaryOperator>(E);
  if (LValue P; UO && complexPart(UO, Action, P)) // `__real__ z`
    return P;
  if (UO && UO->getOpcode() == UO_Deref) {
    if (const VarDecl *G = globalPointer(UO->getSubExpr())) {
      error(E->getBeginLoc(),
            std::string(Action) + " through global pointer '" +
                G->getNameAsString() + "'",
            "make it a global array, or pass the data as an array parameter");
      return {};
    }
    PtrVal P;
    if (!ptrValue(UO->getSubExpr(), P))
      return {};
    return pointee(P, nullptr, E, Action);
  }
  if (LValue U; AS && unionMember(AS, U))
    return U;
  if (AS) {
    if (const VarDecl *G = globalPointer(AS->getBase())) {
      error(E->getBeginLoc(),
            "indexing global pointer '" + G->getNameAsString() + "'",
            "make it a global array, or pass the data as an array parameter");
      return {};
    }
    PtrVal P;
    if (!ptrValue(AS->getBase(), P))
      return {};
    return pointee(P, AS->getIdx(), E, Action);
  }
  int V = varOf(E, Action);
  if (V >= 0 && Action == "writing" && ReadOnly.count(V)) {
    staticWrite(E->getBeginLoc(), V);
    return {};
  }
  if (V >= 0 && F.Vars[V].Len > 0) {
    error(E->getBeginLoc(), "using a local array as a whole",
          "index its elements");
    V = -1;
  }
  return {V, -1};
}

int Lowerer::varOf(const Expr *LV, llvm::StringRef Action) {
  LV = LV->IgnoreParens();
  const auto *DRE = dyn_cast<DeclRefExpr>(LV);
  if (!DRE) {
    // Name the construct: `t[i]`, `s.x` and `(T){v}` are not pointers.
    const auto *UO = dyn_cast<UnaryOperator>(LV);
    if (isa<ArraySubscriptExpr>(LV))
      error(LV->getBeginLoc(), "array subscripting",
            "index array parameters and local arrays with [] instead");
    else if (isa<MemberExpr>(LV))
      error(LV->getBeginLoc(), "struct member access", "pass scalars");
    else if (UO && UO->getOpcode() == UO_Deref)
      error(LV->getBeginLoc(), std::string(Action) + " through a pointer",
            "index array parameters and local arrays with [] instead");
    else
      error(LV->getBeginLoc(), describeExpr(LV),
            "use arithmetic on scalar locals and parameters");
    return -1;
  }
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (VD && Poisoned.count(VD) && !Frames.back().Vars.count(VD))
    return fail(); // its declaration's error is reported
  if (VD && VD->getType().isVolatileQualified() && !plainVolatile(VD)) {
    error(LV->getBeginLoc(),
          "access to volatile '" + VD->getNameAsString() + "'",
          "remove 'volatile'");
    return -1;
  }
  auto It = VD ? Frames.back().Vars.find(VD) : Frames.back().Vars.end();
  if (It != Frames.back().Vars.end())
    return It->second;
  if (VD && VD->hasGlobalStorage())
    if (int S = scratchVar(VD); S >= 0)
      return S;
  if (VD && VD->hasGlobalStorage() && Action == "writing")
    return globalVar(VD, LV->getBeginLoc());
  if (VD && VD->hasGlobalStorage()) {
    error(LV->getBeginLoc(),
          std::string(Action) + " of global variable '" +
              VD->getNameAsString() + "'",
          Action == "writing" ? "return the value instead"
                              : "pass it as a BD_UNIFORM parameter or make "
                                "it a 'const' with a constant initializer");
    return -1;
  }
  error(LV->getBeginLoc(), std::string(Action) + " of this entity",
        "use locals and parameters");
  return -1;
}

int Lowerer::readLValue(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    // A const global with a constant initializer is a constant.
    if (VD && VD->hasGlobalStorage() && VD->getType().isConstQualified() &&
        !VD->getType().isVolatileQualified()) {
      if (const APValue *V = VD->evaluateValue()) {
        auto T = irType(VD->getType());
        if (T && V->isFloat() && ir::isFloat(*T)) {
          llvm::APFloat FV = V->getFloat();
          bool Lost;
          FV.convert(llvm::APFloat::IEEEdouble(),
                     llvm::APFloat::rmNearestTiesToEven, &Lost);
          return B.constF(*T, FV.convertToDouble());
        }
        if (T && V->isInt())
          return *T == Type::Bool ? B.constB(V->getInt().getBoolValue())
                                  : B.constI(*T, V->getInt().getExtValue());
      }
    }
    // Any other global scalar: a uniform value, read once per call.
    if (VD && VD->hasGlobalStorage() && !Frames.back().Vars.count(VD) &&
        !VD->getType()->isArrayType() && !VD->getType()->isPointerType()) {
      if (int S = scratchVar(VD); S >= 0)
        return B.get(S);
      // Written by a block run once (LowerInitOnce.cpp): read back after it.
      if (auto It = InitVars.find(VD->getCanonicalDecl());
          It != InitVars.end()) {
        int T = B.get(It->second);
        InitReads[B.block()->back().get()] = E->getBeginLoc();
        return VD->getType()->isBooleanType()
                   ? B.cmp(Op::CmpNE, T, B.constI(Type::I32, 0))
                   : T;
      }
      auto It = GlobalVars.find(VD->getCanonicalDecl());
      if (It != GlobalVars.end()) { // written by the function: per example
        int T = B.get(It->second);
        GlobalReads[B.block()->back().get()] = E->getBeginLoc();
        return T;
      }
      // Written later by the function (read first): per example too, so
      // that a read after a call that sets it can be what the call left
      // (GlobalCalls.cpp); otherwise global-carried at this read.
      if (writtenLater(VD)) {
        int V = globalVar(VD, E->getBeginLoc());
        if (V < 0)
          return -1;
        int T = B.get(V);
        GlobalReads[B.block()->back().get()] = E->getBeginLoc();
        return T;
      }
      // (One a call made once per example may write: read per example.)
      for (const auto &[RV, V] : refreshed())
        if (RV == VD->getCanonicalDecl())
          return B.get(V);
      int G = globalParam(VD, E->getBeginLoc());
      return G < 0 ? -1 : B.param(G);
    }
  }
  // A member of a const global struct (or table of them) at constant
  // indices: a constant, as a const global scalar.
  if (const APValue *V = constMember(E))
    if (auto T = irType(E->getType()))
      if (int C = constOf(*V, *T); C >= 0)
        return C;
  LValue L = lvalue(E, "reading");
  if (!L.ok())
    return -1;
  SourceLocation Was = ReadAt;
  ReadAt = E->getBeginLoc();
  int R = load(L);
  ReadAt = Was;
  return R;
}

/// A read of array parameter or table \p Arg at \p Idx. Where C may not
/// evaluate the read in every lane that computes it, an index outside a
/// table of known length becomes 0: no lane reads outside the table (the
/// value is not used there).
int Lowerer::loadTable(int Arg, int Idx) {
  const ir::Param &P = F.Params[Arg];
  if (Speculative && P.Kind == ir::ParamKind::Global && P.StaticLen > 0) {
    int Zero = B.constI(Type::I32, 0);
    int In = B.bin(Op::And, B.cmp(Op::CmpGE, Idx, Zero),
                   B.cmp(Op::CmpLT, Idx, B.constI(Type::I32, P.StaticLen)));
    Idx = B.select(In, Idx, Zero);
  }
  int R = B.loadArg(Arg, Idx);
  if (P.Kind == ir::ParamKind::Global && ReadAt.isValid())
    InitReads[B.block()->back().get()] = ReadAt; // (checkInitReads)
  return R;
}

int Lowerer::unary(const UnaryOperator *UO) {
  const Expr *Sub = UO->getSubExpr();
  switch (UO->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return expr(Sub);
  case UO_Minus: {
    int T = expr(Sub);
    return T < 0 ? -1 : B.un(Op::Neg, T);
  }
  case UO_Not: {
    int T = expr(Sub);
    return T < 0 ? -1 : B.un(Op::BitNot, T);
  }
  case UO_LNot: {
    int C = cond(Sub);
    if (C < 0)
      return -1;
    return convert(B.un(Op::Not, C), Ctx.BoolTy, UO->getType());
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    LValue LV = lvalue(Sub, "writing");
    if (!LV.ok())
      return -1;
    bool Inc = UO->isIncrementOp();
    int Old = load(LV);
    Type T = typeOf(LV);
    int New;
    if (T == Type::Bool) {
      New = Inc ? B.constB(true) : B.un(Op::Not, Old);
    } else {
      int One = ir::isFloat(T) ? B.constF(T, 1.0) : B.constI(T, 1);
      New = B.bin(Inc ? Op::Add : Op::Sub, Old, One);
      if (auto N = narrowing(Sub->getType()))
        New = B.un(*N, New);
    }
    store(LV, New);
    return UO->isPrefix() ? New : Old;
  }
  case UO_AddrOf:
  case UO_Deref:
    error(UO->getBeginLoc(), "taking addresses or dereferencing pointers",
          "index array parameters and local arrays with [] instead");
    return -1;
  default:
    error(UO->getBeginLoc(), "this unary operator", "use scalar arithmetic");
    return -1;
  }
}

int Lowerer::addSub(const BinaryOperator *BO, const Expr *LHS, const Expr *RHS,
                    bool IsSub, int OldLHS) {
  bool NegL = false, NegR = false;
  const BinaryOperator *ML =
      OldLHS < 0 ? mulOperand(LHS, NegL, Ctx, &Literal) : nullptr;
  const BinaryOperator *MR = mulOperand(RHS, NegR, Ctx, &Literal);
  bool Contract = BO->getType()->isRealFloatingType() &&
                  BO->getFPFeaturesInEffect(Ctx.getLangOpts())
                      .allowFPContractWithinStatement();
  if (Contract && ML) {
    int A = expr(ML->getLHS()), Bv = expr(ML->getRHS());
    int C = expr(RHS);
    if (A < 0 || Bv < 0 || C < 0)
      return -1;
    if (NegL)
      A = B.neg(A);
    if (IsSub)
      C = B.neg(C);
    return B.fmuladd(A, Bv, C);
  }
  int L = OldLHS >= 0 ? OldLHS : expr(LHS);
  if (L < 0)
    return -1;
  if (Contract && MR) {
    int A = expr(MR->getLHS()), Bv = expr(MR->getRHS());
    if (A < 0 || Bv < 0)
      return -1;
    if (IsSub != NegR)
      A = B.neg(A);
    return B.fmuladd(A, Bv, L);
  }
  int R = expr(RHS);
  if (R < 0)
    return -1;
  return B.bin(IsSub ? Op::Sub : Op::Add, L, R);
}

int Lowerer::arith(const BinaryOperator *BO, int L, int R) {
  BinaryOperatorKind K = BO->getOpcode();
  if (BO->isCompoundAssignmentOp())
    K = BinaryOperator::getOpForCompoundAssignment(K);
  Op O;
  // (&&, || and comparisons are lowered before; C has no other operators.)
  if (!ir::opFromCOperator(BinaryOperator::getOpcodeStr(K).str(), 2, O)) {
    error(BO->getOperatorLoc(), "this operator", "use scalar arithmetic");
    return -1;
  }
  // The shift count takes the type of the shifted value.
  if (O == Op::Shl || O == Op::Shr)
    R = B.cast(F.Temps[L], R);
  return B.bin(O, L, R);
}

int Lowerer::binary(const BinaryOperator *BO) {
  BinaryOperatorKind K = BO->getOpcode();
  bool PtrL = BO->getLHS()->getType()->isPointerType();
  bool PtrR = BO->getRHS()->getType()->isPointerType();
  bool Globals = globalPointer(BO->getLHS()) || globalPointer(BO->getRHS());
  if (PtrL && PtrR && K == BO_Sub && recordPtrOperands(BO))
    return recordPtrDiff(BO);
  if (PtrL && PtrR && K == BO_Sub && !Globals)
    return ptrDiff(BO);
  // (Comparisons and && || of pointers are tests, as in conditions: `int z
  // = s == NULL;` of a helper's parameter its call passed NULL.)
  if (!BO->getLHS()->getType()->isArithmeticType() && K != BO_Comma &&
      K != BO_Assign && !BO->isComparisonOp() && K != BO_LAnd && K != BO_LOr) {
    error(BO->getOperatorLoc(), "pointer arithmetic",
          "index array parameters and local arrays with [] instead");
    return -1;
  }
  if (K == BO_Assign) {
    LValue LV = lvalue(BO->getLHS(), "writing");
    if (!LV.ok())
      return -1;
    int R = expr(BO->getRHS());
    if (R < 0)
      return -1;
    store(LV, R);
    return R;
  }
  if (K == BO_Comma) {
    expr(BO->getLHS());
    return expr(BO->getRHS());
  }
  if (K == BO_LAnd || K == BO_LOr)
    return convert(logical(BO), Ctx.BoolTy, BO->getType());
  if (BO->isComparisonOp()) {
    int C = compare(BO);
    return C < 0 ? -1 : convert(C, Ctx.BoolTy, BO->getType());
  }
  if (K == BO_Add || K == BO_Sub)
    return addSub(BO, BO->getLHS(), BO->getRHS(), K == BO_Sub, -1);
  int L = expr(BO->getLHS());
  int R = expr(BO->getRHS());
  if (L < 0 || R < 0)
    return -1;
  return arith(BO, L, R);
}

int Lowerer::compoundAssign(const CompoundAssignOperator *CAO) {
  LValue LV = lvalue(CAO->getLHS(), "writing");
  if (!LV.ok())
    return -1;
  QualType LT = CAO->getLHS()->getType();
  QualType CT = CAO->getComputationLHSType();
  int Old = convert(load(LV), LT, CT);
  if (Old < 0)
    return -1;
  int R;
  BinaryOperatorKind K = CAO->getOpcode();
  if (K == BO_AddAssign || K == BO_SubAssign) {
    R = addSub(CAO, CAO->getLHS(), CAO->getRHS(), K == BO_SubAssign, Old);
  } else {
    int Rhs = expr(CAO->getRHS());
    if (Rhs < 0)
      return -1;
    if (K != BO_ShlAssign && K != BO_ShrAssign)
      Rhs = convert(Rhs, CAO->getRHS()->getType(), CT);
    R = arith(CAO, Old, Rhs);
  }
  if (R < 0)
    return -1;
  int New = convert(R, CAO->getComputationResultType(), LT);
  if (New < 0)
    return -1;
  store(LV, New);
  return New;
}

int Lowerer::compare(const BinaryOperator *BO) {
  if (BO->getLHS()->getType()->isPointerType() ||
      BO->getRHS()->getType()->isPointerType())
    return recordPtrOperands(BO) ? recordPtrCompare(BO) : ptrCompare(BO);
  if (std::optional<int> C = complexCompare(BO))
    return *C;
  int L = expr(BO->getLHS()), R = expr(BO->getRHS());
  if (L < 0 || R < 0)
    return -1;
  Op O = Op::CmpEQ;
  ir::opFromCOperator(BO->getOpcodeStr().str(), 2, O);
  return B.cmp(O, L, R);
}

int Lowerer::cond(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)
      return logical(BO);
    if (BO->isComparisonOp())
      return compare(BO);
  }
  // A pointer known to be null or not here (a helper's parameter passed
  // NULL, a pointer at a local): a constant.
  if (E->getType()->isPointerType())
    if (std::optional<bool> N = knownNull(E))
      return B.constB(!*N);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_LNot) {
      int C = cond(UO->getSubExpr());
      return C < 0 ? -1 : B.un(Op::Not, C);
    }
  if (E->getType()->isPointerType()) {
    if (int N = nullFlag(E); N >= 0)
      return N;
    if (nullLocalRead(E, true))
      return -1;
    error(E->getBeginLoc(), "testing or converting a pointer",
          "pointers here always point into an array; test an integer "
          "index or count instead");
    return -1;
  }
  if (E->getType()->isAnyComplexType())
    return complexTest(E);
  int T = expr(E);
  return T < 0 ? -1 : convert(T, E->getType(), Ctx.BoolTy);
}

int Lowerer::logical(const BinaryOperator *BO) {
  bool IsAnd = BO->getOpcode() == BO_LAnd;
  // `sgn != NULL && *sgn < 0` in a helper passed NULL: C stops at the left.
  if (std::optional<bool> LV = nullTest(BO->getLHS()); LV && *LV != IsAnd)
    return B.constB(*LV);
  int L = cond(BO->getLHS());
  if (L < 0)
    return -1;
  if (pure(BO->getRHS()) && !hasCall(BO->getRHS()) &&
      !readsUserMemory(BO->getRHS())) {
    ++Speculative; // (`k < n && x > T[k]`: T[n] is not read in C)
    int R = cond(BO->getRHS());
    --Speculative;
    return R < 0 ? -1 : B.bin(IsAnd ? Op::And : Op::Or, L, R);
  }
  // Short circuit: the right side runs only where C would run it.
  int V = F.newVar("__sc", Type::Bool);
  B.set(V, L);
  ir::Stmt &If = B.ifStmt(IsAnd ? L : B.un(Op::Not, L));
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  int R = cond(BO->getRHS());
  if (R >= 0)
    B.set(V, R);
  B.setBlock(Saved);
  return R < 0 ? -1 : B.get(V);
}

int Lowerer::conditional(const ConditionalOperator *CO) {
  const Expr *TE = CO->getTrueExpr(), *FE = CO->getFalseExpr();
  // `c ? (void)(y = 1) : (void)0`, as macros write statements: an if/else.
  bool Void = CO->getType()->isVoidType();
  auto T = Void ? std::optional<Type>(Type::Bool) : irType(CO->getType());
  if (!T) {
    error(CO->getBeginLoc(), "a '?:' of non-arithmetic type",
          "use arithmetic types");
    return -1;
  }
  // `d ? *d : 0` in a helper its call passed NULL (or a local's address),
  // `sizeof(x) == sizeof(float) ? ... : __signbitl(x)`: C evaluates only
  // the arm the test chooses, and the other may not be lowered (it
  // dereferences NULL, computes in long double).
  if (std::optional<bool> V = choiceTest(CO->getCond()))
    return expr(*V ? TE : FE);
  int C = cond(CO->getCond());
  if (C < 0)
    return -1;
  // Cheap pure arms become a select; arms with calls branch, so lanes that
  // agree skip the work of the other arm, and so do arms reading the
  // caller's memory (`i < n ? x[i] : 0` must not read x[n]).
  if (!Void && speculable(TE, Speculable) && speculable(FE, Speculable)) {
    ++Speculative;
    int A = expr(TE), Bv = expr(FE);
    --Speculative;
    return A < 0 || Bv < 0 ? -1 : B.select(C, A, Bv);
  }
  int V = Void ? -1 : F.newVar("__cond", *T);
  ir::Stmt &If = B.ifStmt(C);
  ir::Block *Saved = B.block();
  B.setBlock(&If.Then);
  int A = expr(TE);
  if (A >= 0 && V >= 0)
    B.set(V, A);
  B.setBlock(&If.Else);
  int Bv = expr(FE);
  if (Bv >= 0 && V >= 0)
    B.set(V, Bv);
  B.setBlock(Saved);
  if (A < 0 || Bv < 0)
    return -1;
  return Void ? B.constB(false) : B.get(V);
}

} // namespace lowering
} // namespace batchdiff
