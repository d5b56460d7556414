//===- ArrayParams.cpp - pointer and array parameters ---------------------===//
#include "lower/ArrayParams.h"
#include "lower/ExtentAdjust.h"
#include "lower/ExtentUses.h"

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/CharInfo.h"

#include <algorithm>
#include <cstring>

using namespace clang;

namespace batchdiff {
namespace {

using namespace extents;

/// Whether \p E, a declared extent, is integer arithmetic over integer
/// parameters and constants (`n + 1`, `n * (n + 1) / 2`, `r * c`); collects
/// the parameters in \p Ps.
bool extentExpr(const Expr *E, ASTContext &Ctx,
                std::vector<const ParmVarDecl *> &Ps) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult K;
  if (!E->isValueDependent() && E->EvaluateAsInt(K, Ctx))
    return true;
  if (const ParmVarDecl *N = paramOf(E)) {
    if (!N->getType()->isIntegerType())
      return false;
    if (std::find(Ps.begin(), Ps.end(), N) == Ps.end())
      Ps.push_back(N);
    return true;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  switch (BO->getOpcode()) {
  case BO_Add:
  case BO_Sub:
  case BO_Mul:
  case BO_Div:
  case BO_Rem:
  case BO_Shl:
  case BO_Shr:
    return extentExpr(BO->getLHS(), Ctx, Ps) &&
           extentExpr(BO->getRHS(), Ctx, Ps);
  default:
    return false;
  }
}

/// The text of BD_EXTENT(EXPR): integer arithmetic (+ - * / % << >>,
/// parentheses) over decimal constants and the function's integer parameters,
/// which is what a declared extent `x[n * (n + 1) / 2]` allows. Parameters may
/// follow the pointer: that is what the annotation is for.
class ExtentText {
public:
  ExtentText(llvm::StringRef S, const FunctionDecl *FD) : S(S), FD(FD) {}

  /// Parses the whole text; false with Error set when it is not such an
  /// expression. Constant: Ps is empty and Value holds it.
  bool parse() {
    bool OK = shift(Value) && (skip(), I == S.size());
    if (OK && Ps.empty() && Overflow) {
      Error = "the constant arithmetic overflows or divides by zero";
      return false;
    }
    if (OK || !Error.empty())
      return OK;
    Error = "expected integer arithmetic over integer parameters and "
            "constants, e.g. BD_EXTENT(n) or BD_EXTENT(n + 1)";
    return false;
  }

  std::vector<const ParmVarDecl *> Ps;
  int64_t Value = 0;
  std::string Error;
  bool Overflow = false;

private:
  void skip() {
    while (I < S.size() && (S[I] == ' ' || S[I] == '\t'))
      ++I;
  }
  bool eat(char C) {
    skip();
    if (I < S.size() && S[I] == C)
      return ++I, true;
    return false;
  }
  // Values matter for constants only (Ps empty: a parameter counts as 1);
  // operands within 2^31 keep the folding defined.
  int64_t fold(char Op, int64_t A, int64_t B) {
    constexpr int64_t Big = int64_t(1) << 31;
    bool Bad = A > Big || A < -Big || B > Big || B < -Big ||
               ((Op == '/' || Op == '%') && B == 0) ||
               ((Op == '<' || Op == '>') && (A < 0 || B < 0 || B > 30));
    Overflow |= Bad;
    return Bad         ? 0
           : Op == '+' ? A + B
           : Op == '-' ? A - B
           : Op == '*' ? A * B
           : Op == '/' ? A / B
           : Op == '%' ? A % B
           : Op == '<' ? A << B
                       : A >> B;
  }
  bool binary(bool (ExtentText::*Next)(int64_t &), const char *Ops,
              int64_t &V) {
    if (!(this->*Next)(V))
      return false;
    for (;;) {
      skip();
      if (I >= S.size() || !std::strchr(Ops, S[I]))
        return true;
      char Op = S[I++];
      int64_t W;
      if (!(this->*Next)(W))
        return false;
      V = fold(Op, V, W);
    }
  }
  bool shift(int64_t &V) {
    if (!sum(V))
      return false;
    for (;;) {
      skip();
      if (I + 1 >= S.size() || S[I] != S[I + 1] || !std::strchr("<>", S[I]))
        return true;
      char Op = S[I];
      I += 2;
      int64_t W;
      if (!sum(W))
        return false;
      V = fold(Op, V, W);
    }
  }
  bool sum(int64_t &V) { return binary(&ExtentText::product, "+-", V); }
  bool product(int64_t &V) { return binary(&ExtentText::unary, "*/%", V); }
  bool unary(int64_t &V) {
    if (eat('-')) {
      if (!unary(V))
        return false;
      V = fold('-', 0, V);
      return true;
    }
    if (eat('('))
      return shift(V) && eat(')');
    skip();
    size_t B = I;
    if (I < S.size() && isDigit(S[I])) {
      while (I < S.size() && isDigit(S[I]))
        ++I;
      size_t E = I;
      while (I < S.size() && std::strchr("uUlL", S[I])) // 64u, 64L
        ++I;
      return !S.substr(B, E - B).getAsInteger(10, V) && V <= (int64_t(1) << 31);
    }
    while (I < S.size() && isAsciiIdentifierContinue(S[I]))
      ++I;
    if (B == I || isDigit(S[B]))
      return false;
    llvm::StringRef Name = S.substr(B, I - B);
    for (const ParmVarDecl *Q : FD->parameters())
      if (Q->getName() == Name) {
        if (!Q->getType()->isIntegerType()) {
          Error = "'" + Name.str() + "' is not an integer parameter";
          return false;
        }
        if (std::find(Ps.begin(), Ps.end(), Q) == Ps.end())
          Ps.push_back(Q);
        V = 1; // any nonzero value: a parameter's is unknown
        return true;
      }
    Error = "'" + Name.str() + "' is not a parameter of '" +
            FD->getNameAsString() + "'";
    return false;
  }

