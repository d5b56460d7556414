//===- LowerUnroll.cpp - short counted loops as copies of their body ------===//
//
// `for (int i = 0; i < 3; i++)` over a 3x3 matrix, `for (j = 0; j <= 5;
// j++)` over a coefficient table: a loop whose trips are known at compile
// time, few and short, is lowered as copies of its body, each with the
// counter's value a constant. The gradient then needs no tape for it (a
// loop's reverse sweep stores what each trip computed and reads it back),
// the indices of its array reads are constants (arrays read whole, reads
// moved in front of enclosing loops: HoistInvariants.cpp), and the values
// are those of the loop: the same operations in the same order.
//
// Only a loop whose body does not change the counter or take its address,
// leaves it by no break, continue or goto, declares only scalar locals,
// and whose condition compares the counter with a constant, its increment
// adding a constant. Its trips (at most MaxTrips) are counted here, in
// 64-bit arithmetic, only while the counter stays in a range where that
// is C's arithmetic (|i| < 2^30, not negative when either side is
// unsigned); otherwise, and beyond MaxNodes of unrolled body, it stays a
// loop. So does a loop marked `#pragma nounroll`, `#pragma unroll 1` or
// `#pragma clang loop unroll(disable)`.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/OmpSimd.h"

#include "clang/AST/Attr.h"

namespace batchdiff {
namespace lowering {

namespace {

constexpr size_t MaxTrips = 16;
// AST nodes of all the copies (an inlined helper's body counted at each
// call), so that the generated code stays about the size of the source.
constexpr unsigned MaxNodes = 400;
constexpr int64_t Range = int64_t(1) << 30;

const VarDecl *counterOf(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

/// \p S assigns, increments or takes the address of \p V.
bool touches(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        counterOf(UO->getSubExpr()) == V)
      return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && counterOf(BO->getLHS()) == V)
      return true;
  for (const Stmt *C : astChildren(S))
    if (touches(C, V))
      return true;
  return false;
}

/// Statements a copy of the body may hold: no jumps, labels or
/// declarations other than of scalar locals.
bool plainBody(const Stmt *S) {
  if (!S)
    return true;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S) ||
      isa<AsmStmt>(S))
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || VD->isStaticLocal() || VD->hasExternalStorage() ||
          !(VD->getType()->isIntegerType() ||
            VD->getType()->isRealFloatingType()) ||
          VD->getType().isVolatileQualified())
        return false;
    }
  for (const Stmt *C : astChildren(S))
    if (!plainBody(C))
      return false;
  return true;
}

struct Plan {
  const VarDecl *V = nullptr;
  std::vector<int64_t> Vals;
  int64_t Final = 0;
};

std::optional<int64_t> constInt(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) ||
      E->HasSideEffects(Ctx))
    return std::nullopt;
  const llvm::APSInt &I = R.Val.getInt();
  if (I.getSignificantBits() > 40)
    return std::nullopt;
  return I.getExtValue();
}

// Nodes visited for one loop's decision: nests of loops are measured once
// per level, each at most this much (a nest of 200 was exponential).
constexpr unsigned MaxVisits = 4 * MaxNodes;

unsigned nodes(const Stmt *S, const ASTContext &Ctx, int Depth,
               unsigned &Visits);

/// The trips of \p FS when it is a short counted loop (file comment).
std::optional<Plan> plan(const ForStmt *FS, const ASTContext &Ctx, int Depth,
                         unsigned &Visits) {
  Plan P;
  const Expr *InitE = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit())) {
    if (!DS->isSingleDecl())
      return std::nullopt;
    P.V = dyn_cast<VarDecl>(DS->getSingleDecl());
    InitE = P.V ? P.V->getInit() : nullptr;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit())) {
    if (BO->getOpcode() != BO_Assign)
      return std::nullopt;
    P.V = counterOf(BO->getLHS());
    InitE = BO->getRHS();
  }
  if (!P.V || !P.V->hasLocalStorage() || P.V->isStaticLocal() ||
      !P.V->getType()->isIntegerType() || P.V->getType()->isBooleanType() ||
      P.V->getType().isVolatileQualified())
    return std::nullopt;
  std::optional<int64_t> C0 = constInt(InitE, Ctx);
  const auto *CB = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreParens() : nullptr);
  if (!C0 || !CB || !(CB->isRelationalOp() || CB->getOpcode() == BO_NE))
    return std::nullopt;
  BinaryOperatorKind Opc = CB->getOpcode();
  std::optional<int64_t> C1;
  if (counterOf(CB->getLHS()) == P.V) {
    C1 = constInt(CB->getRHS(), Ctx);
  } else if (counterOf(CB->getRHS()) == P.V) {
    C1 = constInt(CB->getLHS(), Ctx);
    Opc = BinaryOperator::reverseComparisonOp(Opc);
  }
  bool Unsigned = P.V->getType()->isUnsignedIntegerType() ||
                  CB->getLHS()->getType()->isUnsignedIntegerType();
  // The increment: ++, -- or += / -= a constant.
  int64_t Step = 0;
  const Expr *Inc = FS->getInc() ? FS->getInc()->IgnoreParens() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (UO->isIncrementDecrementOp() && counterOf(UO->getSubExpr()) == P.V)
      Step = UO->isIncrementOp() ? 1 : -1;
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    std::optional<int64_t> S = constInt(CA->getRHS(), Ctx);
    if (S && counterOf(CA->getLHS()) == P.V &&
        CA->getRHS()->getType()->isIntegerType() &&
        (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign))
      Step = CA->getOpcode() == BO_AddAssign ? *S : -*S;
  }
  if (!C1 || Step == 0)
    return std::nullopt;
  auto Holds = [&](int64_t I) {
    switch (Opc) {
    case BO_LT:
      return I < *C1;
    case BO_LE:
      return I <= *C1;
    case BO_GT:
      return I > *C1;
    case BO_GE:
      return I >= *C1;
    default:
      return I != *C1;
    }
  };
  int64_t Lo = Unsigned ? 0 : -Range;
  for (int64_t I = *C0;; I += Step) {
    if (I < Lo || I > Range || (Unsigned && *C1 < 0))
      return std::nullopt;
    if (!Holds(I)) {
      P.Final = I;
      break;
    }
    if (P.Vals.size() == MaxTrips)
      return std::nullopt;
    P.Vals.push_back(I);
  }
  const Stmt *Body = FS->getBody();
  if (P.Vals.empty() || touches(Body, P.V) || escapes(Body, true) ||
      escapes(Body, false) || !plainBody(Body) ||
      P.Vals.size() * nodes(Body, Ctx, Depth, Visits) > MaxNodes)
    return std::nullopt;
  return P;
}

