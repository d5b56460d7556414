//===- StaticScratch.cpp - static locals written before they are read -----===//
//
// cephes' jnx keeps `static double u[8];` as scratch: every element is
// assigned before anything reads it. Such a static never hands a value from
// one call to the next, so it is observably an ordinary local, and lowered
// as one (per example). This file decides which statics are, with a forward
// "definitely written" scan of the body, conservative:
//
// - The state at each point: for each static, the elements (one for a
//   scalar) every path from the function's entry to the point has written.
// - Written: an expression statement `s = e;`, `u[c] = e;` or `w[c][d] = e;`
//   at constant indices (also chained with '=' and ','), and a filling loop
//   `for (i = A; i < B; i++) u[i] = e;` (constants A and B; `<=` too; the
//   body a statement or a block with `u[i] = e;` among its statements; no
//   break, continue, return, goto or label in it; i not changed by it),
//   which writes u[A..B). Inside it, `u[i]` reads after the write and
//   `u[i - c]` reads (constant c >= 1, u[A-c..A) written before the loop)
//   find this call's values. A call statement (or `r = call(...);`)
//   passing `&s` or `&u[c]` to a helper of the file that writes through
//   that pointer parameter before any other use of it, on every path, and
//   on every path to its end (the same scan of its body, writesThrough),
//   writes s (cephes' `airy(t, &ai, &aip, &bi, &bip);`).
// - if/else: what both sides write; loops other than filling loops and
//   switch: what was written before them (a do-while without break or
//   continue: what its body writes); return, break, continue and goto end a
//   path; a label (or case label) restarts from nothing written (from the
//   switch's entry).
// - A use: reading an element at constant indices needs that element;
//   any other use (a varying index, the array as a pointer, its address,
//   '+=' or '++') needs every element. Writes at other places neither read
//   nor count.
//
//===----------------------------------------------------------------------===//
#include "lower/StaticScratch.h"
#include "lower/OmpSimd.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <optional>
#include <vector>

using namespace clang;

namespace batchdiff {
namespace lowering {
namespace {

struct State {
  bool Dead = false; // no path reaches here: everything counts as written
  llvm::DenseMap<const VarDecl *, llvm::BitVector> W;
};

/// What both \p A and \p B have written.
State meet(const State &A, const State &B) {
  if (A.Dead)
    return B;
  if (B.Dead)
    return A;
  State M = A;
  for (auto &[VD, Bits] : M.W)
    Bits &= B.W.lookup(VD);
  return M;
}

/// Whether a helper writes through its pointer parameter before it reads
/// through it, by (definition, parameter index).
using Writers = std::map<std::pair<const FunctionDecl *, unsigned>, bool>;

/// A static named, with the indices applied to it (outermost first); or
/// the element a pointer parameter scanned by writesThrough points at
/// (`*p`, `p[0]`).
struct Ref {
  const VarDecl *VD = nullptr;
  llvm::SmallVector<const Expr *, 3> Idx;
  bool Whole = false; // fewer indices than dimensions: a pointer or array
};

/// The filling loop whose body is being scanned.
struct Fill {
  const VarDecl *I = nullptr;
  int64_t Lo = 0, Hi = 0;
  llvm::SmallPtrSet<const VarDecl *, 4> Arrays; // `X[i] = e;` in its body
  llvm::SmallPtrSet<const VarDecl *, 4> Done;   // ... already this iteration
  const State *Entry = nullptr;                 // before the loop
};

const VarDecl *varRef(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Whether \p S may leave the loop body it is in (or jump around in it):
/// a return, goto or label anywhere, a break or continue not inside a loop
/// (or switch, for break) of its own.
bool escapes(const Stmt *S, bool InLoop = false, bool InSwitch = false) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<LabelStmt>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !InLoop && !InSwitch;
  if (isa<ContinueStmt>(S))
    return !InLoop;
  bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *C : astChildren(S))
    if (escapes(C, InLoop || Loop, InSwitch || Switch))
      return true;
  return false;
}

/// Whether \p S may change \p I (or take its address).
bool modifies(const Stmt *S, const VarDecl *I) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && varRef(BO->getLHS()) == I)
      return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        varRef(UO->getSubExpr()) == I)
      return true;
  for (const Stmt *C : astChildren(S))
    if (modifies(C, I))
      return true;
  return false;
}