  llvm::StringRef S;
  const FunctionDecl *FD;
  size_t I = 0;
};

/// The parameter an extent over the parameters \p Ps (not empty) names in
/// the ragged remark and sorts by length with: the first varying one, else
/// the first.
int dimParamOf(const std::vector<const ParmVarDecl *> &Ps) {
  for (const ParmVarDecl *Q : Ps)
    if (!isUniform(Q))
      return (int)Q->getFunctionScopeIndex();
  return (int)Ps[0]->getFunctionScopeIndex();
}

/// "parameter 'n'" or "parameters 'r', 'c'" (\p Ps not empty).
std::string paramList(const std::vector<const ParmVarDecl *> &Ps) {
  std::string R = (Ps.size() == 1 ? "parameter '" : "parameters '") +
                  Ps[0]->getNameAsString() + "'";
  for (size_t K = 1; K < Ps.size(); ++K)
    R += ", '" + Ps[K]->getNameAsString() + "'";
  return R;
}

/// BD_EXTENT(EXPR) on \p P: 1 when it gave the extent (of \p Cols
/// elements each), 0 after an error, -1 when \p P has none.
int annotatedExtent(const FunctionDecl *FD, const ParmVarDecl *P,
                    ASTContext &Ctx, DiagnosticsEngine &D, ir::Param &Out,
                    int64_t Cols, const std::string &RowsOf) {
  std::string Text;
  SourceLocation Loc;
  if (!declaredExtent(P, Text, Loc))
    return -1;
  QualType Orig = P->getOriginalType();
  if (Ctx.getAsConstantArrayType(Orig) || Ctx.getAsVariableArrayType(Orig)) {
    report(D, DiagnosticsEngine::Error, Loc,
           "'%0' declares its extent twice, in its type and with "
           "BD_EXTENT(%1); keep one")
        << Out.Name << Text;
    return 0;
  }
  ExtentText X(Text, FD);
  if (!X.parse()) {
    report(D, DiagnosticsEngine::Error, Loc, "BD_EXTENT(%0) of '%1': %2")
        << Text << Out.Name << X.Error;
    return 0;
  }
  if (X.Ps.empty()) {
    if (X.Value < 1 || X.Value * Cols > (int64_t(1) << 30)) {
      report(D, DiagnosticsEngine::Error, Loc,
             "BD_EXTENT(%0) of '%1' is %2: an extent is at least 1 (and at "
             "most 2^30 elements)")
          << Text << Out.Name << std::to_string(X.Value);
      return 0;
    }
    Out.StaticLen = (int)(X.Value * Cols);
    Out.Declared = true;
    Out.DimHow = "static " + std::to_string(Out.StaticLen) + " (BD_EXTENT(" +
                 Text + ")" + RowsOf + ")";
    return 1;
  }
  Out.DimParam = dimParamOf(X.Ps);
  Out.DimHow =
      "dynamic, BD_EXTENT(" + Text + ") (" + paramList(X.Ps) + RowsOf + ")";
  return 1;
}

/// BD_PACKED / BD_POINTERS: the layout of a varying array's examples.
bool layout(const ParmVarDecl *P, DiagnosticsEngine &D, ir::Param &Out) {
  bool Offs = isPackedOffsets(P), Ptrs = isPackedPointers(P);
  if (Offs && Ptrs) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "array parameter '%0' is marked both BD_PACKED and BD_POINTERS; "
           "pick one layout")
        << Out.Name;
    return false;
  }
  if ((Offs || Ptrs) && Out.Uniform) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "BD_UNIFORM array '%0' cannot be %1: one array for the whole "
           "batch has no per-example layout; drop one of the two")
        << Out.Name << (Offs ? "BD_PACKED" : "BD_POINTERS");
    return false;
  }
  Out.Lay = Offs   ? ir::Layout::Offsets
            : Ptrs ? ir::Layout::Pointers
                   : ir::Layout::Strided;
  return true;
}

/// What a remark adds for a loop that runs n times (\p N) only for n >=
/// \p Need (-1: for every n), its counter \p I wrapping around below it.
static std::string needText(const std::string &N, const std::string &I,
                            int64_t Need) {
  if (Need < 0)
    return "";
  return "; for '" + N + "' >= " + std::to_string(Need) +
         ": below it the scalar loop ends only when '" + I + "' wraps around";
}

/// The extent of a walk of \p K elements (times parameter \p KParam, if
/// any) per iteration of the loops \p Trips (outermost first): their
/// product, static when every factor is a constant. False when a loop has
/// no bound (or an inner loop's bound is a parameter the body assigns).
bool walkExtent(const FunctionDecl *FD, const std::vector<Trip> &Trips,
                int64_t K, const ParmVarDecl *KParam, const std::string &Text,
                ir::Param &Out) {
  if (Trips.empty())
    return false;
  std::vector<const ParmVarDecl *> Ps;
  std::string Loops, Needs;
  for (size_t I = 0; I < Trips.size(); ++I) {
    const Trip &T = Trips[I];
    if ((!T.N && T.K <= 0) ||
        (T.N && I > 0 && lowering::modifies(FD->getBody(), T.N)))
      return false;
    Loops += (I ? " x " : "") +
             (T.N && T.Once ? "max('" + T.N->getNameAsString() + "', 1)"
              : T.N         ? "'" + T.N->getNameAsString() + "'"
                            : std::to_string(T.K));
    if (T.N) {
      Ps.push_back(T.N);
      Needs += needText(T.N->getNameAsString(), T.N->getNameAsString(), T.Need);
    } else if ((K *= T.K) > (1 << 30))
      return false;
  }
  if (KParam)
    Ps.push_back(KParam);
  std::string Why = " (pointer walk '" + Text + "' in " +
                    (Trips.size() == 1 ? "a loop" : "loops") + " of at most " +
                    Loops + " iterations" + Needs + ")";
  if (Ps.empty()) {
    Out.StaticLen = (int)K;
    Out.DimHow = "static " + std::to_string(K) + Why;
    return true;
  }
  Out.DimParam = dimParamOf(Ps);
  std::string Names;
  for (const ParmVarDecl *N : Ps)
    Names += (Names.empty() ? "'" : " x '") + N->getNameAsString() + "'";
  Out.DimHow = "dynamic, " +
               (K > 1 ? std::to_string(K) + " x "
                      : std::string(Ps.size() == 1 ? "from " : "")) +
               (Ps.size() == 1 ? "parameter " : "parameters ") + Names + Why;
  return true;
}

