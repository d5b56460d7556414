//===- ExtentUses.h - what a pointer parameter's uses say about its extent ===//
// Private to ArrayParams.cpp: the walk over a function body that finds the
// indices, loops, walks and steps bounding an array parameter (Uses); the
// loop shapes it recognises are in ExtentLoops.h and ExtentWhile.h, the
// rules for one index in ExtentIndexRules.cpp.
#pragma once
#include "lower/ExtentIndex.h"
#include "lower/ExtentLoops.h"
#include "lower/ExtentWhile.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace batchdiff {
namespace extents {

/// The evidence for one rule that gives an extent to a pointer parameter
/// used as a pointer (passed on, walked): the parameter that bounds the
/// walk (End: nullptr if none), the loops around the walk's use (outermost
/// first), its first use (where a failed rule's error points), how many
/// uses the rule saw, and whether one broke it.
struct WalkRule {
  const ParmVarDecl *N = nullptr;
  std::vector<Trip> Trips;
  const Expr *At = nullptr;
  int Uses = 0;
  bool Bad = false;

  void use(std::vector<Trip> Around, const Expr *E) {
    Trips = std::move(Around);
    if (!Uses++)
      At = E;
  }
};

/// A read q[i] or *q of a walked pointer q: the loops it is in, and its
/// index: in [Min, Max], or (Below) a loop variable j counted by `j <
/// Below`.
struct WalkAccess {
  std::vector<const Stmt *> In;
  int64_t Min = 0, Max = 0;
  const ParmVarDecl *Below = nullptr;
};

/// A walk `*q++` (q is p or a copy of p) and the loops around it,
/// outermost first.
struct IncUse {
  const Expr *At;
  std::vector<const Stmt *> In;
};

/// The step rule: `q += k` (k a constant or an integer parameter), `q++` or
/// `++q` (q is p or a copy of p) as the last statement or the increment of
/// a loop (Loop) inside loops that each run a bounded number of times, q
/// read as q[0] .. q[k - 1] inside that loop only (in loops nested in it
/// too: `row[j]` under `j < 4` with `row += 4`, or under `j < c` with `row
/// += c`): k elements per iteration.
struct StepRule : WalkRule {
  int64_t K = 0;
  const ParmVarDecl *KParam = nullptr;
  const Stmt *Loop = nullptr;
  std::vector<WalkAccess> Reads;
  const Expr *Copy = nullptr; // the p a walked copy was made of
  std::string Text;           // the step as written, for the remark
};

/// The extent a helper's uses give its pointer parameter, in the caller's
/// terms (ExtentCalls.cpp): Scale x N + Plus (N an integer parameter), Rows
/// x Cols (parameters), or else the constant Const (0: nothing read).
struct CalleeExtent {
  const ParmVarDecl *N = nullptr, *Rows = nullptr, *Cols = nullptr;
  int64_t Scale = 1, Plus = 0, Need = -1, Const = 0;
  bool FromRange = false;
};

/// What the uses of one pointer parameter say about its extent.
struct Uses : LoopShapes {
  const ParmVarDecl *P;
  int64_t MaxConst = -1;
  bool FromRange = false;             // MaxConst came from a loop's range
  const ParmVarDecl *Bound = nullptr; // i < Bound in an enclosing for
  int64_t BoundNeed = -1; // a `while (n--)` gave Bound (LoopVar::Need)
  std::string NeedOf;     // the variable that wraps below BoundNeed
  int64_t Scale = 1;      // indices k * i + c (0 <= c < k): k * Bound elements
  // Indices of loops to `i < n / d` (LoopVar::Div): Scale * (Bound / Div)
  // elements (`x[2 * i + 1]` under `i < n / 2`: 2 * (n / 2)).
  int64_t Div = 1;
  int Terms = 0; // how many indices (and helpers) gave Bound (scaleBy)
  // Indices of a bracketing search over [0, SearchN - 1] (searchBound): a
  // term of Bound (SearchN), for SearchN >= SearchNeed; SearchUses of them.
  const ParmVarDecl *SearchN = nullptr;
  int64_t SearchNeed = 0;
  int SearchUses = 0;
  std::vector<const VarDecl *> SearchVars;
  const Expr *SearchAt = nullptr;
  // An index n + c (c >= -1, n an integer parameter): n + c + 1 elements,
  // when a loop counted by n indexes the array too (Bound == PlusParam).
  const ParmVarDecl *PlusParam = nullptr;
  int64_t Plus = 0;
  const Expr *PlusAt = nullptr;
  bool PlusLoop = false; // an index of a loop to `i <= n` gave Plus
  // Indices of do/while loops (LoopVar::Once) read this many elements
  // even when Bound is 0: the extent is max(Scale * Bound, AtLeast).
  int64_t AtLeast = 0;
  const Expr *Unknown = nullptr; // an index nothing bounds
  // Indices `i * c + j` with i < FlatRows, j < c = FlatCols: a row-major
  // FlatRows x FlatCols matrix in a flat array.
  const ParmVarDecl *FlatRows = nullptr, *FlatCols = nullptr;
  const Expr *FlatAt = nullptr;
  // Indices `i + j * ColLd` (i < ColRows, j < ColCols): a column-major
  // matrix with a leading dimension (not in helpers: Depth 0 only).
  const ParmVarDecl *ColRows = nullptr, *ColCols = nullptr, *ColLd = nullptr;
  const Expr *ColAt = nullptr;
  const Expr *Whole = nullptr; // a use as a pointer (p + 1, f(p))
  std::vector<LoopVar> Loops;  // loops enclosing the current statement
  // Locals set to `e % n`, bounded by n (remLocals).
  llvm::DenseMap<const VarDecl *, const ParmVarDecl *> RemLocals;
  // The rules that give an extent to a pointer used as a pointer:
  // an end pointer `p + n` (End; Bad: several different ones), `*p++` once
  // per iteration of a counted loop (Inc), a step `p += k` (Step).
  WalkRule End, Inc;
  StepRule Step;
  // p itself is stepped somewhere (`p += k`, `p++`): its accesses p[c], *p
  // are then the step rule's, not indices from its start.
  bool Stepped = false;
  std::vector<const Stmt *> LoopStmts;
  bool Gotos = false;       // a goto could run the loop again
  std::vector<Trip> Around; // per enclosing loop, any kind
  // Locals initialised to p (`const double *q = p;`), walked like it.
  llvm::DenseMap<const VarDecl *, const Expr *> Aliases;
  // Pointer locals declared without a value and set to p once, by a
  // statement of the function's body (`double *q; ... q = p;`, as K&R code
  // writes it): copies of p from that statement on (lateAliases).
  llvm::DenseMap<const VarDecl *, const BinaryOperator *> LateAliases;
  // Every walk `*q++`, in order (Inc has the last one's loops).
  std::vector<IncUse> Incs;
  // Row pointers `row = p + i * c` and their c (rowPointer).
  llvm::DenseMap<const VarDecl *, const ParmVarDecl *> Rows;
  // Offset views of p, in the order declared: `const double *a = p - 1;`
  // (also `p + c`, `&p[c]`, c a constant), a never assigned, so a[i] is
  // p[i + Shift]: 1-based code on 0-based arrays (Numerical Recipes'
  // `a = x - 1`, then a[1] .. a[n]).
  llvm::MapVector<const VarDecl *, int64_t> Views;
  llvm::SmallPtrSet<const Stmt *, 4> ViewAssigns; // `a = x - 1;`
  // A view's index that can read before p's start (`a[i]` with i from 0
  // and `a = p - 1`): the index, its view, and the element of p it reads.
  const Expr *BeforeAt = nullptr;
  const VarDecl *BeforeView = nullptr;
  int64_t BeforeMin = 0, BeforeShift = 0; // BeforeView is p + BeforeShift