class Scan {
public:
  Scan(ASTContext &Ctx, Writers &W) : Ctx(Ctx), W(W) { Ret.Dead = true; }
  void run(const Stmt *Body, ScratchStatics &Out);
  /// Whether \p Body writes what pointer parameter \p P points at before
  /// it reads it, on every path, and on every path to its end.
  bool runParam(const Stmt *Body, const VarDecl *P);

private:
  ASTContext &Ctx;
  Writers &W;
  State Ret; // what every return has written
  llvm::DenseMap<const VarDecl *, unsigned> Len; // the statics scanned
  llvm::DenseMap<const VarDecl *, SourceLocation> Stale;
  State Empty;                 // nothing written (the entry, a label)
  std::vector<State> Switches; // at the entry of the enclosing switches
  const Fill *Filling = nullptr;

  void collect(const Stmt *S);
  void stmt(const Stmt *S, State &St);
  void write(const Expr *E, State &St);
  void uses(const Stmt *S, const State &St);
  bool fillLoop(const ForStmt *FS, State &St);
  const VarDecl *fillTarget(const Stmt *S, const VarDecl *I);
  bool ref(const Expr *E, Ref &R);
  std::optional<int64_t> constant(const Expr *E);
  std::optional<uint64_t> flat(const Ref &R);
  bool fillRead(const Ref &R);
  void check(const Ref &R, SourceLocation At, const State &St, bool Addr);
  void call(const CallExpr *CE, State &St);
  bool outArg(const Expr *A, Ref &R);
  bool writesThrough(const FunctionDecl *Def, unsigned I);
};

void Scan::collect(const Stmt *S) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->isStaticLocal())
        continue;
      QualType T = VD->getType();
      QualType ET = Ctx.getBaseElementType(T);
      if (T.isVolatileQualified() || ET.isVolatileQualified() ||
          ET.isConstQualified() ||
          !(ET->isIntegerType() || ET->isRealFloatingType()) ||
          ET->isEnumeralType())
        continue;
      uint64_t N = 1;
      QualType Q = T;
      bool Ok = true;
      while (Q->isArrayType()) {
        const auto *CAT = Ctx.getAsConstantArrayType(Q);
        if (!CAT) {
          Ok = false;
          break;
        }
        N *= CAT->getSize().getZExtValue();
        Q = CAT->getElementType();
      }
      if (Ok && N >= 1 && N <= 65536)
        Len[VD] = (unsigned)N;
    }
  for (const Stmt *C : astChildren(S))
    collect(C);
}

std::optional<int64_t> Scan::constant(const Expr *E) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

bool Scan::ref(const Expr *E, Ref &R) {
  E = E->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    if (const VarDecl *P = varRef(UO->getSubExpr());
        P && Len.count(P) && P->getType()->isPointerType()) {
      R.VD = P;
      R.Idx.clear();
      R.Whole = false;
      return true;
    }
  llvm::SmallVector<const Expr *, 3> Idx;
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Idx.push_back(AS->getIdx());
    E = AS->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !Len.count(VD))
    return false;
  unsigned Dims = VD->getType()->isPointerType() ? 1 : 0;
  for (QualType Q = VD->getType(); Q->isArrayType();
       Q = Ctx.getAsArrayType(Q)->getElementType())
    ++Dims;
  if (Idx.size() > Dims)
    return false; // not an array subscript of it (cannot be, in C)
  R.VD = VD;
  R.Idx.assign(Idx.rbegin(), Idx.rend());
  R.Whole = Idx.size() < Dims;
  return true;
}

std::optional<uint64_t> Scan::flat(const Ref &R) {
  if (R.Whole)
    return std::nullopt;
  if (R.VD->getType()->isPointerType()) { // *p or p[0]
    if (!R.Idx.empty() && constant(R.Idx[0]) != 0)
      return std::nullopt;
    return 0;
  }
  uint64_t K = 0;
  QualType Q = R.VD->getType();
  for (const Expr *I : R.Idx) {
    const auto *CAT = Ctx.getAsConstantArrayType(Q);
    auto C = constant(I);
    if (!CAT || !C || *C < 0 || (uint64_t)*C >= CAT->getSize().getZExtValue())
      return std::nullopt;
    K = K * CAT->getSize().getZExtValue() + (uint64_t)*C;
    Q = CAT->getElementType();
  }
  return K;
}