/// Whether \p E is inside \p S.
bool inside(const Stmt *S, const Stmt *E) {
  if (!S)
    return false;
  if (S == E)
    return true;
  for (const Stmt *C : astChildren(S))
    if (inside(C, E))
      return true;
  return false;
}

/// The extent of a walk `*q++` that reads K0 elements outside loops (each
/// at most once) and one per iteration of one loop L, L in no other loop
/// and counted down from a parameter (downCount): K0 + n - c, or K0 +
/// max(n - c, floor). Cephes' polevl, `p = coef; ans = *p++; i = N; do ans
/// = ans * x + *p++; while (--i);`, is N + 1 for N >= 1 (below it the
/// scalar loop ends only when i wraps around: no extent holds).
bool leadWalk(const FunctionDecl *FD, Uses &U, ir::Param &Out) {
  const StepRule &St = U.Step;
  if (U.Incs.empty() || St.Uses || !St.Reads.empty() || U.Gotos || U.Whole ||
      U.Unknown || U.MaxConst >= 0 || U.Bound || U.FromRange || U.PlusParam ||
      U.FlatRows || U.End.N || !U.Views.empty() || !U.Helpers.empty() ||
      !U.Rows.empty())
    return false;
  const Stmt *L = nullptr;
  const Expr *At = nullptr;
  int64_t K0 = 0;
  for (const IncUse &I : U.Incs) {
    if (I.In.empty()) {
      ++K0;
      continue;
    }
    // In L's body, once: its test or step runs more often.
    const Stmt *Body = nullptr;
    if (const auto *DS = dyn_cast<DoStmt>(I.In[0]))
      Body = DS->getBody();
    else if (const auto *WS = dyn_cast<WhileStmt>(I.In[0]))
      Body = WS->getBody();
    else if (const auto *FS = dyn_cast<ForStmt>(I.In[0]))
      Body = FS->getBody();
    if (L || I.In.size() != 1 || !inside(Body, I.At))
      return false;
    L = I.In[0];
    At = I.At;
  }
  CountDown D =
      L ? U.downCount(L, dyn_cast<CompoundStmt>(FD->getBody())) : CountDown();
  if (!D.N)
    return false;
  std::string N = "'" + D.N->getNameAsString() + "'";
  int64_t Base = K0 - D.C;
  Out.DimParam = (int)D.N->getFunctionScopeIndex();
  Out.DimHow = Base == 0
                   ? "dynamic, from parameter " + N
                   : "dynamic, parameter " + N + (Base > 0 ? " + " : " - ") +
                         std::to_string(std::abs(Base));
  if (D.Floor && K0 + *D.Floor > 0)
    Out.DimHow += ", at least " + std::to_string(K0 + *D.Floor);
  std::string Trips = D.C ? N + " - " + std::to_string(D.C) : N;
  if (D.Floor)
    Trips = "max(" + Trips + ", " + std::to_string(*D.Floor) + ")";
  Out.DimHow +=
      " (pointer walk '*" + varOf(At)->getNameAsString() + "++'" +
      (K0 ? ", " + std::to_string(K0) + " before a loop" : " in a loop") +
      " of at most " + Trips + " iterations: '" + D.Test + "'";
  if (!D.Floor)
    Out.DimHow += needText(D.N->getNameAsString(),
                           (D.I ? D.I : D.N)->getNameAsString(), D.C + D.Need);
  Out.DimHow += ")";
  return true;
}

/// The extent of a column-major matrix's indices `i + j * ld` (i < r, j <
/// c: Uses::columnIndex): (c - 1) * ld + r elements, for ld >= 0.
static bool columnExtent(const extents::Uses &U, ir::Param &Out) {
  Out.DimParam = dimParamOf({U.ColRows, U.ColCols, U.ColLd});
  std::string R = U.ColRows->getNameAsString(),
              C = U.ColCols->getNameAsString(), Ld = U.ColLd->getNameAsString();
  Out.DimHow = "dynamic, parameters '" + R + (R == C ? "" : "', '" + C) +
               "', '" + Ld + "': ('" + C + "' - 1) * '" + Ld + "' + '" + R +
               "' (column-major indices i + j * " + Ld + " of loops to '" + R +
               "' and '" + C + "'; for '" + Ld + "' >= 0)";
  return true;
}