/// The size of \p S once lowered: its nodes, a short counted loop's body
/// once per trip, an inlined helper's body at each call.
unsigned nodes(const Stmt *S, const ASTContext &Ctx, int Depth,
               unsigned &Visits) {
  if (!S)
    return 0;
  if (Depth > 4 || ++Visits > MaxVisits)
    return MaxNodes + 1;
  unsigned N = 1;
  if (const auto *FS = dyn_cast<ForStmt>(S)) {
    if (std::optional<Plan> P = plan(FS, Ctx, Depth + 1, Visits))
      return 1 + P->Vals.size() * nodes(FS->getBody(), Ctx, Depth + 1, Visits);
    if (Visits > MaxVisits)
      return MaxNodes + 1;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (const FunctionDecl *Def = FD->getDefinition(); Def && Def->hasBody())
        N += nodes(Def->getBody(), Ctx, Depth + 1, Visits);
  for (const Stmt *C : astChildren(S)) {
    N += nodes(C, Ctx, Depth, Visits);
    if (N > MaxNodes)
      return MaxNodes + 1;
  }
  return N;
}

} // namespace

/// Adds to \p Out the loops of \p S marked `#pragma nounroll`, `#pragma
/// unroll 1` or `#pragma clang loop unroll(disable)`. (The plugin lowers a
/// function before the file's end, so clang's parent map, built once, may
/// not hold it yet.)
static void keptLoops(const Stmt *S, const ASTContext &Ctx,
                      llvm::DenseSet<const Stmt *> &Out) {
  if (!S)
    return;
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    for (const Attr *A : AS->getAttrs())
      if (const auto *LH = dyn_cast<LoopHintAttr>(A)) {
        std::optional<int64_t> C = constInt(LH->getValue(), Ctx);
        if ((LH->getOption() == LoopHintAttr::Unroll &&
             LH->getState() == LoopHintAttr::Disable) ||
            (LH->getOption() == LoopHintAttr::UnrollCount && C && *C <= 1))
          Out.insert(AS->getSubStmt());
      }
  for (const Stmt *C : astChildren(S))
    keptLoops(C, Ctx, Out);
}

std::optional<Ret> Lowerer::unrolledFor(const ForStmt *FS) {
  unsigned Visits = 0;
  std::optional<Plan> P = plan(FS, Ctx, 0, Visits);
  if (!P)
    return std::nullopt;
  const FunctionDecl *FD = Frames.back().FD;
  if (FD && UnrollScanned.insert(FD).second)
    keptLoops(FD->getBody(), Ctx, KeptLoops);
  if (KeptLoops.count(FS))
    return std::nullopt;
  auto &Vars = Frames.back().Vars;
  bool Declared = isa<DeclStmt>(FS->getInit());
  if (!Declared && !Vars.count(P->V))
    return std::nullopt;
  stmt(FS->getInit());
  if (Failed)
    return Ret::Never;
  auto It = Vars.find(P->V);
  if (It == Vars.end()) // not a plain scalar after all: a loop
    return loopStmt(nullptr, FS->getCond(), FS->getInc(), FS->getBody(), true);
  return unrolledTrips(FS->getBody(), It->second, P->Vals, P->Final, 0);
}

Ret Lowerer::unrolledTrips(const Stmt *Body, int Var,
                           const std::vector<int64_t> &Vals, int64_t Final,
                           size_t K) {
  for (; K < Vals.size(); ++K) {
    B.set(Var, B.constI(F.Vars[Var].Ty, Vals[K]));
    Ret R = stmt(Body);
    if (Failed)
      return Ret::Never;
    if (R == Ret::Always)
      return Ret::Always;
    if (R == Ret::Maybe) {
      // The later trips run only where no return happened (the body has
      // no break, continue or goto).
      int Done = exitFlags(Body);
      ir::Stmt &If = B.ifStmt(B.un(ir::Op::Not, Done));
      ir::Block *Saved = B.block();
      B.setBlock(&If.Then);
      Ret Rest = unrolledTrips(Body, Var, Vals, Final, K + 1);
      B.setBlock(Saved);
      return Rest == Ret::Always ? Ret::Always : Ret::Maybe;
    }
  }
  B.set(Var, B.constI(F.Vars[Var].Ty, Final));
  return Ret::Never;
}

} // namespace lowering
} // namespace batchdiff