/// `u[i]` after this iteration's `u[i] = e;`, or `u[i - c]` (c >= 1) with
/// u[A-c..A) written before the filling loop.
bool Scan::fillRead(const Ref &R) {
  const Fill *L = Filling;
  if (!L || R.Whole || R.Idx.size() != 1 || !L->Arrays.count(R.VD))
    return false;
  const Expr *E = R.Idx[0]->IgnoreParenImpCasts();
  if (varRef(E) == L->I)
    return L->Done.count(R.VD);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || BO->getOpcode() != BO_Sub || varRef(BO->getLHS()) != L->I)
    return false;
  auto C = constant(BO->getRHS());
  if (!C || *C < 1 || L->Lo - *C < 0)
    return false;
  if (L->Entry->Dead)
    return true;
  const llvm::BitVector &Bits = L->Entry->W.find(R.VD)->second;
  for (int64_t K = L->Lo - *C; K < L->Lo; ++K)
    if (K >= (int64_t)Bits.size() || !Bits.test((unsigned)K))
      return false;
  return true;
}

void Scan::check(const Ref &R, SourceLocation At, const State &St, bool Addr) {
  if (St.Dead)
    return;
  const llvm::BitVector &Bits = St.W.find(R.VD)->second;
  bool Ok = Bits.all();
  if (!Ok && !Addr) {
    if (auto K = flat(R))
      Ok = Bits.test((unsigned)*K);
    else
      Ok = fillRead(R);
  }
  if (!Ok && !Stale.count(R.VD))
    Stale[R.VD] = At;
}

void Scan::uses(const Stmt *S, const State &St) {
  if (!S || isa<UnaryExprOrTypeTraitExpr>(S)) // sizeof: not evaluated
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    auto Indices = [&](const Ref &R) {
      for (const Expr *I : R.Idx)
        uses(I, St);
    };
    Ref R;
    if (ref(E, R)) {
      check(R, E->getExprLoc(), St, false);
      return Indices(R);
    }
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (UO && UO->getOpcode() == UO_AddrOf && ref(UO->getSubExpr(), R)) {
      check(R, E->getExprLoc(), St, true);
      return Indices(R);
    }
    // A write reads nothing of the static (nor counts as written here).
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (BO && BO->getOpcode() == BO_Assign && ref(BO->getLHS(), R) &&
        !R.Whole) {
      Indices(R);
      return uses(BO->getRHS(), St);
    }
  }
  for (const Stmt *C : astChildren(S))
    uses(C, St);
}

void Scan::write(const Expr *E, State &St) {
  E = E->IgnoreParens();
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (BO && BO->getOpcode() == BO_Comma) {
    write(BO->getLHS(), St);
    write(BO->getRHS(), St);
    return;
  }
  Ref R;
  if (BO && BO->getOpcode() == BO_Assign && ref(BO->getLHS(), R) && !R.Whole) {
    for (const Expr *I : R.Idx)
      uses(I, St);
    write(BO->getRHS(), St);
    if (auto K = flat(R); K && !St.Dead)
      St.W[R.VD].set((unsigned)*K);
    return;
  }
  // A call, or `x = call`: its out-parameters (`airy(t, &ai, &aip, ...)`).
  if (const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenCasts()))
    return call(CE, St);
  if (BO && BO->getOpcode() == BO_Assign)
    if (const auto *CE = dyn_cast<CallExpr>(BO->getRHS()->IgnoreParenCasts())) {
      uses(BO->getLHS(), St);
      return call(CE, St);
    }
  uses(E, St);
}

/// `&s`, `&u[c]` (a static scanned), or `p` (a pointer parameter scanned).
bool Scan::outArg(const Expr *A, Ref &R) {
  A = A->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(A);
      UO && UO->getOpcode() == UO_AddrOf)
    return ref(UO->getSubExpr(), R) && !R.Whole && flat(R);
  const VarDecl *P = varRef(A);
  if (!P || !Len.count(P) || !P->getType()->isPointerType())
    return false;
  R.VD = P;
  R.Idx.clear();
  R.Whole = false;
  return true;
}