/// The extent \p P's type declares: `T v[N]`, `T v[static N]`, `T x[n]`,
/// `T x[k * n]`, `T x[n + 1]` (of \p Cols elements each). False when it
/// declares none the batch can follow.
bool declaredExtent(const ParmVarDecl *P, ASTContext &Ctx, ir::Param &Out,
                    int64_t Cols, const std::string &RowsOf) {
  QualType Orig = P->getOriginalType();
  if (const auto *CAT = Ctx.getAsConstantArrayType(Orig)) {
    Out.StaticLen = (int)(CAT->getSize().getZExtValue() * Cols);
    Out.Declared = true;
    Out.DimHow =
        "static " + std::to_string(Out.StaticLen) + " (declared" +
        (RowsOf.empty()
             ? ""
             : ", " + std::to_string(CAT->getSize().getZExtValue()) + RowsOf) +
        ")";
    return true;
  }
  if (const auto *VAT = Ctx.getAsVariableArrayType(Orig)) {
    const Expr *Size = VAT->getSizeExpr();
    const ParmVarDecl *N = Size ? paramOf(Size) : nullptr;
    // `T x[k * n]` / `T x[n * k]`: n records of k elements.
    std::string Times;
    if (const auto *BO =
            Size ? dyn_cast<BinaryOperator>(Size->IgnoreParenImpCasts())
                 : nullptr;
        !N && BO && BO->getOpcode() == BO_Mul) {
      Expr::EvalResult K;
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      if (!L->isValueDependent() && L->EvaluateAsInt(K, Ctx))
        std::swap(L, R);
      if (!R->isValueDependent() && R->EvaluateAsInt(K, Ctx) &&
          K.Val.getInt().getSExtValue() >= 1) {
        N = paramOf(L);
        Times = std::to_string(K.Val.getInt().getSExtValue()) + " x ";
      }
    }
    if (N && N->getType()->isIntegerType()) {
      Out.DimParam = (int)N->getFunctionScopeIndex();
      Out.DimHow = "dynamic, " + (Times.empty() ? "from " : Times) +
                   "parameter '" + N->getNameAsString() + "' (declared" +
                   RowsOf + ")";
      return true;
    }
    // Any other arithmetic over integer parameters: `x[n + 1]` (a sliding
    // window), `p[n * (n + 1) / 2]` (a packed triangle), `a[r * c]`.
    std::vector<const ParmVarDecl *> Ps;
    if (Size && extentExpr(Size, Ctx, Ps) && !Ps.empty()) {
      Out.DimParam = dimParamOf(Ps);
      std::string Text;
      llvm::raw_string_ostream TS(Text);
      Size->printPretty(TS, nullptr, Ctx.getPrintingPolicy());
      Out.DimHow = "dynamic, declared '" + TS.str() + "' (" + paramList(Ps) +
                   RowsOf + ")";
      return true;
    }
  }
  return false;
}

/// The number of rows (or planes) of a multi-dimensional array parameter
/// that declares none (`T m[][c]`, `T (*m)[3]`), from how the body indexes
/// it, when that alone explains it: `m[i]` under `for (i = 0; i < r; i++)`
/// is r rows (\p N), constant indices (or those of constant-bound loops)
/// one past the largest (\p K); \p How says which. A walk, a use as a
/// pointer (`m + 1`, `f(m)`) or any other index: false.
bool inferredRows(const FunctionDecl *FD, const ParmVarDecl *P, ASTContext &Ctx,
                  const ParmVarDecl *&N, int64_t &K, std::string &How) {
  Uses U(P, FD, Ctx);
  U.walk(FD->getBody());
  if (U.Unknown || U.Whole || U.Stepped || U.Inc.Uses || U.Step.Uses ||
      U.End.N || U.FlatRows || U.PlusParam || U.Scale != 1 || U.Div != 1 ||
      U.SearchN || !U.Aliases.empty() || !U.Rows.empty() || !U.Views.empty() ||
      !U.Helpers.empty())
    return false;
  if (U.Bound && U.MaxConst < 0) {
    N = U.Bound;
    How = "loop bound";
    return true;
  }
  if (!U.Bound && U.MaxConst >= 0) {
    K = U.MaxConst + 1;
    How = U.FromRange ? "index range of constant-bound loops"
                      : "constant indices";
    return true;
  }
  return false;
}

/// The text of view \p V = p + \p Shift of parameter \p P: "a = x - 1",
/// "q = x".
std::string viewText(const VarDecl *V, int64_t Shift, const ParmVarDecl *P) {
  return V->getNameAsString() + " = " + P->getNameAsString() +
         (Shift == 0  ? ""
          : Shift < 0 ? " - " + std::to_string(-Shift)
                      : " + " + std::to_string(Shift));
}

/// The error for an index of an offset view of a pointer parameter whose
/// extent is inferred that can read before the parameter's start (`a = x -
/// 1`, then a[i] from i = 0): nothing else would explain it.
bool beforeStart(const Uses &U, QualType E, const ir::Param &Out,
                 DiagnosticsEngine &D) {
  int64_t Shift = U.BeforeShift;
  std::string View = U.BeforeView->getNameAsString();
  report(D, DiagnosticsEngine::Error, U.BeforeAt->getBeginLoc(),
         "this index of '%0' ('%1') can be %2, which reads '%3[%4]', before "
         "the start of '%3'; start at %5 ('%0[%5]' is '%3[0]'), or, if a "
         "test keeps it there, declare the extent: '%6 %3[n]' with an "
         "integer parameter n before it, or BD_EXTENT(n)")
      << View << viewText(U.BeforeView, Shift, U.P)
      << std::to_string(U.BeforeMin - Shift) << Out.Name
      << std::to_string(U.BeforeMin) << std::to_string(-Shift)
      << E.getAsString();
  return false;
}

