//===- LowerGlobal.cpp - file-scope data, statics, out-pointer math ------===//
//
// Data that outlives a call is only read. A file-scope scalar or table the
// function reads becomes a Global parameter (uniform, never differentiated,
// not in the ABI): the wrapper reads an extern non-const scalar once per
// call; a table, a const or a static scalar is read by name where the
// examples run, so that LLVM folds what it knows of it as in the scalar
// function. Every read is a plain uniform value or an indexed load (a
// gather at varying indices), exactly as for a BD_UNIFORM parameter. A global
// scalar the function writes is a variable per example instead: every example
// must write it before reading it, on every path. Written on every path to
// the end, after the call it holds example n - 1's value (an output the
// wrapper stores); written on some paths only, the value of the last example
// that wrote it (a flag per example says which did; unchanged if none did).
// A read some path reaches before a write is an error. Tables are never
// written. A static local the function never writes holds its initializer on
// every call: it becomes a local filled once, at the entry of the generated
// function; writing one is an error at the write.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "diagnostics/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cmath>

namespace batchdiff {
namespace lowering {

void Lowerer::globalRemarks() const {
  // In the order of the declarations: DenseMap's order is not stable.
  std::vector<std::pair<const VarDecl *, std::string>> Rs;
  for (const auto &[VD, I] : GlobalParams) {
    const VarDecl *Var = VD; // (a lambda cannot capture a binding in C++17)
    bool Again =
        Refreshed && std::any_of(Refreshed->begin(), Refreshed->end(),
                                 [&](const auto &R) { return R.first == Var; });
    Rs.push_back({VD, F.Params[I].IsArray
                          ? "a table read in place (uniform, not "
                            "differentiated)"
                      : Again ? "read once per call, and per example after "
                                "each call of a function of another file, "
                                "which may write it (not differentiated)"
                              : "read once per call (uniform, not "
                                "differentiated)"});
  }
  for (const auto &[VD, K] : GlobalRecords)
    if (K != -1)
      Rs.push_back({VD, VD->getType()->isArrayType()
                            ? "a table of structs read in place (uniform, "
                              "not differentiated)"
                            : "a struct read in place (uniform, not "
                              "differentiated)"});
  for (const auto &[VD, V] : GlobalVars)
    Rs.push_back(
        {VD, SomePaths.count(V)
                 ? "written on some paths only: one value per example, left "
                   "after the call as the last example that writes "
                   "it leaves it (unchanged when none does)"
                 : "written by every example before it reads it: "
                   "one value per example, left after the call as "
                   "example n - 1 leaves it"});
  std::sort(Rs.begin(), Rs.end(), [](const auto &A, const auto &B) {
    return A.first->getLocation() < B.first->getLocation();
  });
  for (const auto &[VD, What] : Rs)
    report(Diags, DiagnosticsEngine::Remark, VD->getLocation(),
           "batchdiff: %0: global '%1' is %2")
        << F.Name << VD->getNameAsString() << What;
  std::set<unsigned> Said; // (an inlined helper's block: once)
  for (const auto &[K, Blk] : InitCalls)
    if (Said.insert(Blk.At.getRawEncoding()).second)
      report(Diags, DiagnosticsEngine::Remark, Blk.At,
             "batchdiff: %0: the block '%1' guards runs as in the scalar loop: "
             "when the first example reaches it (called per example there, "
             "on the calling thread); what it fills is then read in place "
             "(not differentiated)")
          << F.Name << Blk.Flag->getNameAsString();
}

int Lowerer::globalParam(const VarDecl *VD, SourceLocation At) {
  VD = VD->getCanonicalDecl();
  if (auto It = GlobalParams.find(VD); It != GlobalParams.end())
    return It->second;
  std::string Name = globalName(VD);
  QualType T = VD->getType();
  const ArrayType *AT = Ctx.getAsArrayType(T);
  QualType ET = AT ? AT->getElementType() : T;
  // A table of two or more dimensions, `T t[R][C]`, `T t[P][R][C]`, is one
  // flat row-major table of P * R * C elements; its rows and planes are
  // pointers into it (rowParam). Row: the flat size of one element.
  auto Row = AT && ET->isArrayType() ? flatArray(Ctx, ET) : std::nullopt;
  if (Row)
    ET = Row->first;
  if (T.isVolatileQualified() || ET.isVolatileQualified()) {
    error(At, "access to volatile '" + Name + "'", "remove 'volatile'");
    return -1;
  }
  // The wrapper names it at file scope, after the annotated definition.
  if (!fileScopeName(VD, At))
    return -1;
  ir::Param P;
  P.Name = Name;
  P.Kind = ir::ParamKind::Global;
  P.Uniform = true;
  P.NoDiff = true;
  auto IT = irType(ET);
  if (AT) {
    // Tables are read with vector gathers of their element type; char and
    // short ones (noise functions' permutation tables) element by element,
    // widened to 32-bit lanes as C promotes them; _Bool ones as bytes,
    // compared with 0 where they are read (load()).
    auto El = tableElement(Ctx, ET);
    if (!El) {
      error(At,
            "the global table '" + Name + "' of type '" + T.getAsString() + "'",
            "use a table of _Bool, char, short, int, long, float or double "
            "elements");
      return -1;
    }
    if (*IT == Type::Bool)
      P.BoolBytes = true;
    IT = El->first;
    P.Narrow = El->second;
    P.IsArray = true;
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      P.StaticLen =
          (int)(CAT->getSize().getZExtValue() * (Row ? Row->second : 1));
    P.DimHow = "global table";
    P.LaneLoads = laneLoadsOnly(Ctx, VD);
  } else if (!IT) {
    error(At, "global '" + Name + "' of type '" + T.getAsString() + "'",
          "use float, double, integer or _Bool globals");
    return -1;
  }
  P.Ty = *IT;
  P.CType = ET.getCanonicalType().getUnqualifiedType().getAsString();
  // Where LLVM may know the value (a constant table, a static global
  // nothing in the file writes), the scalar function folds it: the
  // generated code must read it by name to fold it alike.
  P.InPlace = AT || T.isConstQualified() || !VD->hasExternalFormalLinkage();
  F.Params.push_back(P);
  int I = (int)F.Params.size() - 1;
  GlobalParams[VD] = I;
  FirstRead[VD] = At;
  return I;
}

/// A record type the generated code can name at file scope: declared
/// there, with a tag; arrays and qualifiers of such types, and scalars.
static bool nameableAtFileScope(ASTContext &Ctx, QualType T) {
  T = Ctx.getBaseElementType(T.getCanonicalType());
  const auto *RD = T->getAsRecordDecl();
  return !RD || (RD->getDeclContext()->getRedeclContext()->isFileContext() &&
                 RD->getIdentifier());
}

bool Lowerer::fileScopeName(const VarDecl *VD, SourceLocation At) {
  VD = VD->getCanonicalDecl();
  if (VD->isFileVarDecl() || OnceCopies.count(VD))
    return true;
  // Its first declaration is in a block (cephes' 'extern double MACHEP;'
  // inside the functions that use it): the same variable, declared again
  // at file scope, before the generated functions, with its canonical type
  // (a typedef named in the block is not visible there).
  QualType T = VD->getType().getCanonicalType();
  if (!nameableAtFileScope(Ctx, T)) {
    error(At,
          "'" + VD->getNameAsString() +
              "', declared 'extern' in a block with a type declared there",
          "declare the type, or the variable, at file scope");
    return false;
  }
  std::string D;
  llvm::raw_string_ostream OS(D);
  OS << "extern ";
  T.print(OS, Ctx.getPrintingPolicy(), VD->getName());
  OS << ";\n";
  OS.flush();
  if (FileDecls.find(D) == std::string::npos)
    FileDecls += D;
  return true;
}

void Lowerer::tableWrite(SourceLocation At, llvm::StringRef Name) {
  error(At, "writing into global table '" + Name.str() + "'",
        "tables are only read, or filled once under a static flag (`if "
        "(!ready) { ...; ready = 1; }`, from no value of the example); copy "
        "it into a local array, or write into an array parameter");
}

void Lowerer::carried(SourceLocation At, llvm::StringRef Name) {
  error(At,
        "reading global '" + Name.str() +
            "' where an example may not have written it yet",
        "a value one example leaves in a global for the next cannot be "
        "batched (the examples run together); write it before every read, "
        "on every path, or pass the value as a parameter (a static global "
        "filled once under a static flag, `if (!ready) { ...; ready = 1; }`, "
        "works)");
}

int Lowerer::globalVar(const VarDecl *VD, SourceLocation At) {
  VD = VD->getCanonicalDecl();
  if (auto It = GlobalVars.find(VD); It != GlobalVars.end())
    return It->second;
  std::string Name = VD->getNameAsString();
  if (OnceCopies.count(VD)) {
    error(At,
          "writing static local '" + Name +
              "' outside the block run once that uses it",
          "the generated code runs that block on its own copy of '" + Name +
              "'; write it only in the block, or declare it (and the flag) "
              "at file scope, static");
    return -1;
  }
  // Read (as the value before the call) before this first write.
  if (auto It = FirstRead.find(VD); It != FirstRead.end()) {
    carried(It->second, Name);
    return -1;
  }
  QualType T = VD->getType();
  if (T.isVolatileQualified()) {
    error(At, "access to volatile '" + Name + "'", "remove 'volatile'");
    return -1;
  }
  auto IT = irType(T);
  if (!IT) {
    error(At, "writing global '" + Name + "' of type '" + T.getAsString() + "'",
          "write float, double, integer or _Bool globals");
    return -1;
  }
  if (!fileScopeName(VD, At))
    return -1;
  int V = F.newVar(Name, *IT);
  GlobalVars[VD] = V;
  FirstWrite[V] = At;
  ir::Output O;
  O.Kind = ir::OutKind::Global;
  O.Var = V;
  O.Global = Name;
  O.CType = T.getCanonicalType().getUnqualifiedType().getAsString();
  O.NativeLayout = nativeLayout(Ctx, T, *IT);
  GlobalOuts.push_back(O);
  return V;
}

/// Whether \p V is assigned on every path through \p B, given \p In on
/// entry; \p Bad is the first read that some path reaches unassigned, but
/// for those in \p Skip. (Loop bodies run at least once: loops are
/// rotated.)
static bool assigned(const ir::Block &B, int V, bool In, const ir::Stmt *&Bad,
                     const llvm::DenseSet<const ir::Stmt *> &Skip) {
  for (const auto &S : B) {
    if (S->K == ir::Stmt::Inst) {
      if (S->Var == V && S->Opc == Op::GetVar && !In && !Bad &&
          !Skip.count(S.get()))
        Bad = S.get();
      if (S->Var == V && S->Opc == Op::SetVar)
        In = true;
    } else if (S->K == ir::Stmt::If) {
      bool T = assigned(S->Then, V, In, Bad, Skip);
      bool E = assigned(S->Else, V, In, Bad, Skip);
      In = T && E;
    } else if (S->K == ir::Stmt::Loop) {
      In = assigned(S->Body, V, In, Bad, Skip);
    }
  }
  return In;
}

bool Lowerer::checkGlobalWrites() {
  checkInitReads();
  longDoubleGlobals();
  // (Also around recursive calls, whose run reads and writes the global
  // itself, not the example's variable standing for it.)
  globalCalls();
  // A static local lowered as a local, declared in a function the
  // recursive call's scalar run enters again, is written by that run
  // while the batch keeps a copy per example (a static of a function
  // outside the cycle is not touched by it).
  const VarDecl *InCycle = nullptr;
  for (const VarDecl *VD : ScratchDecls)
    if (const auto *FD = declFunction(VD);
        !InCycle && FD && RecursionCycle.count(FD->getCanonicalDecl()) &&
        modifies(FD->getBody(), VD)) // one only read holds its initializer
      InCycle = VD;
  if (FirstRecursion.isValid() && InCycle)
    error(FirstRecursion,
          "a recursive call of '" + RecursionName +
              "' in a function that writes static local '" +
              InCycle->getNameAsString() + "'",
          "the recursive call runs the scalar function, which writes the "
          "static itself while the batch keeps a copy per example; write the "
          "recursion as a loop, or use an ordinary local");
  std::vector<ir::Output> Flags;
  for (const ir::Output &O : GlobalOuts) {
    const ir::Stmt *Bad = nullptr;
    bool Done = assigned(F.Body, O.Var, false, Bad, SyncGets);
    if (Bad) {
      auto It = GlobalReads.find(Bad);
      carried(It != GlobalReads.end() ? It->second : FirstWrite[O.Var],
              O.Global);
    } else if (!Done) {
      Flags.push_back(someWrites(O));
    }
    for (const auto &[VD, V] : GlobalVars)
      if (Done && !Bad && V == O.Var && VD->hasExternalFormalLinkage())
        SetsGlobals.push_back(O.Global);
  }
  // Each flag right after its global's output.
  std::vector<ir::Output> Outs;
  for (const ir::Output &O : GlobalOuts) {
    Outs.push_back(O);
    for (const ir::Output &W : Flags)
      if (W.Global == O.Global)
        Outs.push_back(W);
  }
  GlobalOuts = std::move(Outs);
  return !Failed;
}

void flagWrites(ir::Function &F, ir::Block &Blk, int V, int Flag) {
  for (size_t I = 0; I < Blk.size(); ++I) {
    ir::Stmt &S = *Blk[I];
    flagWrites(F, S.Then, V, Flag);
    flagWrites(F, S.Else, V, Flag);
    flagWrites(F, S.Body, V, Flag);
    if (S.K != ir::Stmt::Inst || S.Opc != Op::SetVar || S.Var != V)
      continue;
    ir::Block Set;
    ir::Builder SB(F, &Set);
    SB.set(Flag, SB.constB(true));
    for (auto &N : Set)
      Blk.insert(Blk.begin() + (long)++I, std::move(N));
  }
}

/// A global written on some paths only: after the call it holds what the
/// last example that wrote it (the highest index) wrote, as after the
/// sequential loop. Its variable stays one per example; a flag per example,
/// false at entry and set at each write, tells the wrapper which examples
/// wrote it (the GlobalWritten output returned).
ir::Output Lowerer::someWrites(const ir::Output &O) {
  int Flag = F.newVar(O.Global + "_written", Type::Bool);
  flagWrites(F, F.Body, O.Var, Flag);
  ir::Block *Saved = B.block();
  B.setBlock(&Prologue);
  B.set(Flag, B.constB(false));
  B.setBlock(Saved);
  SomePaths.insert(O.Var);
  ir::Output W;
  W.Kind = ir::OutKind::GlobalWritten;
  W.Var = Flag;
  W.Global = O.Global;
  W.CType = "_Bool";
  return W;
}

void Lowerer::staticWrite(SourceLocation At, int Var) {
  // Once per static: its other writes would say the same.
  if (!StaticWrites.insert(Var).second) {
    fail();
    return;
  }
  std::string What = "writing static local '" + F.Vars[Var].Name + "'";
  if (auto It = StaleAt.find(Var); It != StaleAt.end())
    What += " (line " +
            std::to_string(
                Ctx.getSourceManager().getExpansionLineNumber(It->second)) +
            " may read the value the previous call left in it)";
  error(At, What,
        "a static local keeps its value from one call to the next, which "
        "the examples of a batch cannot share; write it (every element) "
        "before every read, on every path, or use an ordinary local");
}

int Lowerer::constOf(const APValue &V, Type T) {
  if (V.isFloat() && ir::isFloat(T)) {
    llvm::APFloat FV = V.getFloat();
    bool Lost;
    FV.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
               &Lost);
    return B.constF(T, FV.convertToDouble());
  }
  if (V.isInt() && !ir::isFloat(T))
    return T == Type::Bool ? B.constB(V.getInt().getBoolValue())
                           : B.constI(T, V.getInt().getExtValue());
  return -1;
}

/// A static local: read-only (writes are errors where they are), so it
/// holds its initializer; filled once in the prologue, however many times
/// its declaration (or its helper) is reached.
bool Lowerer::staticLocal(const VarDecl *VD) {
  if (auto It = StaticVars.find(VD); It != StaticVars.end()) {
    Frames.back().Vars[VD] = It->second;
    return true;
  }
  std::string Name = VD->getNameAsString();
  QualType T = VD->getType();
  if (Ctx.getBaseElementType(T)->isRecordType())
    return staticRecords(VD);
  // A table of pointers to tables: constants, no data (LowerPtrTables.cpp).
  if (isPointerTable(VD)) {
    const APValue *Init = nullptr;
    return pointerTableShape(VD, VD->getLocation(), Init);
  }
  const auto *CAT = Ctx.getAsConstantArrayType(T);
  QualType ET = CAT ? CAT->getElementType() : T;
  // A table of two or more dimensions (`static const int grad3[12][3]`):
  // flat and row-major, as a local array (rowParam). Dims: its extents.
  std::vector<uint64_t> Dims;
  for (const auto *A = CAT; A; A = Ctx.getAsConstantArrayType(ET)) {
    Dims.push_back(A->getSize().getZExtValue());
    ET = A->getElementType();
  }
  auto IT = irType(ET);
  auto Flat = CAT ? flatArray(Ctx, T) : std::nullopt;
  uint64_t N = Flat ? Flat->second : 0;
  if (T.isVolatileQualified() || ET.isVolatileQualified()) {
    error(VD->getLocation(), "a volatile variable", "remove 'volatile'");
    return false;
  }
  if (!IT || (CAT && (N == 0 || N > 65536))) {
    error(VD->getLocation(),
          "static local '" + Name + "' of type '" + T.getAsString() + "'",
          "use a float, double, integer or _Bool scalar, a struct of "
          "them, or a table of 1..65536 scalars or structs");
    return false;
  }
  const APValue *Init = VD->getInit() ? VD->evaluateValue() : nullptr;
  if (VD->getInit() && !Init) {
    error(VD->getInit()->getBeginLoc(), "this static initializer",
          "initialise static locals with constants");
    return false;
  }
  int V = F.newVar(Name, *IT);
  if (auto It = Scratch.Stale.find(VD); It != Scratch.Stale.end())
    StaleAt[V] = It->second;
  ir::Block *Saved = B.block();
  B.setBlock(&Prologue);
  bool Ok = true;
  if (CAT) {
    F.Vars[V].Len = (int)N;
    B.zeroArr(V);
    for (unsigned I = 0; Init && Init->isArray() && I < N; ++I) {
      auto Elt = [](const APValue &A, unsigned K) -> const APValue * {
        if (!A.isArray())
          return nullptr;
        return K < A.getArrayInitializedElts() ? &A.getArrayInitializedElt(K)
                                               : &A.getArrayFiller();
      };
      // Element I, row-major: its index in each dimension, outermost first.
      const APValue *EP = Init;
      uint64_t Per = N;
      for (size_t D = 0; D < Dims.size() && EP; ++D) {
        Per /= Dims[D];
        EP = Elt(*EP, (unsigned)(I / Per % Dims[D]));
      }
      if (!EP) {
        Ok = false;
        continue;
      }
      const APValue &E = *EP;
      int C = E.isAbsent() ? -1 : constOf(E, *IT);
      Ok &= C >= 0;
      if (C >= 0)
        B.storeElem(V, B.constI(Type::I32, I), C);
    }
  } else {
    int C = Init ? constOf(*Init, *IT) : zeroOf(*IT);
    Ok &= C >= 0;
    if (C >= 0)
      B.set(V, C);
  }
  B.setBlock(Saved);
  if (!Ok) {
    error(VD->getLocation(), "this static initializer",
          "initialise static locals with constants");
    return false;
  }
  ReadOnly.insert(V);
  StaticVars[VD] = V;
  Frames.back().Vars[VD] = V;
  return true;
}

/// Every pointer is lowered before any is resolved to the place it points
/// at (which may add an index constant), in the order each call had.
int Lowerer::outPointerArgs(const CallExpr *CE, Type FT, LValue *Ls,
                            unsigned N) {
  int X = expr(CE->getArg(0));
  if (X < 0)
    return -1;
  llvm::SmallVector<PtrVal, 2> Ps(N);
  for (unsigned I = 0; I < N; ++I)
    if (!ptrValue(CE->getArg(I + 1), Ps[I]))
      return -1;
  bool Ok = true; // every place resolved, so each one's error is reported
  for (unsigned I = 0; I < N; ++I) {
    Ls[I] = pointee(Ps[I], nullptr, CE->getArg(I + 1), "writing");
    Ok &= Ls[I].ok();
  }
  return Ok ? B.cast(FT, X) : -1;
}

/// frexp(x, &e): e = ilogb(x) + 1 and x * 2^-e, both exact; 0 and x
/// itself for zeros, infinities and NaNs (glibc's choices). The mantissa's
/// derivative is ldexp's: 2^-e.
int Lowerer::frexpCall(const CallExpr *CE, Type FT) {
  LValue L;
  int X = outPointerArgs(CE, FT, &L, 1);
  if (X < 0)
    return -1;
  int Zero = B.constF(FT, 0.0);
  int Fin =
      B.cmp(Op::CmpLT, B.math(ir::MathFn::Fabs, {X}), B.constF(FT, INFINITY));
  int Ok = B.bin(Op::And, Fin, B.cmp(Op::CmpNE, X, Zero));
  // ilogb(1) keeps the special lanes' exponent from overflowing.
  int Safe = B.select(Ok, X, B.constF(FT, 1.0));
  int E =
      B.bin(Op::Add, B.math(ir::MathFn::Ilogb, {Safe}), B.constI(Type::I32, 1));
  E = B.select(Ok, E, B.constI(Type::I32, 0));
  store(L, E);
  return B.math(ir::MathFn::Ldexp, {X, B.neg(E)});
}

/// modf(x, &i): i = trunc(x) and x - i (exact), except where x is an
/// integer, infinite or a zero: a zero with x's sign. Derivative 1.
int Lowerer::modfCall(const CallExpr *CE, Type FT) {
  LValue L;
  int X = outPointerArgs(CE, FT, &L, 1);
  if (X < 0)
    return -1;
  int T = B.math(ir::MathFn::Trunc, {X});
  int Frac = B.bin(Op::Sub, X, T);
  int Zero = B.constF(FT, 0.0);
  int Signed =
      B.select(B.cmp(Op::CmpGT, X, Zero), Zero,
               B.select(B.cmp(Op::CmpLT, X, Zero), B.constF(FT, -0.0), X));
  store(L, T);
  return B.select(B.cmp(Op::CmpEQ, X, T), Signed, Frac);
}

/// sincos(x, &s, &c) (GNU): s = sin(x), then c = cos(x), as glibc's does
/// (the same values as its sin and cos); their derivatives are theirs. Both
/// are computed before either store, so an out-pointer may point at x.
int Lowerer::sincosCall(const CallExpr *CE, Type FT) {
  LValue L[2];
  int X = outPointerArgs(CE, FT, L, 2);
  if (X < 0)
    return -1;
  int S = B.math(ir::MathFn::Sin, {X});
  int C = B.math(ir::MathFn::Cos, {X});
  store(L[0], S);
  store(L[1], C);
  return B.constI(Type::I32, 0); // (void)
}

/// lgamma_r(x, &sign) (POSIX's reentrant lgamma): lgamma(x), and the sign
/// of Gamma(x) as glibc gives it: -1 where x is -0 or a negative
/// non-integer whose floor is odd, else 1 (NaNs, infinities, poles, x <=
/// -2^52 for double, -2^23 for float: all integers). The sign carries no
/// derivative.
int Lowerer::lgammaRCall(const CallExpr *CE, Type FT) {
  LValue L;
  int X = outPointerArgs(CE, FT, &L, 1);
  if (X < 0)
    return -1;
  int Zero = B.constF(FT, 0.0);
  int Fl = B.math(ir::MathFn::Floor, {X});
  // floor(x) is odd: half of it is not an integer (exact below 2^53).
  int Half = B.bin(Op::Mul, Fl, B.constF(FT, 0.5));
  int Odd = B.cmp(Op::CmpNE, B.math(ir::MathFn::Floor, {Half}), Half);
  int NegFrac = B.bin(Op::And, B.cmp(Op::CmpLT, X, Zero),
                      B.bin(Op::And, B.cmp(Op::CmpNE, Fl, X), Odd));
  int NegZero =
      B.bin(Op::And, B.cmp(Op::CmpEQ, X, Zero),
            B.cmp(Op::CmpLT,
                  B.math(ir::MathFn::Copysign, {B.constF(FT, 1.0), X}), Zero));
  int S = B.select(B.bin(Op::Or, NegFrac, NegZero), B.constI(Type::I32, -1),
                   B.constI(Type::I32, 1));
  store(L, S);
  return B.math(ir::MathFn::Lgamma, {X});
}

} // namespace lowering
} // namespace batchdiff
