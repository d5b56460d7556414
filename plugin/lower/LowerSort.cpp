//===- LowerSort.cpp - qsort of a local array
//------------------------------===//
//
// `qsort(t, n, sizeof t[0], cmp)` of a local array of numbers with a
// comparator this file defines (median, percentiles, trimmed means per
// example; docs/calls.md, "qsort"). Each example sorts its own elements:
//
//   for (k = 0; k < n; k++) { v[k] = w[k] = t[k]; p[k] = k; }
//   for (r = 0; r < n; r++)                // odd-even transposition sort
//     for (i = r % 2; i < n - 1; i += 2)
//       if (cmp(&v[i], &v[i + 1]) > 0)     // (selects, no branch)
//         swap(v[i], v[i + 1]), swap(p[i], p[i + 1]);
//   for (k = 0; k < n; k++) t[k] = w[p[k]];
//
// It exchanges neighbours only, and only those the comparator puts the
// other way round, so it is stable (equal elements keep their order), and
// it ends after n rounds; its comparisons are at the same positions in
// every example (plain vector loads where n is the same for all, no
// gathers). The comparator is inlined once, its pointer parameters
// pointing into v, so it runs per example on that example's elements. The
// permutation p is integers and v is read only by comparisons, so no
// derivative flows through the sort but the last loop's indexed reads of
// w, which the AD differentiates as any: each example's gradient flows
// back through its own permutation.
//
// glibc's qsort is a stable merge sort for any array batchdiff sorts (its
// quicksort runs only where the merge sort's buffer cannot be allocated),
// so for a comparator that is a consistent total order (and writes
// nothing) the elements end in the same order, bit for bit. A comparator
// that is not one (NaN under `(x > y) - (x < y)`) leaves the elements in
// an order that depends on the algorithm: docs/calls.md, "qsort" says so.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include "clang/Basic/SourceManager.h"

namespace batchdiff {
namespace lowering {

/// What in \p S (the body of comparator \p FD, or a helper it calls) has an
/// effect other than its result: a write to anything but its own automatic
/// locals, or a call of a function that is neither defined in this file
/// (checked the same way) nor a <math.h> function. Sets \p What ("writes
/// 'n'", "calls 'printf'") and \p At; false if none.
static bool sortEffect(const Stmt *S, const ASTContext &Ctx,
                       llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                       std::string &What, SourceLocation &At) {
  if (!S)
    return false;
  auto Target = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && VD->hasLocalStorage())
      return false;
    What = VD ? "writes '" + VD->getNameAsString() + "'"
              : std::string("writes through a pointer");
    At = E->getBeginLoc();
    return true;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && Target(BO->getLHS()))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp() && Target(UO->getSubExpr()))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (Def && Def->hasBody() &&
        !Ctx.getSourceManager().isInSystemHeader(Def->getLocation())) {
      if (Seen.insert(Def).second &&
          sortEffect(Def->getBody(), Ctx, Seen, What, At))
        return true;
    } else if (!onlyMathCalls(CE, Ctx)) {
      What = FD ? "calls '" + FD->getNameAsString() + "'"
                : std::string("calls through a function pointer");
      At = CE->getBeginLoc();
      return true;
    }
  }
  for (const Stmt *C : astChildren(S))
    if (sortEffect(C, Ctx, Seen, What, At))
      return true;
  return false;
}

/// for (k = From; k < N; k += Step) Body(k), N and From I32 temps.
void Lowerer::sortLoop(int From, int N, llvm::function_ref<void(int)> Body,
                       int Step) {
  int K = F.newVar("__sort_k", Type::I32);
  B.set(K, From);
  ir::Block *Saved = B.block();
  ir::Stmt &Guard = B.ifStmt(B.cmp(Op::CmpLT, From, N));
  B.setBlock(&Guard.Then);
  ir::Stmt &Loop = B.loop();
  B.setBlock(&Loop.Body);
  Body(B.get(K));
  int Next = B.bin(Op::Add, B.get(K), B.constI(Type::I32, Step));
  B.set(K, Next);
  Loop.Cond = B.cmp(Op::CmpLT, Next, N);
  B.setBlock(Saved);
}