/// The extent of pointer parameter \p P with elements \p E (rows of \p
/// Cols): declared, or inferred from the body's indexing.
bool extent(const FunctionDecl *FD, const ParmVarDecl *P, ASTContext &Ctx,
            DiagnosticsEngine &D, ir::Param &Out, const Expr **Whole,
            QualType E, int64_t Cols, const std::string &RowsOf,
            const std::string &Inner) {
  // Declared extents first: BD_EXTENT(n), T v[N], T v[static N], T x[n].
  if (int A = annotatedExtent(FD, P, Ctx, D, Out, Cols, RowsOf); A >= 0)
    return A == 1;
  if (declaredExtent(P, Ctx, Out, Cols, RowsOf))
    return true;
  const ParmVarDecl *RowsN = nullptr;
  int64_t RowsK = 0;
  std::string How;
  if (!RowsOf.empty() && inferredRows(FD, P, Ctx, RowsN, RowsK, How)) {
    if (RowsN) {
      Out.DimParam = (int)RowsN->getFunctionScopeIndex();
      Out.DimHow = "dynamic, from parameter '" + RowsN->getNameAsString() +
                   "' (" + How + "," + RowsOf + ")";
      return true;
    }
    if (RowsK * Cols <= (int64_t(1) << 30)) {
      Out.StaticLen = (int)(RowsK * Cols);
      Out.DimHow = "static " + std::to_string(Out.StaticLen) + " (" + How +
                   ", " + std::to_string(RowsK) + RowsOf + ")";
      return true;
    }
  }
  if (!RowsOf.empty()) {
    size_t Rank = 2 + (size_t)std::count(Inner.begin(), Inner.end(), ']');
    bool Planes = Rank > 2;
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "%3-dimensional array parameter '%0' needs a declared number of "
           "%4 in a batch/diff function; declare it as '%1 %0[N][%2]' or "
           "'%1 %0[n][%2]' with an integer parameter n")
        << Out.Name << E.getAsString() << Inner
        << (Rank == 2   ? "two"
            : Rank == 3 ? "three"
                        : "multi")
        << (Planes ? "planes" : "rows");
    return false;
  }
  // A plain pointer: look at how the body indexes it.
  Uses U(P, FD, Ctx);
  // f2c's `--x;` on entry (ExtentAdjust.h): x[i] is the caller's x[i - c].
  int64_t Adj = 0;
  if (const Stmt *S = adjustment(FD, P, Adj)) {
    U.BaseShift = -Adj;
    U.ViewAssigns.insert(S);
  }
  U.walk(FD->getBody());
  if (U.BeforeAt) // through an offset view: `a = x - 1`, then a[0]
    return beforeStart(U, E, Out, D);
  // The remark names the views and helpers the indices went through.
  auto viaViews = [&] {
    if (Adj)
      Out.DimHow += ", 1-based after '" + Out.Name +
                    " -= " + std::to_string(Adj) + "' on entry";
    for (auto &[V, Shift] : U.Views)
      Out.DimHow += ", through '" + viewText(V, Shift, P) + "'";
    for (const FunctionDecl *H : U.Helpers)
      Out.DimHow += ", through a call of '" + H->getNameAsString() + "'";
    return true;
  };
  // `c[n]` alone (a lookup at a parameter's index) explains nothing; with
  // a loop counted by n (Horner from the top) it adds to n.
  // Pairs and the odd one, `for (i = 0; i < n / 2; i++) ... x[2 * i + 1];
  // if (n % 2) ... x[n - 1];`: n elements.
  if (U.PlusParam && U.PlusParam == U.Bound && U.Div > 1 && U.Plus == 0 &&
      !U.PlusLoop && U.Scale <= U.Div)
    U.Scale = U.Div = 1;
  if (U.PlusParam && (U.PlusParam != U.Bound || U.Scale > 1 || U.Div > 1) &&
      !U.Unknown)
    U.Unknown = U.PlusAt;
  // A search's indices with other rules: with loops and indices to the same
  // bound only (not walks, end pointers, flat matrices).
  if (U.SearchN && !U.Unknown &&
      (U.Bound != U.SearchN || U.Whole || U.Stepped || U.Inc.Uses ||
       U.Step.Uses || !U.Step.Reads.empty() || U.End.N || U.FlatRows))
    U.Unknown = U.SearchAt;
  // A column-major matrix's indices explain the extent alone too.
  if (U.ColRows && !U.Unknown) {
    if (U.Bound || U.MaxConst >= 0 || U.FlatRows || U.Stepped || U.Inc.Uses ||
        U.Step.Uses || !U.Step.Reads.empty() || U.End.N || U.PlusParam ||
        U.SearchN || U.Whole || !U.Incs.empty() || !U.Rows.empty() ||
        U.AtLeast || !U.Helpers.empty())
      U.Unknown = U.ColAt;
    else
      return columnExtent(U, Out) && viaViews();
  }
  // A flat matrix's indices explain the extent alone (other indices or
  // walks of the same array: no rule combines them yet).
  if (U.FlatRows && !U.Unknown &&
      (U.Bound || U.MaxConst >= 0 || U.Stepped || U.Inc.Uses || U.Step.Uses))
    U.Unknown = U.FlatAt;
  if (U.Whole && U.End.N && !U.End.Bad) {
    Out.DimParam = (int)U.End.N->getFunctionScopeIndex();
    Out.DimHow = "dynamic, from parameter '" + U.End.N->getNameAsString() +
                 "' (end pointer '" + Out.Name + " + " +
                 U.End.N->getNameAsString() + "')";
    return viaViews();
  }
  // `for (i = 0; i < n; i++) s += *p++;`: one element per iteration.
  // (`*p` or `p[0]` besides: the first element, read by the scalar function
  // whatever n is.)
  // `for (i = 0; i < n; i++) { s += q[0] * q[1]; q += 2; }`: k per iteration,
  // also in nested loops (`row[j]` under `j < 4`, then `row += 4`).
  const StepRule &St = U.Step;
  bool StepOk = St.Uses == 1 && !St.Bad && U.Inc.Uses == 0 && !U.Gotos &&
                !U.Whole && !U.Unknown && !U.Bound && U.MaxConst < 0;
  for (const WalkAccess &A : St.Reads)
    StepOk &= std::find(A.In.begin(), A.In.end(), St.Loop) != A.In.end() &&
              (St.KParam ? A.Below == St.KParam
                         : !A.Below && A.Min >= 0 && A.Max < St.K);
  if (StepOk && walkExtent(FD, St.Trips, St.K, St.KParam, St.Text, Out))
    return viaViews();
  if (St.Copy && !U.Whole)
    U.Whole = St.Copy; // the copy is used as a pointer after all
  const WalkRule &In = U.Inc;
  if (St.Uses == 0 && St.Reads.empty() && In.Uses == 1 && !U.Gotos &&
      !U.Whole && !U.Unknown && U.MaxConst <= 0 && !U.FromRange &&
      (!U.Bound || (In.Trips.size() == 1 && U.Bound == In.Trips[0].N)) &&
      walkExtent(FD, In.Trips, 1, nullptr,
                 "*" + varOf(In.At)->getNameAsString() + "++", Out)) {
    // `*p` or `p[0]` besides: read whatever n is, so at least 1.
    if (U.MaxConst == 0 && !Out.StaticLen &&
        !(In.Trips.size() == 1 && In.Trips[0].Once))
      Out.DimHow.insert(Out.DimHow.find(" ("), ", at least 1");
    return viaViews();
  }
  // Walks before a loop counted down from a parameter (Cephes' polevl).
  if (leadWalk(FD, U, Out))
    return viaViews();
  for (const WalkRule *R : {(const WalkRule *)&U.Inc, (const WalkRule *)&St})
    if (R->Uses > 0 && !U.Whole)
      U.Whole = R->At;
  if (U.Whole) {
    *Whole = U.Whole;
    // (No extent: the lowering's error says why a helper gave none.)
    Out.DimHow = U.WholeWhy;
    return true;
  }
  if (!U.Unknown && U.FlatRows) {
    Out.DimParam = dimParamOf({U.FlatRows, U.FlatCols});
    std::string R = U.FlatRows->getNameAsString(),
                C = U.FlatCols->getNameAsString();
    Out.DimHow = "dynamic, parameters '" + R + "' x '" + C +
                 (isa<CallExpr>(U.FlatAt) // rows passed to helpers
                      ? "' (rows at i * " + C + " of a loop to '" + R + "', '" +
                            C + "' elements each)"
                      : "' (row-major indices i * " + C + " + j of loops to '" +
                            R + "' and '" + C + "')");
    return viaViews();
  }
  if (!U.Unknown && U.Bound) {
    Out.DimParam = (int)U.Bound->getFunctionScopeIndex();
    std::string N = U.Bound->getNameAsString();
    if (U.Plus > 0 && U.PlusLoop) // `for (i = 1; i <= n; i++) x[i]`
      Out.DimHow = "dynamic, parameter '" + N + "' + " +
                   std::to_string(U.Plus) + " (index of a loop to 'i <= " + N +
                   "')";
    else if (U.Plus > 0) // (then Scale is 1: `c[n]` and loops counted to n)
      Out.DimHow = "dynamic, parameter '" + N + "' + " +
                   std::to_string(U.Plus) + " (loop bound and index '" + N +
                   (U.Plus > 1 ? " + " + std::to_string(U.Plus - 1) : "") +
                   "')";
    else if (U.Div > 1) // `for (i = 0; i < n / 2; i++) x[2 * i + 1]`
      Out.DimHow =
          "dynamic, " +
          (U.Scale > 1 ? std::to_string(U.Scale) + " x (" : std::string()) +
          "parameter '" + N + "' / " + std::to_string(U.Div) +
          (U.Scale > 1 ? ") (loop bound, indices " + std::to_string(U.Scale) +
                             " * i + c)"
                       : " (loop bound)");
    else
      Out.DimHow = "dynamic, " +
                   (U.Scale > 1 ? std::to_string(U.Scale) + " x parameter '"
                                : std::string("from parameter '")) +
                   N +
                   (U.Scale > 1 ? "' (loop bound, indices " +
                                      std::to_string(U.Scale) + " * i + c)"
                                : "' (loop bound)");
    // (Each text above ends with its parenthesis.)
    Out.DimHow.insert(
        Out.DimHow.size() - 1,
        needText(N, U.NeedOf.empty() ? N : U.NeedOf, U.BoundNeed));
    if (U.SearchN) { // `x[mid]`, `mid = (lo + hi) / 2`, `hi = n - 1`
      std::string Vs;
      for (const VarDecl *V : U.SearchVars)
        Vs += (Vs.empty() ? "'" : ", '") + V->getNameAsString() + "'";
      std::string Search =
          "indices " + Vs + " of a search, within 0 .. '" + N + "' - 1" +
          (U.SearchNeed > 0
               ? " for '" + N + "' >= " + std::to_string(U.SearchNeed)
               : "");
      if (U.Terms == U.SearchUses && !U.PlusParam)
        Out.DimHow = "dynamic, from parameter '" + N + "' (" + Search + ")";
      else
        Out.DimHow.insert(Out.DimHow.size() - 1, "; " + Search);
    }
    if (U.AtLeast > 0) // `do { s += x[i]; i++; } while (i < n);`
      Out.DimHow += ", at least " + std::to_string(U.AtLeast) +
                    " (the body of a do/while loop runs once)";
    return viaViews();
  }
  if (!U.Unknown && U.MaxConst >= 0) {
    Out.StaticLen = (int)U.MaxConst + 1;
    Out.DimHow = "static " + std::to_string(Out.StaticLen) +
                 (U.FromRange ? " (index range of constant-bound loops)"
                              : " (constant indices)");
    if (U.Views.empty() && !U.Helpers.empty() && !U.FromRange) {
      // As the lowering found it before helpers were followed here.
      Out.DimHow = "static " + std::to_string(Out.StaticLen) +
                   " (constant indices, through pointers and helper calls)";
      return true;
    }
    return viaViews();
  }
  report(D, DiagnosticsEngine::Error,
         U.Unknown ? U.Unknown->getBeginLoc() : P->getLocation(),
         "cannot infer the extent of '%0' in a batch/diff function; declare "
         "it as '%1 %0[n]' with an integer parameter n before it (or "
         "arithmetic of such parameters, '%0[n + 1]'), or '%1 %0[static N]', "
         "or annotate it BD_EXTENT(n)")
      << Out.Name << E.getAsString();
  return false;
}