  // A helper's pointer parameter P passed `x + BaseShift` by its caller
  // (followCall): P's indices are x's, shifted; Depth: helpers deep.
  int64_t BaseShift = 0;
  int Depth = 0;
  // The helpers whose indices explained some of p's (followCall).
  std::vector<const FunctionDecl *> Helpers;

  // Calls passing p on at a row offset, `dot(x + i * d, w, d)`, or to a
  // helper counted by a constant, `sum(x + 3, 4)` (ExtentCalls.cpp).
  bool followPassed(const CallExpr *CE, const FunctionDecl *Def, unsigned Arg,
                    std::string &Why);
  // Why a call passing p on gave no extent, where that made p "used as a
  // pointer" (Whole): "passed to 'dot' as 'x + k * d', ..." (for the error).
  std::string WholeWhy;
  std::string text(const Expr *E) const;
  bool calleeExtent(const Uses &H, const CallExpr *CE, const FunctionDecl *Def,
                    CalleeExtent &E);
  bool given(const ParmVarDecl *HP, const CallExpr *CE, const FunctionDecl *Def,
             const ParmVarDecl *&N, std::optional<int64_t> &K);
  bool passedRow(const Expr *Arg, const LoopVar *&I, const ParmVarDecl *&C,
                 int64_t &K) const;
  bool rowOffsetOf(const Expr *Off, const LoopVar *&I, const ParmVarDecl *&C,
                   int64_t &K) const;
  const Expr *widened(const Expr *E) const;