/// A call of a helper defined in the file that writes through its pointer
/// parameter before it reads through it, on every path, and on every path
/// to its end, with `&s` as that argument: a write of s, once the call
/// returns.
void Scan::call(const CallExpr *CE, State &St) {
  const FunctionDecl *Def = nullptr;
  if (const FunctionDecl *FD = CE->getDirectCallee())
    if (!FD->hasBody(Def))
      Def = nullptr;
  uses(CE->getCallee(), St);
  llvm::SmallVector<std::pair<const VarDecl *, uint64_t>, 4> Out;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    Ref R;
    if (Def && I < Def->getNumParams() && outArg(A, R) &&
        writesThrough(Def, I)) {
      QualType ET = R.VD->getType()->isPointerType()
                        ? R.VD->getType()->getPointeeType()
                        : Ctx.getBaseElementType(R.VD->getType());
      QualType PT = Def->getParamDecl(I)->getType()->getPointeeType();
      if (Ctx.hasSameUnqualifiedType(ET, PT)) {
        for (const Expr *X : R.Idx)
          uses(X, St);
        Out.push_back({R.VD, *flat(R)});
        continue;
      }
    }
    uses(A, St);
  }
  if (!St.Dead)
    for (const auto &[VD, K] : Out)
      St.W[VD].set((unsigned)K);
}

bool Scan::writesThrough(const FunctionDecl *Def, unsigned I) {
  auto Key = std::make_pair(Def->getCanonicalDecl(), I);
  if (auto It = W.find(Key); It != W.end())
    return It->second;
  W[Key] = false; // (a recursive call passing it on proves nothing)
  const ParmVarDecl *P = Def->getParamDecl(I);
  const auto *PT = P->getType()->getAs<PointerType>();
  QualType E = PT ? PT->getPointeeType() : QualType();
  bool Ok = PT && !E.isConstQualified() && !E.isVolatileQualified() &&
            (E->isIntegerType() || E->isRealFloatingType()) &&
            !E->isEnumeralType() && Scan(Ctx, W).runParam(Def->getBody(), P);
  W[Key] = Ok;
  return Ok;
}

/// The array \p S fills, as `X[i] = e;`, or null.
const VarDecl *Scan::fillTarget(const Stmt *S, const VarDecl *I) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  Ref R;
  if (!BO || BO->getOpcode() != BO_Assign || !ref(BO->getLHS(), R) || R.Whole ||
      R.Idx.size() != 1 || varRef(R.Idx[0]) != I)
    return nullptr;
  return R.VD;
}