/// The rows of a VLA parameter `T m[r][c]`, `T m[4][c]`, `T m[r][c][3]`
/// (the parameter's pointee \p Row: one row, with a variable dimension):
/// their dimensions' text ("'c'", "'c' x 3") in \p Text and parameters in
/// \p Ps. False after an error: a dimension that is not integer arithmetic
/// over integer parameters the body leaves unassigned (C computes it once,
/// on entry; the generated code computes it where a row is indexed).
bool variableRows(const FunctionDecl *FD, const ParmVarDecl *P, ASTContext &Ctx,
                  DiagnosticsEngine &D, QualType Row, std::string &Text,
                  std::string &Decl, std::vector<const ParmVarDecl *> &Ps) {
  for (QualType Q = Row; const ArrayType *A = Ctx.getAsArrayType(Q);
       Q = A->getElementType()) {
    Text += Text.empty() ? "" : " x ";
    Decl += Decl.empty() ? "" : "][";
    if (const auto *CAT = dyn_cast<ConstantArrayType>(A)) {
      Text += std::to_string(CAT->getSize().getZExtValue());
      Decl += std::to_string(CAT->getSize().getZExtValue());
      continue;
    }
    const auto *VAT = dyn_cast<VariableArrayType>(A);
    const Expr *Size = VAT ? VAT->getSizeExpr() : nullptr;
    std::string S;
    llvm::raw_string_ostream SS(S);
    if (Size)
      Size->printPretty(SS, nullptr, Ctx.getPrintingPolicy());
    size_t Before = Ps.size();
    if (!Size || !extentExpr(Size, Ctx, Ps)) {
      report(D, DiagnosticsEngine::Error, P->getLocation(),
             "array parameter '%0' has the dimension '%1', which is not "
             "integer arithmetic over integer parameters and constants; "
             "declare it as '%0[r][c]' with integer parameters r and c before "
             "it")
          << P->getNameAsString() << SS.str();
      return false;
    }
    for (size_t K = Before; K < Ps.size(); ++K)
      if (lowering::modifies(FD->getBody(), Ps[K])) {
        report(D, DiagnosticsEngine::Error, P->getLocation(),
               "array parameter '%0' has rows of '%1' elements, and the "
               "function assigns '%2'; C computes the dimension once, on "
               "entry: copy '%2' into a local and change that")
            << P->getNameAsString() << SS.str() << Ps[K]->getNameAsString();
        return false;
      }
    Text += "'" + SS.str() + "'";
    Decl += SS.str();
  }
  return true;
}

