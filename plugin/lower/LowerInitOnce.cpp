//===- LowerInitOnce.cpp - static tables filled once ----------------------===//
//
// The init-once idiom (InitOnce.h): `if (!ready) init_table();`, or the
// block written in place, with `ready = 1;` in it. The scalar loop runs the
// block when the first example reaches it, and the others skip it. The
// batched functions do exactly that: the `if` (test and block, as written)
// becomes a function of the generated code, called once per example where
// the examples reach it, in example order, on the calling thread (as any
// call made once per example: docs/calls.md), so that the first one runs
// the block and the others find the flag set. What the block fills is then
// ordinary global memory: tables are read in place where the examples read
// them, a scalar it writes is read back after each call (a variable per
// example), and neither carries a derivative. A read of what it writes
// before the call, on some path, could see what the scalar loop's later
// examples would not: an error, as is a global it uses that the function
// keeps per example (written by the examples).
//
// NAME_grad's forward sweep makes the same calls; its reverse sweep uses
// nothing of them (no derivative flows through the block).
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include "clang/Basic/SourceManager.h"

namespace batchdiff {
namespace lowering {

int Lowerer::initVar(const VarDecl *VD) {
  VD = VD->getCanonicalDecl();
  if (auto It = InitVars.find(VD); It != InitVars.end())
    return It->second;
  auto T = irType(VD->getType());
  if (!T)
    return -1;
  // A _Bool global is read back as an int (and compared with 0 where read).
  Type VT = *T == Type::Bool ? Type::I32 : *T;
  int V = F.newVar(VD->getNameAsString(), VT);
  // (Never read before a call has set it: checkInitReads.)
  ir::Builder PB(F, &Prologue);
  PB.set(V, ir::isFloat(VT) ? PB.constF(VT, 0.0) : PB.constI(VT, 0));
  InitVars[VD] = V;
  return V;
}

std::optional<Ret> Lowerer::initOnce(const IfStmt *IS) {
  const VarDecl *Flag = initOnceFlag(Ctx, IS);
  if (!Flag)
    return std::nullopt;
  if (Flag->isStaticLocal()) {
    onceCopy(Flag); // (declared before: its function was scanned)
    if (OnceBad.count(declFunction(Flag))) {
      fail();
      return Ret::Never;
    }
  }
  InitOnceBlock Blk;
  if (auto P = checkInitOnce(Ctx, IS, Flag, OnceCopies, Blk)) {
    error(P->At, P->What, P->Instead);
    return Ret::Never;
  }
  for (const VarDecl *G : Blk.Writes)
    if (!fileScopeName(G, IS->getBeginLoc()))
      return Ret::Never;
  for (const VarDecl *G : Blk.Reads)
    if (!fileScopeName(G, IS->getBeginLoc()))
      return Ret::Never;
  // One function per `if`, however many times its helper is inlined.
  std::string &Name = InitNames[IS];
  if (Name.empty()) {
    Name = "__bd_once_" + Top->getNameAsString() + "_" +
           std::to_string(InitNames.size() - 1);
    FileDecls += initOnceFunction(Ctx, IS, Name, OnceCopies);
  }
  ir::ExternCall X;
  X.Ty = "void";
  X.Name = Name;
  X.Why = ir::ExternCall::InitOnce;
  // The test first, in place (a load and a branch per example once the
  // block has run), then the function, which tests again.
  X.Call =
      "(" + initOnceTest(Ctx, IS, OnceCopies) + " ? " + Name + "() : (void)0)";
  // The scalars it writes, read back after the lane's call: the value
  // before for lanes that make none.
  std::vector<int> Args;
  std::vector<ExternOutArg> Outs;
  for (const VarDecl *G : Blk.Writes) {
    if (G->getType()->isArrayType())
      continue;
    int V = initVar(G);
    if (V < 0)
      continue; // (a read of it is globalParam's error)
    ir::ExternCall::Out O;
    O.Arg = (int)Args.size();
    O.CType =
        F.Vars[V].Ty == Type::I32 && G->getType()->isBooleanType()
            ? "int"
            : G->getType().getCanonicalType().getUnqualifiedType().getAsString(
                  Ctx.getPrintingPolicy());
    O.Name = O.After = globalName(G);
    Args.push_back(B.get(V));
    InitPassed.insert(B.block()->back().get());
    X.Outs.push_back(std::move(O));
    LValue L;
    L.Var = V;
    Outs.push_back({L, IS->getBeginLoc(), false});
  }
  int D = F.newTemp(Type::I32);
  ir::Stmt &St = B.push(Op::Extern, D, Args);
  St.IVal = (int)F.Externs.size();
  St.Site = (int)Sites.size();
  Sites.push_back(IS->getBeginLoc());
  Blk.At = IS->getBeginLoc();
  InitCalls[(int)F.Externs.size()] = Blk;
  F.Externs.push_back(std::move(X));
  externOutStores(D, Outs);
  return Ret::Never;
}

bool Lowerer::onceCopy(const VarDecl *VD) {
  VD = VD->getCanonicalDecl();
  const auto *FD = declFunction(VD);
  if (!VD->isStaticLocal() || !FD)
    return false;
  if (OnceScanned.insert(FD).second)
    for (const VarDecl *S : onceStaticLocals(Ctx, FD)) {
      std::string Name = "__bd_sl_" + Top->getNameAsString() + "_" +
                         std::to_string(OnceCopies.size() + OnceBad.size()) +
                         "_" + S->getNameAsString();
      // (One without a copy is read as any static local; its function's
      // blocks are not lowered: its error is the one reported.)
      if (onceCopyDecl(S, Name))
        OnceCopies[S] = Name;
      else
        OnceBad.insert(FD);
    }
  return OnceCopies.count(VD) != 0;
}

/// The initializer names nothing but file-scope declarations (the copy's
/// declaration is at file scope).
static bool fileScopeOnly(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (!DRE->getDecl()->getDeclContext()->getRedeclContext()->isFileContext())
      return false;
  for (const Stmt *C : astChildren(S))
    if (!fileScopeOnly(C))
      return false;
  return true;
}

bool Lowerer::onceCopyDecl(const VarDecl *VD, const std::string &Name) {
  QualType T = VD->getType().getCanonicalType();
  QualType ET = Ctx.getBaseElementType(T);
  if (!ET->isArithmeticType() || ET->isAnyComplexType() ||
      T.isVolatileQualified() || ET.isVolatileQualified() ||
      (T->isArrayType() && !Ctx.getAsConstantArrayType(T))) {
    error(VD->getLocation(),
          "static local '" + VD->getNameAsString() + "' of type '" +
              VD->getType().getAsString() + "' in a block run once",
          "a block run once under a static local flag may use the "
          "function's static numbers and tables of numbers; declare the "
          "others at file scope, static");
    return false;
  }
  const Expr *Init = VD->getInit();
  if (Init && (!VD->evaluateValue() || !fileScopeOnly(Init))) {
    error(Init->getBeginLoc(), "this static initializer",
          "initialise static locals with constants");
    return false;
  }
  std::string D;
  llvm::raw_string_ostream OS(D);
  OS << "static ";
  T.print(OS, Ctx.getPrintingPolicy(), Name);
  if (Init) {
    OS << " = ";
    Init->printPretty(OS, nullptr, Ctx.getPrintingPolicy(), 0, "\n", &Ctx);
  }
  OS << ";\n";
  OS.flush();
  FileDecls += D;
  return true;
}

std::string Lowerer::globalName(const VarDecl *VD) const {
  auto It = OnceCopies.find(VD->getCanonicalDecl());
  return It != OnceCopies.end() ? It->second : VD->getNameAsString();
}

namespace {

/// Whether the reads of one global (Param, LoadArg of parameter P; GetVar
/// of variable V) all come after one of the calls Calls on every path (a
/// loop body runs at least once: loops are rotated); Bad: the first that
/// does not.
struct InitWalk {
  const std::set<int> &Calls;
  int P, V;
  const llvm::DenseSet<const ir::Stmt *> &Skip;
  const ir::Stmt *Bad = nullptr;