bool Scan::fillLoop(const ForStmt *FS, State &St) {
  // i = A (or a declaration of i = A), i < B or i <= B, i++ (++i, i += 1).
  const VarDecl *I = nullptr;
  const Expr *Init = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit())) {
    if (DS->isSingleDecl())
      if ((I = dyn_cast<VarDecl>(DS->getSingleDecl())))
        Init = I->getInit();
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    I = varRef(BO->getLHS());
    Init = BO->getRHS();
  }
  if (!I || !Init || I->hasGlobalStorage() || Len.count(I) ||
      !I->getType()->isIntegerType())
    return false;
  auto Lo = constant(Init);
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreParens() : nullptr);
  if (!Lo || !Cond || varRef(Cond->getLHS()) != I ||
      (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
    return false;
  auto Hi = constant(Cond->getRHS());
  if (!Hi)
    return false;
  if (Cond->getOpcode() == BO_LE)
    ++*Hi;
  const Expr *Inc = FS->getInc() ? FS->getInc()->IgnoreParens() : nullptr;
  const auto *IU = dyn_cast_or_null<UnaryOperator>(Inc);
  const auto *IB = dyn_cast_or_null<BinaryOperator>(Inc);
  bool Step = (IU && IU->isIncrementOp() && varRef(IU->getSubExpr()) == I) ||
              (IB && IB->getOpcode() == BO_AddAssign &&
               varRef(IB->getLHS()) == I && constant(IB->getRHS()) == 1);
  // i must reach B - 1 without wrapping (a char counter to 200).
  if (!Step || (Ctx.getIntWidth(I->getType()) < 32 && *Hi > 127))
    return false;
  const Stmt *Body = FS->getBody();
  std::vector<const Stmt *> List;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    List.assign(CS->body_begin(), CS->body_end());
  else
    List.push_back(Body);
  Fill L;
  L.I = I;
  L.Lo = *Lo;
  L.Hi = *Hi;
  for (const Stmt *S : List)
    if (const VarDecl *X = fillTarget(S, I);
        X && Ctx.getAsConstantArrayType(X->getType()) &&
        !Ctx.getAsArrayType(X->getType())->getElementType()->isArrayType())
      L.Arrays.insert(X);
  if (L.Arrays.empty() || escapes(Body) || modifies(Body, I))
    return false;
  L.Entry = &St;
  const Fill *Saved = Filling;
  Filling = &L;
  State In = St;
  uses(FS->getCond(), In);
  for (const Stmt *S : List) {
    if (const VarDecl *X = fillTarget(S, I); X && L.Arrays.count(X)) {
      uses(cast<BinaryOperator>(S)->getRHS(), In);
      L.Done.insert(X);
    } else {
      stmt(S, In);
    }
  }
  uses(FS->getInc(), In);
  Filling = Saved;
  if (!St.Dead)
    for (const VarDecl *X : L.Arrays) {
      llvm::BitVector &Bits = St.W[X];
      for (int64_t K = std::max<int64_t>(L.Lo, 0);
           K < std::min<int64_t>(L.Hi, Bits.size()); ++K)
        Bits.set((unsigned)K);
    }
  return true;
}

void Scan::stmt(const Stmt *S, State &St) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    return write(E, St);
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      stmt(C, St);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && !VD->isStaticLocal())
        uses(VD->getInit(), St);
  } else if (const auto *IS = dyn_cast<IfStmt>(S)) {
    uses(IS->getCond(), St);
    State T = St, E = St;
    stmt(IS->getThen(), T);
    stmt(IS->getElse(), E);
    St = meet(T, E);
  } else if (const auto *FS = dyn_cast<ForStmt>(S)) {
    if (fillLoop(FS, St))
      return;
    stmt(FS->getInit(), St);
    State In = St;
    uses(FS->getCond(), In);
    stmt(FS->getBody(), In);
    uses(FS->getInc(), In);
  } else if (const auto *WS = dyn_cast<WhileStmt>(S)) {
    uses(WS->getCond(), St);
    State In = St;
    stmt(WS->getBody(), In);
  } else if (const auto *DS = dyn_cast<DoStmt>(S)) {
    // The body runs once at least; without break or continue, the
    // condition and what follows see what it wrote.
    State In = St;
    stmt(DS->getBody(), In);
    if (!escapes(DS->getBody())) {
      uses(DS->getCond(), In);
      St = In;
    } else {
      uses(DS->getCond(), St);
    }
  } else if (const auto *SS = dyn_cast<SwitchStmt>(S)) {
    uses(SS->getCond(), St);
    Switches.push_back(St);
    State In = St;
    In.Dead = true; // reached through its case labels only
    stmt(SS->getBody(), In);
    Switches.pop_back();
  } else if (const auto *SC = dyn_cast<SwitchCase>(S)) {
    if (const auto *CS = dyn_cast<CaseStmt>(SC))
      uses(CS->getLHS(), St);
    St = Switches.empty() ? Empty : Switches.back();
    stmt(SC->getSubStmt(), St);
  } else if (const auto *LS = dyn_cast<LabelStmt>(S)) {
    St = Empty;
    stmt(LS->getSubStmt(), St);
  } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    uses(RS->getRetValue(), St);
    Ret = meet(Ret, St);
    St.Dead = true;
  } else if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) ||
             isa<IndirectGotoStmt>(S)) {
    uses(S, St);
    St.Dead = true;
  } else if (const auto *AS = dyn_cast<AttributedStmt>(S)) {
    stmt(AS->getSubStmt(), St);
  } else if (isa<OMPExecutableDirective>(S) || isa<CapturedStmt>(S)) {
    // '#pragma omp simd': its loop (the other directives are errors).
    for (const Stmt *C : astChildren(S))
      stmt(C, St);
  } else {
    uses(S, St);
  }
}

bool Scan::runParam(const Stmt *Body, const VarDecl *P) {
  Len[P] = 1;
  Empty.W[P] = llvm::BitVector(1);
  State St = Empty;
  stmt(Body, St);
  State End = meet(Ret, St);
  return !Stale.count(P) && (End.Dead || End.W[P].test(0));
}

void Scan::run(const Stmt *Body, ScratchStatics &Out) {
  collect(Body);
  if (Len.empty())
    return;
  for (const auto &[VD, N] : Len)
    Empty.W[VD] = llvm::BitVector(N);
  State St = Empty;
  stmt(Body, St);
  for (const auto &[VD, N] : Len) {
    auto It = Stale.find(VD);
    if (It == Stale.end())
      Out.Local.insert(VD);
    else
      Out.Stale[VD] = It->second;
  }
}

} // namespace

void scanStatics(ASTContext &Ctx, const Stmt *Body, ScratchStatics &Out) {
  Writers W;
  Scan(Ctx, W).run(Body, Out);
}

} // namespace lowering
} // namespace batchdiff