/// The extent of a parameter with rows of a variable length (variableRows:
/// \p Row, declared as \p Decl, over the parameters \p RowPs): its number
/// of rows, declared (`T m[r][c]`, `T m[4][c]`, BD_EXTENT(r) on `T
/// m[][c]`) or inferred (inferredRows), times the rows' elements.
bool variableExtent(const FunctionDecl *FD, const ParmVarDecl *P,
                    ASTContext &Ctx, DiagnosticsEngine &D, ir::Param &Out,
                    const std::vector<const ParmVarDecl *> &RowPs,
                    const std::string &Row, const std::string &Decl,
                    QualType E) {
  QualType Orig = P->getOriginalType();
  const auto *CAT = Ctx.getAsConstantArrayType(Orig);
  const auto *VAT = Ctx.getAsVariableArrayType(Orig);
  std::string Rows, Text;
  SourceLocation Loc;
  std::vector<const ParmVarDecl *> Ps; // the rows' first, then RowPs
  const ParmVarDecl *RowsN = nullptr;
  int64_t RowsK = 0;
  std::string How, Kind = "declared ";
  if (batchdiff::declaredExtent(P, Text, Loc)) {
    if (CAT || VAT) {
      report(D, DiagnosticsEngine::Error, Loc,
             "'%0' declares its extent twice, in its type and with "
             "BD_EXTENT(%1); keep one")
          << Out.Name << Text;
      return false;
    }
    ExtentText X(Text, FD);
    if (!X.parse()) {
      report(D, DiagnosticsEngine::Error, Loc, "BD_EXTENT(%0) of '%1': %2")
          << Text << Out.Name << X.Error;
      return false;
    }
    Ps = X.Ps;
    Rows = "BD_EXTENT(" + Text + ")";
  } else if (CAT) {
    Rows = std::to_string(CAT->getSize().getZExtValue());
  } else if (VAT && VAT->getSizeExpr() &&
             extentExpr(VAT->getSizeExpr(), Ctx, Ps)) {
    llvm::raw_string_ostream RS(Rows);
    VAT->getSizeExpr()->printPretty(RS, nullptr, Ctx.getPrintingPolicy());
    Expr::EvalResult K; // `m[4][c]` (an array of VLAs: variable itself)
    Rows = VAT->getSizeExpr()->EvaluateAsInt(K, Ctx)
               ? std::to_string(K.Val.getInt().getSExtValue())
               : "'" + RS.str() + "'";
  } else if (VAT) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "array parameter '%0' declares its number of rows with an "
           "expression that is not integer arithmetic over integer "
           "parameters and constants; declare it as '%1 %0[r][%2]' with an "
           "integer parameter r")
        << Out.Name << E.getAsString() << Decl;
    return false;
  } else if (inferredRows(FD, P, Ctx, RowsN, RowsK, How)) {
    Kind = "inferred ";
    if (RowsN)
      Ps.push_back(RowsN);
    Rows =
        (RowsN ? "'" + RowsN->getNameAsString() + "'" : std::to_string(RowsK)) +
        " (" + How + ")";
  } else {
    bool Planes = Row.find(" x ") != std::string::npos;
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "%2-dimensional array parameter '%0' needs a declared number of "
           "%3 in a batch/diff function; declare it as '%1 %0[n][%4]' with "
           "an integer parameter n, or annotate it BD_EXTENT(n)")
        << Out.Name << E.getAsString() << (Planes ? "three" : "two")
        << (Planes ? "planes" : "rows") << Decl;
    return false;
  }
  for (const ParmVarDecl *Q : RowPs)
    if (std::find(Ps.begin(), Ps.end(), Q) == Ps.end())
      Ps.push_back(Q);
  Out.DimParam = dimParamOf(Ps);
  Out.DimHow = "dynamic, " + Kind + Rows + " x " + Row + " (" + paramList(Ps) +
               "; row-major)";
  return true;
}

} // namespace