  bool walk(const ir::Block &B, bool Done) {
    for (const auto &S : B) {
      if (S->K == ir::Stmt::Inst) {
        bool Read = (P >= 0 && (S->Opc == Op::Param || S->Opc == Op::LoadArg) &&
                     S->IVal == P) ||
                    (V >= 0 && S->Opc == Op::GetVar && S->Var == V &&
                     !Skip.count(S.get()));
        if (Read && !Done && !Bad)
          Bad = S.get();
        if (S->Opc == Op::Extern && Calls.count((int)S->IVal))
          Done = true;
      } else if (S->K == ir::Stmt::If) {
        bool T = walk(S->Then, Done);
        bool E = walk(S->Else, Done);
        Done = T && E;
      } else {
        Done = walk(S->Body, Done);
      }
    }
    return Done;
  }
};

} // namespace

void Lowerer::checkInitReads() {
  if (InitCalls.empty())
    return;
  // Each global the blocks write: the calls that write it, where (the
  // first block), and the flag guarding it.
  std::vector<const VarDecl *> Order;
  std::map<const VarDecl *, std::set<int>> Calls;
  std::map<const VarDecl *, const InitOnceBlock *> First;
  for (const auto &[K, Blk] : InitCalls) {
    for (const VarDecl *G : Blk.Writes) {
      if (!Calls.count(G)) {
        Order.push_back(G);
        First[G] = &Blk;
      }
      Calls[G].insert(K);
    }
    // A global the function keeps per example is not what the block sees.
    for (const auto *List : {&Blk.Writes, &Blk.Reads})
      for (const VarDecl *G : *List)
        if (GlobalVars.count(G)) {
          error(FirstWrite[GlobalVars[G]],
                "writing global '" + G->getNameAsString() +
                    "', which the block run once under '" +
                    Blk.Flag->getNameAsString() + "' also uses,",
                "the examples keep what they write in such a global apart "
                "until the call ends, where the block would not see it; "
                "write it only in the block, or use a local");
          return;
        }
  }
  for (const VarDecl *G : Order) {
    auto PIt = GlobalParams.find(G);
    auto VIt = InitVars.find(G);
    InitWalk W{Calls[G], PIt == GlobalParams.end() ? -1 : PIt->second,
               VIt == InitVars.end() ? -1 : VIt->second, InitPassed};
    W.walk(F.Body, false);
    if (!W.Bad)
      continue;
    SourceLocation At;
    if (auto It = InitReads.find(W.Bad); It != InitReads.end())
      At = It->second;
    else if (auto It = FirstRead.find(G); It != FirstRead.end())
      At = It->second;
    std::string N = First[G]->Flag->getNameAsString();
    error(At,
          "reading global '" + G->getNameAsString() +
              "' where an example may not have run the block that '" + N +
              "' guards,",
          "the block runs once, when the first example reaches it, and the "
          "examples run together; read what it fills only after the test "
          "of '" +
              N + "', on every path");
    return;
  }
}

} // namespace lowering
} // namespace batchdiff