int Lowerer::qsortCall(const CallExpr *CE) {
  auto Fail = [&](SourceLocation At, const std::string &What,
                  const std::string &Instead) {
    error(At, What, Instead);
    return -1;
  };
  if (CE->getNumArgs() != 4)
    return Fail(CE->getBeginLoc(), "this call of 'qsort'",
                "pass the arguments <stdlib.h> declares");
  const Expr *Base = CE->getArg(0)->IgnoreParens();
  while (const auto *IC = dyn_cast<ImplicitCastExpr>(Base)) {
    if (IC->getCastKind() != CK_BitCast && IC->getCastKind() != CK_NoOp)
      break;
    Base = IC->getSubExpr()->IgnoreParens();
  }
  QualType ET = Base->getType()->isPointerType()
                    ? Base->getType()->getPointeeType()
                    : QualType();
  if (ET.isNull() || !irType(ET) || ET->isBooleanType())
    return Fail(Base->getBeginLoc(),
                "sorting an array of '" +
                    (ET.isNull() ? Base->getType() : ET).getAsString() + "'",
                "qsort sorts local arrays of float, double or integers");
  // The comparator: a function of this file, with no effect but its
  // result (batchdiff calls it in another order and a different number of
  // times than the C library's qsort).
  // (An older comparator of typed pointers is cast to qsort's type.)
  const FunctionDecl *Cmp = knownFunction(CE->getArg(3));
  if (!Cmp)
    Cmp = knownFunction(CE->getArg(3)->IgnoreParenCasts());
  const FunctionDecl *Def = Cmp ? Cmp->getDefinition() : nullptr;
  std::string CmpName = Cmp ? "'" + Cmp->getNameAsString() + "'"
                            : std::string("a function pointer");
  if (!Def || !Def->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return Fail(CE->getArg(3)->getBeginLoc(),
                "sorting with " + CmpName +
                    ", which this file does not define,",
                "define the comparator in this file (a function of two 'const "
                "void *' returning int) and pass its name, so that it is "
                "inlined and run per example");
  if (Def->getNumParams() != 2 ||
      !Def->getParamDecl(0)->getType()->isPointerType() ||
      !Def->getParamDecl(1)->getType()->isPointerType() ||
      !Def->getReturnType()->isIntegerType())
    return Fail(CE->getArg(3)->getBeginLoc(),
                "sorting with " + CmpName + ", which is not a comparator,",
                "pass a function of two 'const void *' returning int");
  llvm::SmallPtrSet<const FunctionDecl *, 4> Seen{Def};
  std::string What;
  SourceLocation At;
  if (sortEffect(Def->getBody(), Ctx, Seen, What, At))
    return Fail(At, "sorting with " + CmpName + ", which " + What + ",",
                "batchdiff sorts with its own algorithm, which calls the "
                "comparator in another order and a different number of times "
                "than the C library's qsort: compare the two elements and "
                "return, with no other effect");
  std::optional<uint64_t> Size = constBytes(CE->getArg(2));
  uint64_t ESize = Ctx.getTypeSizeInChars(ET).getQuantity();
  if (!Size || *Size != ESize)
    return Fail(CE->getArg(2)->getBeginLoc(),
                "sorting elements of '" + ET.getAsString() +
                    "' with a size other than theirs",
                "pass the size of the array's elements ('sizeof t[0]')");
  PtrVal P;
  if (!ptrValue(Base, P))
    return -1;
  if (P.Base.Var < 0 || scalarBase(P.Base) || F.Vars[P.Base.Var].Len <= 0)
    return Fail(Base->getBeginLoc(),
                "sorting '" + baseName(P.Base) +
                    "', which is not a local array,",
                "copy the elements into a local array and sort that");
  int Len = F.Vars[P.Base.Var].Len;
  // The count, clamped to the elements from the pointer to the end of the
  // array (more is undefined in C; a constant is checked here).
  Expr::EvalResult NR;
  const Expr *NE = CE->getArg(1);
  if (P.Off < 0 && !NE->isValueDependent() && NE->EvaluateAsInt(NR, Ctx) &&
      NR.Val.getInt().getLimitedValue() > (uint64_t)Len)
    return Fail(NE->getBeginLoc(),
                "sorting " + std::to_string(NR.Val.getInt().getLimitedValue()) +
                    " elements of '" + baseName(P.Base) + "', which has " +
                    std::to_string(Len) + ",",
                "sort at most the elements the array has");
  int N = expr(NE);
  if (N < 0)
    return -1;
  N = convert(N, NE->getType(), Ctx.LongLongTy);
  int Off = P.Off < 0 ? B.constI(Type::I32, 0) : P.Off;
  int Avail = B.bin(Op::Sub, B.constI(Type::I32, Len), Off);
  Avail = B.select(B.cmp(Op::CmpLT, Avail, B.constI(Type::I32, 0)),
                   B.constI(Type::I32, 0), Avail);
  int Avail64 = B.cast(Type::I64, Avail);
  N = B.select(B.cmp(Op::CmpGT, N, Avail64), Avail64, N);
  N = B.select(B.cmp(Op::CmpLT, N, B.constI(Type::I64, 0)),
               B.constI(Type::I64, 0), N);
  N = B.cast(Type::I32, N);

  Type Ty = F.Vars[P.Base.Var].Ty;
  int V = F.newVar("__sort_v", Ty);
  F.Vars[V].Len = Len;
  int Perm = F.newVar("__sort_p", Type::I32);
  F.Vars[Perm].Len = Len;
  // W: the elements as they were, read in the sorted order at the end (the
  // exchanges of V carry no derivative: only comparisons read them).
  int W = F.newVar("__sort_w", Ty);
  F.Vars[W].Len = Len;
  auto Elem = [&](int K, llvm::StringRef Action) {
    PtrVal Q = P;
    Q.Off = addOffset(P.Off, K);
    return pointee(Q, nullptr, CE, Action);
  };
  bool Ok = true;
  sortLoop(B.constI(Type::I32, 0), N, [&](int K) {
    LValue L = Elem(K, "reading");
    if (!L.ok()) {
      Ok = false;
      return;
    }
    int X = load(L);
    B.storeElem(V, K, X);
    B.storeElem(W, K, X);
    B.storeElem(Perm, K, K);
  });
  if (!Ok)
    return -1;
  // The odd-even transposition sort, the comparator inlined once: n
  // rounds, each comparing the pairs (i, i + 1) from i = round % 2 on and
  // exchanging those the comparator puts the other way round.
  sortLoop(B.constI(Type::I32, 0), N, [&](int Round) {
    int From = B.bin(Op::BitAnd, Round, B.constI(Type::I32, 1));
    int Last = B.bin(Op::Sub, N, B.constI(Type::I32, 1));
    sortLoop(
        From, Last,
        [&](int I) {
          int I1 = B.bin(Op::Add, I, B.constI(Type::I32, 1));
          Frame Fr;
          Fr.FD = Def;
          Fr.Call = CE;
          for (unsigned K = 0; K < 2 && Ok; ++K) {
            PtrVal Arg;
            Arg.Base.Var = V;
            Arg.Off = K ? I1 : I;
            Arg.Hidden = ET.getUnqualifiedType();
            Ok = bindPointer(Def->getParamDecl(K), &Arg, Fr);
          }
          int R = Ok ? inlineBody(CE, Def, Fr) : -1;
          if (R < 0) {
            Ok = false;
            return;
          }
          int Go = B.cmp(Op::CmpGT, R, B.constI(F.Temps[R], 0));
          for (int Arr : {V, Perm}) {
            int X = B.loadElem(Arr, I), Y = B.loadElem(Arr, I1);
            B.storeElem(Arr, I, B.select(Go, Y, X));
            B.storeElem(Arr, I1, B.select(Go, X, Y));
          }
        },
        2);
  });
  if (!Ok)
    return -1;
  sortLoop(B.constI(Type::I32, 0), N, [&](int K) {
    LValue L = Elem(K, "writing");
    if (!L.ok()) {
      Ok = false;
      return;
    }
    store(L, B.loadElem(W, B.loadElem(Perm, K)));
  });
  if (!Ok)
    return -1;
  return B.constB(false);
}

} // namespace lowering
} // namespace batchdiff