bool lowerArrayParam(const FunctionDecl *FD, unsigned I, ASTContext &Ctx,
                     DiagnosticsEngine &D, ir::Param &Out, const Expr **Whole) {
  const ParmVarDecl *P = FD->getParamDecl(I);
  QualType E = P->getType()->getPointeeType();
  // A two-dimensional array `T m[R][C]`, `T x[n][C]`: rows of C elements,
  // row-major, one flat array of the batch's layout (docs/abi.md); three
  // dimensions, `T c[N][R][C]`: planes of R x C elements, the same way.
  int64_t Cols = 1;
  std::string Inner; // "C" or "R][C", as declared
  if (auto Flat = flatArray(Ctx, E)) {
    for (QualType Q = E; const auto *A = Ctx.getAsConstantArrayType(Q);
         Q = A->getElementType())
      Inner += (Inner.empty() ? "" : "][") +
               std::to_string(A->getSize().getZExtValue());
    Cols = (int64_t)Flat->second;
    E = Flat->first;
  }
  // Rows of a variable length: a VLA parameter `T m[r][c]`, `T m[][c]`.
  std::string VarRow, RowDecl;
  std::vector<const ParmVarDecl *> VarPs;
  if (auto El = Cols == 1 ? arrayElement(Ctx, E) : std::nullopt) {
    Out.Name = P->getNameAsString();
    if (!variableRows(FD, P, Ctx, D, E, VarRow, RowDecl, VarPs))
      return false;
    E = *El;
  }
  Out.Name = P->getNameAsString();
  Out.IsArray = true;
  Out.Uniform = isUniform(P);
  Out.Writable = !E.isConstQualified();
  auto T = irType(E);
  if (!T || E.isVolatileQualified()) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "pointer parameter '%0' to '%1' is not supported in a batch/diff "
           "function; %2")
        << Out.Name << E.getAsString()
        << (E->isAnyComplexType()
                ? "pass the real and imaginary parts as two arrays of "
                  "doubles (or floats), or one array of re, im pairs, and "
                  "make double complex locals of them"
            : E->isPointerType() && E->getPointeeType()->isArithmeticType()
                // (Numerical Recipes' `double **a` matrices.)
                ? "point to float, double, integer or _Bool elements: pass "
                  "a matrix as one array, a C99 array parameter 'const "
                  "double a[n][m]' (row-major, after its integer "
                  "parameters n and m) or 'const double *a' read as a[i * "
                  "m + j]"
                : "point to float, double, integer or _Bool elements");
    return false;
  }
  Out.Ty = *T;
  Out.CType = E.getUnqualifiedType().getAsString();
  Out.NativeLayout = nativeLayout(Ctx, E, *T);
  if (!Out.NativeLayout) {
    // char, short and _Bool arrays (pixels, labels, masks, quantised
    // outputs) are read and written element by element in 32-bit lanes:
    // widened as C promotes them, like char tables (a _Bool, a byte 0 or 1,
    // compared with 0 where it is read), and stored truncated as C converts
    // to them (the lowering converts the value first; a _Bool stores 0/1).
    // (Only those have an IR type of another width: irType.)
    bool Bool = *T == ir::Type::Bool;
    Out.Ty = ir::Type::I32;
    Out.Narrow = (Bool || E->isUnsignedIntegerType() ? "u" : "i") +
                 std::to_string(Ctx.getTypeSize(E));
    Out.BoolBytes = Bool;
    Out.NativeLayout = true; // the kernel reads the narrow type in place
  }
  Out.NoDiff = isNoDiff(P) || !ir::isFloat(*T);
  if (!layout(P, D, Out))
    return false;
  if (Out.Uniform && Out.Writable) {
    report(D, DiagnosticsEngine::Error, P->getLocation(),
           "BD_UNIFORM output array '%0': every example would write the same "
           "array; make it varying (one array per example) or const")
        << Out.Name;
    return false;
  }
  if (!VarRow.empty())
    return variableExtent(FD, P, Ctx, D, Out, VarPs, VarRow, RowDecl, E);
  std::string RowsOf;
  if (Inner.find(']') != std::string::npos) {
    std::string Plane = Inner;
    for (size_t At; (At = Plane.find("][")) != std::string::npos;)
      Plane.replace(At, 2, " x ");
    RowsOf = " planes of " + Plane + " (row-major)";
  } else if (!Inner.empty()) {
    RowsOf = " rows of " + Inner + " (row-major)";
  }
  return extent(FD, P, Ctx, D, Out, Whole, E, Cols, RowsOf, Inner);
}

bool recordArrayExtent(const FunctionDecl *FD, unsigned I, ASTContext &Ctx,
                       DiagnosticsEngine &D, ir::Param &Out,
                       const Expr **Whole) {
  const ParmVarDecl *P = FD->getParamDecl(I);
  return extent(FD, P, Ctx, D, Out, Whole, P->getType()->getPointeeType(), 1,
                "", "");
}

} // namespace batchdiff