  Uses(const ParmVarDecl *P, const FunctionDecl *FD, ASTContext &Ctx)
      : LoopShapes(FD, Ctx), P(P), Stepped(steps(FD->getBody(), P)) {}

  /// Whether \p S steps \p P itself: `P += k`, `P++`, `++P` (not inside
  /// `*P++`, the walk rule Inc).
  static bool steps(const Stmt *S, const ParmVarDecl *P) {
    if (!S)
      return false;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == P)
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementOp() && varOf(UO->getSubExpr()) == P)
        return true;
      const auto *Inc =
          dyn_cast<UnaryOperator>(UO->getSubExpr()->IgnoreParens());
      if (UO->getOpcode() == UO_Deref && Inc &&
          Inc->getOpcode() == UO_PostInc && varOf(Inc->getSubExpr()) == P)
        return false;
    }
    for (const Stmt *C : astChildren(S))
      if (steps(C, P))
        return true;
    return false;
  }

  /// `p` itself, or a local copy of it.
  bool isP(const Expr *E) {
    const VarDecl *V = varOf(E);
    return V && (V == P || Aliases.count(V));
  }

  /// The smallest and largest values of an index affine in loop variables
  /// with constant ranges (`a[i - 1]`, `a[2 * i + j]`), if it is one.
  std::optional<std::pair<int64_t, int64_t>> range(const Expr *Idx) {
    auto A = affine(Idx);
    if (!A)
      return std::nullopt;
    int64_t Min = A->C, Max = A->C;
    for (auto &[V, K] : A->Terms) {
      auto It = std::find_if(Loops.rbegin(), Loops.rend(),
                             [V = V](const LoopVar &L) { return L.V == V; });
      if (It == Loops.rend() || !It->Ranged)
        return std::nullopt;
      Min += std::min(K * It->Lo, K * It->Hi);
      Max += std::max(K * It->Lo, K * It->Hi);
    }
    return std::make_pair(Min, Max);
  }

  /// The shift of an offset view of p: `p - c`, `p + c`, `c + p`, `&p[c]`
  /// (c an integer constant, maybe negative), or p itself (a copy: 0).
  std::optional<int64_t> viewShift(const Expr *Init) {
    Init = Init->IgnoreParenImpCasts();
    if (paramOf(Init) == P)
      return 0;
    if (const auto *UO = dyn_cast<UnaryOperator>(Init);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
          AS && paramOf(AS->getBase()) == P)
        return constInt(AS->getIdx());
    const auto *BO = dyn_cast<BinaryOperator>(Init);
    if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
      return std::nullopt;
    if (paramOf(BO->getLHS()) == P)
      if (auto K = constInt(BO->getRHS()))
        return BO->getOpcode() == BO_Sub ? -*K : *K;
    if (BO->getOpcode() == BO_Add && paramOf(BO->getRHS()) == P)
      return constInt(BO->getLHS());
    return std::nullopt;
  }

  /// The assignments to \p V in \p S: how many, and one of them.
  static void assigns(const Stmt *S, const VarDecl *V,
                      const BinaryOperator *&Found, int &Count) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && varOf(BO->getLHS()) == V) {
      Found = BO;
      Count++;
    }
    for (const Stmt *C : astChildren(S))
      assigns(C, V, Found, Count);
  }

  /// A declaration of offset views of p (`const double *a = x - 1, *b =
  /// y;`, or `const double *a;` assigned once, `a = x - 1;`): records
  /// them, walks the other initializers.
  bool viewDecl(const DeclStmt *DS) {
    bool Any = false;
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->getType()->isPointerType())
        continue;
      const Expr *Init = V->getInit();
      const BinaryOperator *Assign = nullptr;
      int Count = 0;
      if (!Init)
        assigns(FD->getBody(), V, Assign, Count);
      if (Count != 1)
        Assign = nullptr;
      if (Assign && Assign->getOpcode() == BO_Assign)
        Init = Assign->getRHS();
      auto Sh = Init ? viewShift(Init) : std::nullopt;
      if (Sh && !modifiesBesides(FD->getBody(), V, Assign)) {
        Views[V] = *Sh + BaseShift;
        if (Assign)
          ViewAssigns.insert(Assign);
        Any = true;
      }
    }
    if (Any)
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && !Views.count(V))
          walk(V->getInit());
    return Any;
  }

  /// The view \p E names, if it names one.
  const VarDecl *viewOf(const Expr *E) const {
    const VarDecl *V = varOf(E);
    return V && Views.count(V) ? V : nullptr;
  }

  /// Whether view \p View's index \p Idx (p's element Idx + Shift) can
  /// read before p's start, from what bounds it: a constant, the start of
  /// its loop, a constant range. Records the first such index.
  bool before(const Expr *Idx, int64_t Shift, const VarDecl *View) {
    std::optional<int64_t> Min;
    if (auto K = constInt(Idx))
      Min = *K;
    else if (auto R = range(Idx))
      Min = R->first;
    else if (auto A = affine(Idx);
             A && A->Terms.size() == 1 && A->Terms[0].second >= 1)
      for (auto It = Loops.rbegin(); It != Loops.rend() && !Min; ++It)
        if (It->V == A->Terms[0].first && It->Bound && It->From >= 0)
          Min = A->Terms[0].second * It->From + A->C;
    return Min && beforeAt(*Min + Shift, Idx, View);
  }

  /// Whether p's element \p Min, read through view \p View at \p At, is
  /// before p's start; records the first such read.
  bool beforeAt(int64_t Min, const Expr *At, const VarDecl *View) {
    if (Min >= 0)
      return false;
    if (!BeforeAt) {
      BeforeAt = At;
      BeforeView = View;
      BeforeMin = Min;
      BeforeShift = View == P ? BaseShift : Views.lookup(View);
    }
    if (!Unknown)
      Unknown = At;
    return true;
  }

  /// Adds K * (\p N / \p D) elements (indices k * i + c, 0 <= c < k, of a
  /// loop to `i < n / d`) to the extent Scale * (Bound / Div): false when
  /// the one does not hold the other for every n >= 0 (`x[i]` under `i < n`
  /// and `x[4 * i + 3]` under `i < n / 2`: max(n, 4 (n / 2)) is neither)
  /// or, with a quotient, they have different bounds.
  bool scaleBy(const ParmVarDecl *N, int64_t K, int64_t D) {
    ++Terms;
    if (!Bound) {
      Bound = N;
      Scale = K;
      Div = D;
      return true;
    }
    // Loops to different parameters (`x[i]` under `i < n`, `x[j]` under `j
    // < m`): max(n, m) elements, which no one parameter names.
    if (Bound != N)
      return false;
    if (D == Div) {
      Scale = std::max(Scale, K);
      return true;
    }
    // S n >= K (n / D) for every n >= 0 when S D >= K.
    if (Div == 1 && Scale * D >= K)
      return true;
    if (D == 1 && K * Div >= Scale) {
      Scale = K;
      Div = 1;
      return true;
    }
    return false;
  }

  /// Records loop \p L's LoopVar::Need for the bound of an index.
  void need(const LoopVar &L) {
    if (L.Need > BoundNeed) {
      BoundNeed = L.Need;
      NeedOf = L.V->getNameAsString();
    }
  }

  /// Integer locals declared with a value remBound bounds and never
  /// assigned (`int j = (i + 1) % n;`): that value's bound.
  void remLocals(const DeclStmt *DS) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D);
          V && V->hasLocalStorage() && V->getType()->isIntegerType() &&
          V->getInit() && !lowering::modifies(FD->getBody(), V))
        if (const ParmVarDecl *N = remBound(V->getInit(), Loops))
          RemLocals[V] = N;
  }

  /// An index \p Idx of p, or of a view of p that reads p[Idx + Shift]
  /// (ExtentIndexRules.cpp, which defines it).
  void index(const Expr *Idx, int64_t Shift = 0, const VarDecl *View = nullptr);

  /// The innermost loop over \p V counted by an integer parameter and
  /// staying below it (`for (i = 0; i < n; i++)`).
  const LoopVar *countedBelow(const VarDecl *V) const {
    for (auto It = Loops.rbegin(); V && It != Loops.rend(); ++It)
      if (It->V == V)
        return It->Bound && It->Slack >= 0 && It->From >= 0 && !It->Once &&
                       It->Div == 1 && It->Mul == 1
                   ? &*It
                   : nullptr;
    return nullptr;
  }

  using RowsCols = std::pair<const ParmVarDecl *, const ParmVarDecl *>;

  /// An r x c matrix's indices: false if another shape was seen before.
  bool flat(RowsCols RC, const Expr *At) {
    if (FlatRows && (FlatRows != RC.first || FlatCols != RC.second))
      return false;
    FlatRows = RC.first;
    FlatCols = RC.second;
    if (!FlatAt)
      FlatAt = At;
    return true;
  }

  /// `i * c` (or `c * i`), i < r (not the loop \p Not), c an integer
  /// parameter the body never assigns: (r, c), the offset of row i.
  std::optional<RowsCols> rowOffset(const Expr *E,
                                    const LoopVar *Not = nullptr) const {
    const auto *Mul = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!Mul || Mul->getOpcode() != BO_Mul)
      return std::nullopt;
    for (bool Swap : {false, true}) {
      const LoopVar *I =
          countedBelow(varOf(Swap ? Mul->getRHS() : Mul->getLHS()));
      const ParmVarDecl *C = paramOf(Swap ? Mul->getLHS() : Mul->getRHS());
      if (I && I != Not && C && declFunctionContext(C) == FD &&
          C->getType()->isIntegerType() &&
          !lowering::modifies(FD->getBody(), C))
        return std::make_pair(I->Bound, C);
    }
    return std::nullopt;
  }

  // Matrix indices (ExtentMatrix.h): `i * c + j` (row-major, (r, c)),
  // `i + j * ld` (column-major, ColRows and ColCols), a loop to `i <= j`.
  std::optional<RowsCols> flatIndex(const Expr *Idx) const;
  bool columnIndex(const Expr *Idx);
  const LoopVar *fromZero(const VarDecl *V, int Depth = 0);
  LoopVar forVar(const ForStmt *FS);

  /// A row pointer `p + i * c` or `&p[i * c]`: (r, c).
  std::optional<RowsCols> rowStart(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
          AS && paramOf(AS->getBase()) == P)
        return rowOffset(AS->getIdx());
    const auto *Add = dyn_cast<BinaryOperator>(E);
    if (!Add || Add->getOpcode() != BO_Add)
      return std::nullopt;
    for (bool Swap : {false, true})
      if (paramOf(Swap ? Add->getRHS() : Add->getLHS()) == P)
        return rowOffset(Swap ? Add->getLHS() : Add->getRHS());
    return std::nullopt;
  }

  /// `const double *row = A + i * c;` read only as `row[j]` under `j < c`:
  /// a row of the r x c matrix A (C's scope keeps it in i's loop).
  bool rowPointer(const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      const auto *V =
          DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
      auto RC = V && V->getType()->isPointerType() && V->getInit()
                    ? rowStart(V->getInit())
                    : std::nullopt;
      if (!RC || lowering::modifies(FD->getBody(), V))
        return false;
      if (!flat(*RC, V->getInit()) && !Unknown)
        Unknown = V->getInit();
      Rows[V] = RC->second;
      return true;
    }
    const auto *AS = dyn_cast<ArraySubscriptExpr>(S);
    const VarDecl *V = AS ? varOf(AS->getBase()) : nullptr;
    if (!V || !Rows.count(V))
      return false;
    const LoopVar *J = countedBelow(varOf(AS->getIdx()));
    if ((!J || J->Bound != Rows[V]) && !Unknown)
      Unknown = AS->getIdx();
    return true;
  }

  /// `p + n` / `n + p` with n an integer parameter: the end of a pointer
  /// walk (`for (q = p; q < p + n; q++)`), so n elements.
  void endPointer(const BinaryOperator *BO) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (paramOf(R) == P)
      std::swap(L, R);
    const ParmVarDecl *N = paramOf(R);
    if (paramOf(L) != P || !N || declFunctionContext(N) != FD ||
        !N->getType()->isIntegerType())
      return;
    // (n assigned before it, or in a loop around it: `p + n` is not the
    // parameter's n.)
    End.Bad |= (End.N && End.N != N) ||
               modifiesReaching(FD->getBody(), N, BO, nullptr);
    End.N = N;
  }

  /// Whether \p S steps a pointer: `q += k`, `q++`, `++q`.
  static bool ptrStep(const Stmt *S) {
    const Expr *Q = nullptr;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign)
      Q = CA->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementOp())
      Q = UO->getSubExpr();
    return Q && Q->getType()->isPointerType();
  }

  /// Whether \p S is the step `q += k` / `q++` / `++q` of a walk by p or
  /// a copy q of it, or an access q[c] / *q (of p itself: when p is
  /// stepped); records them.
  bool stepWalk(const Stmt *S) {
    const Stmt *Loop = LoopStmts.empty() ? nullptr : LoopStmts.back();
    auto Walked = [&](const Expr *E) {
      const VarDecl *V = varOf(E);
      if (!V || !isP(E) || (V == P && !Stepped))
        return false;
      if (!Step.Copy)
        Step.Copy = Aliases.lookup(V);
      return true;
    };
    // A read q[Idx] (nullptr: *q): where it is, and its index's range.
    auto Access = [&](const Expr *Idx) {
      WalkAccess A;
      A.In = LoopStmts;
      auto R =
          Idx ? range(Idx) : std::optional<std::pair<int64_t, int64_t>>({0, 0});
      if (R) {
        A.Min = R->first;
        A.Max = R->second;
      } else if (const VarDecl *V = varOf(Idx)) {
        for (auto It = Loops.rbegin(); It != Loops.rend() && !A.Below; ++It)
          if (It->V == V && It->Bound && It->Counts)
            A.Below = It->Bound;
        Step.Bad |= !A.Below;
      } else {
        Step.Bad = true;
      }
      Step.Reads.push_back(std::move(A));
      if (Idx)
        walk(Idx);
      return true;
    };
    // The step: k elements, as the loop's last statement or increment.
    std::optional<int64_t> K;
    const ParmVarDecl *KParam = nullptr;
    const Expr *Q = nullptr;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign) {
      Q = CA->getLHS();
      K = constInt(CA->getRHS());
      // `row += c`, c an integer parameter nothing assigns: c per step.
      if (const ParmVarDecl *C = paramOf(CA->getRHS());
          !K && C && declFunctionContext(C) == FD &&
          C->getType()->isIntegerType() &&
          !lowering::modifies(FD->getBody(), C)) {
        KParam = C;
        K = 1;
      }
      if (!K)
        K = 0;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
               UO && UO->isIncrementOp()) {
      Q = UO->getSubExpr();
      K = 1;
    }
    if (Q && Walked(Q)) {
      const auto *FS = dyn_cast_or_null<ForStmt>(Loop);
      const auto *Body = dyn_cast_or_null<CompoundStmt>(
          FS     ? FS->getBody()
          : Loop ? (isa<WhileStmt>(Loop) ? cast<WhileStmt>(Loop)->getBody()
                                         : cast<DoStmt>(Loop)->getBody())
                 : nullptr);
      bool Last = FS && incPart(FS->getInc(), S);
      // The body's last statements: pointer steps only (`x++; y++;`).
      if (Body)
        for (auto It = Body->body_rbegin();
             It != Body->body_rend() && !Last && ptrStep(*It); ++It)
          Last = *It == S;
      Step.Bad |= *K < 1 || !Last || (Step.Loop && Step.Loop != Loop);
      Step.K = *K;
      Step.KParam = KParam;
      Step.Loop = Loop;
      std::string Name = varOf(Q)->getNameAsString();
      const auto *UO = dyn_cast<UnaryOperator>(S);
      Step.Text = UO       ? (UO->isPrefix() ? "++" + Name : Name + "++")
                  : KParam ? Name + " += " + KParam->getNameAsString()
                           : Name + " += " + std::to_string(*K);
      Step.use(Around, Q);
      return true;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S);
        AS && Walked(AS->getBase()))
      return Access(AS->getIdx());
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_Deref && Walked(UO->getSubExpr()))
      return Access(nullptr);
    return false;
  }

  /// The shift of p in an argument that passes p on: p itself, a view of
  /// p, `p - c`, `p + c`, `&p[c]`.
  std::optional<int64_t> passedShift(const Expr *Arg) {
    if (const VarDecl *V = viewOf(Arg))
      return Views[V];
    if (auto Sh = viewShift(Arg))
      return *Sh + BaseShift;
    return std::nullopt;
  }

  /// A call of a helper defined in the file that passes p on (`h(x - 1,
  /// n, t)`, Numerical Recipes' 1-based routines called from 0-based
  /// code): the helper's indices of its parameter, shifted, are p's, when
  /// they are explained by constants and loops bounded by the helper's
  /// integer parameters, each passed an integer parameter of this function
  /// that neither function assigns (more in ExtentCalls.cpp, which defines
  /// it). The other arguments are walked; false (nothing recorded) when the
  /// call passes p on in no such way.
  bool followCall(const CallExpr *CE);

  /// This function's integer parameter that a call of \p Def passes to
  /// Def's parameter \p HP, when neither function assigns them.
  const ParmVarDecl *passedParam(const ParmVarDecl *HP, const CallExpr *CE,
                                 const FunctionDecl *Def) const {
    unsigned K = HP->getFunctionScopeIndex();
    const ParmVarDecl *N =
        K < CE->getNumArgs() ? paramOf(CE->getArg(K)) : nullptr;
    if (!N || declFunctionContext(N) != FD || !N->getType()->isIntegerType() ||
        lowering::modifies(FD->getBody(), N) ||
        lowering::modifies(Def->getBody(), HP))
      return nullptr;
    return N;
  }

  /// Adds what helper \p Def's uses \p H say of p, through the call \p CE;
  /// false when they are not all explained by the index rules.
  bool merge(const Uses &H, const CallExpr *CE, const FunctionDecl *Def) {
    if (H.BeforeAt && !BeforeAt) { // a read before p's start, in the helper
      BeforeAt = H.BeforeAt;
      BeforeView = H.BeforeView;
      BeforeMin = H.BeforeMin;
      BeforeShift = H.BeforeShift;
      if (!Unknown)
        Unknown = H.BeforeAt;
      return true;
    }
    if (H.Unknown || H.Whole || H.Stepped || H.Inc.Uses || H.Step.Uses ||
        !H.Step.Reads.empty() || H.End.N || H.FlatRows || H.AtLeast ||
        H.BeforeAt || !H.Aliases.empty() || !H.Rows.empty() || H.Div > 1 ||
        H.SearchN)
      return false;
    const ParmVarDecl *B = H.Bound ? passedParam(H.Bound, CE, Def) : nullptr;
    const ParmVarDecl *PP =
        H.PlusParam ? passedParam(H.PlusParam, CE, Def) : nullptr;
    if ((H.Bound && (!B || (Bound && Bound != B))) ||
        (H.PlusParam && (!PP || (PlusParam && PlusParam != PP))))
      return false;
    if (B && !scaleBy(B, H.Scale, 1))
      return false;
    if (B && H.BoundNeed > BoundNeed) {
      BoundNeed = H.BoundNeed;
      NeedOf = H.NeedOf;
    }
    if (PP) {
      PlusParam = PP;
      Plus = std::max(Plus, H.Plus);
      PlusLoop |= H.PlusLoop;
      if (!PlusAt)
        PlusAt = CE;
    }
    MaxConst = std::max(MaxConst, H.MaxConst);
    FromRange |= H.FromRange;
    for (const FunctionDecl *D : H.Helpers)
      if (std::find(Helpers.begin(), Helpers.end(), D) == Helpers.end())
        Helpers.push_back(D);
    return true;
  }

  /// The statements `q = p;` of the function's body \p Body that set a
  /// pointer local q declared without a value, assigned nowhere else and
  /// stepped (never stepped, q is an offset view: viewDecl).
  void lateAliases(const CompoundStmt *Body) {
    for (const Stmt *S : Body->body()) {
      const auto *BO = dyn_cast<BinaryOperator>(S);
      const VarDecl *V =
          BO && BO->getOpcode() == BO_Assign ? varOf(BO->getLHS()) : nullptr;
      if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getInit() ||
          !V->getType()->isPointerType() || paramOf(BO->getRHS()) != P)
        continue;
      const BinaryOperator *Found = nullptr;
      int Count = 0;
      assigns(FD->getBody(), V, Found, Count);
      if (Count == 1 && modifiesBesides(FD->getBody(), V, BO))
        LateAliases[V] = BO;
    }
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (S == FD->getBody())
      if (const auto *Body = dyn_cast<CompoundStmt>(S))
        lateAliases(Body);
    // `q = p;` (lateAliases): q is a copy of p from here on.
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (const VarDecl *V = varOf(BO->getLHS());
          V && LateAliases.lookup(V) == BO) {
        Aliases[V] = BO->getRHS()->IgnoreParenImpCasts();
        return;
      }
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S)) {
      const auto *FS = dyn_cast<ForStmt>(S);
      // A bound assigned where it can reach its loop (`n = 2 * n;` before
      // it, or in a loop around it) is not the parameter's value there: no
      // bound, no count. (Only after it, `n = 0;`, it is.)
      auto Kept = [&](const ParmVarDecl *N) {
        return N && !modifiesReaching(FD->getBody(), N, S, S) ? N : nullptr;
      };
      Trip T;
      T.N = Kept(counted(S, &T.Need));
      std::optional<LoopVar> Lag;
      if (FS) {
        Loops.push_back(forVar(FS));
        Loops.back().Bound = Kept(Loops.back().Bound);
        Loops.back().Counts = T.N && T.N == Loops.back().Bound;
        if (!T.N && Loops.back().Ranged)
          T.K = Loops.back().Trips;
        if ((Lag = laggingVar(FS, Loops.back())))
          Loops.push_back(*Lag);
      }
      const auto *WS = dyn_cast<WhileStmt>(S);
      if (WS) {
        Loops.push_back(whileVar(WS));
        Loops.back().Bound = Kept(Loops.back().Bound);
      }
      const auto *DS = dyn_cast<DoStmt>(S);
      if (DS) {
        Loops.push_back(doVar(DS, !LoopStmts.empty()));
        if (!Loops.back().Bound) // `do { ... x[n - 1] ... } while (--n);`
          Loops.back() = doCountedVar(DS, !LoopStmts.empty());
        T.N = doCounted(DS, !LoopStmts.empty(), T.Once);
        T.Need = T.N && !T.Once ? 1 : -1;
      }
      Around.push_back(T);
      LoopStmts.push_back(S);
      // A for loop's init runs before its test, its increment after the
      // body: there its variables are not what the test bounds (`for (i =
      // 0; i < n; i++, s += x[i])` reads x[n]).
      size_t Mine = Lag ? 2 : FS ? 1 : 0;
      for (const Stmt *C : astChildren(S)) {
        std::vector<LoopVar> Saved;
        if (FS && C && (C == FS->getInit() || C == FS->getInc()))
          for (size_t K = Loops.size() - Mine; K < Loops.size(); K++) {
            Saved.push_back(Loops[K]);
            Loops[K] = LoopVar();
            Loops[K].V = Saved.back().V;
          }
        walk(C);
        for (size_t K = 0; K < Saved.size(); K++)
          Loops[Loops.size() - Mine + K] = Saved[K];
      }
      LoopStmts.pop_back();
      Around.pop_back();
      if (FS || WS || DS)
        Loops.pop_back();
      if (Lag)
        Loops.pop_back();
      return;
    }
    // `*p++`: one element per iteration of the loop around it.
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_Deref)
      if (const auto *PostInc =
              dyn_cast<UnaryOperator>(UO->getSubExpr()->IgnoreParens());
          PostInc && PostInc->getOpcode() == UO_PostInc &&
          isP(PostInc->getSubExpr())) {
        // In one loop only: a loop around it would repeat the walk.
        Inc.use(Around, PostInc->getSubExpr());
        Incs.push_back({PostInc->getSubExpr(), LoopStmts});
        return;
      }
    if (stepWalk(S))
      return;
    // Offset views: `const double *a = p - 1;`, then a[i], *a, a->m.
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && viewDecl(DS))
      return;
    if (ViewAssigns.count(S))
      return;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
      if (const VarDecl *V = viewOf(AS->getBase())) {
        index(AS->getIdx(), Views[V], V);
        walk(AS->getIdx());
        return;
      }
    // `*a`, `a->m`: a[0], p[Shift].
    const Expr *Elem0 = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->getOpcode() == UO_Deref)
      Elem0 = UO->getSubExpr();
    if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
      Elem0 = ME->getBase();
    if (const VarDecl *V = Elem0 ? viewOf(Elem0) : nullptr) {
      if (!beforeAt(Views[V], Elem0, V))
        MaxConst = std::max<int64_t>(MaxConst, Views[V]);
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && followCall(CE))
      return;
    if (rowPointer(S)) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
        walk(AS->getIdx());
      return;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
      if (paramOf(AS->getBase()) == P) {
        index(AS->getIdx(), BaseShift, BaseShift ? P : nullptr);
        walk(AS->getIdx());
        return;
      }
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->getOpcode() == UO_Deref && paramOf(UO->getSubExpr()) == P) {
        if (!beforeAt(BaseShift, UO, P))
          MaxConst = std::max<int64_t>(MaxConst, BaseShift);
        return;
      }
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->getOpcode() == BO_Add)
        endPointer(BO);
    Gotos |= isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      remLocals(DS);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      if (const auto *V = DS->isSingleDecl()
                              ? dyn_cast<VarDecl>(DS->getSingleDecl())
                              : nullptr;
          V && V->getType()->isPointerType() && V->getInit() &&
          paramOf(V->getInit()) == P) {
        Aliases[V] = V->getInit()->IgnoreParenImpCasts();
        return;
      }
    // Any other use of a copy or a row pointer is a use of p as a pointer.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && !Whole) {
        if (Aliases.count(V))
          Whole = Aliases[V];
        else if (LateAliases.count(V)) // used before `q = p;`
          Whole = LateAliases[V]->getRHS();
        else if (Rows.count(V) || Views.count(V))
          Whole = V->getInit();
      }
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (ME->isArrow() && paramOf(ME->getBase()) == P) {
        if (!beforeAt(BaseShift, ME, P)) // p->m: record 0
          MaxConst = std::max<int64_t>(MaxConst, BaseShift);
        return;
      }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == P && !Whole)
        Whole = DRE;
    for (const Stmt *C : astChildren(S))
      walk(C);
  }
};

} // namespace extents
} // namespace batchdiff

#include "lower/ExtentMatrix.h"
