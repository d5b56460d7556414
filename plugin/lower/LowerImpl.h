//===- LowerImpl.h - lowering internals, shared by lower/*.cpp -*- C++ -*-===//
//
// Private to plugin/lower: the Lowerer state machine whose statement,
// expression and call parts live in LowerStmt.cpp, LowerExpr.cpp and
// LowerCall.cpp, and the syntactic AST queries (ASTQueries.cpp) they share.
// The members of some parts are declared in fragments the class includes:
// LowerFuncChoice.inc (function values), LowerLongDouble.inc,
// LowerExternArgs.inc (pointers passed on to calls made per example),
// LowerComplex.inc (double complex and float complex locals),
// LowerGlobal.inc (file-scope data, static locals) and LowerNull.inc
// (pointers that are or may be NULL).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_LOWERIMPL_H
#define BATCHDIFF_LOWER_LOWERIMPL_H

#include "ir/IR.h"
#include "lower/InitOnce.h"
#include "lower/Lower.h"
#include "lower/NullLocals.h"
#include "lower/OmpSimd.h"
#include "lower/StaticScratch.h"
#include "lower/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace batchdiff {
namespace lowering {

using namespace clang;
using ir::Op;
using ir::Type;

/// What a statement does to control flow, for the return-flag lowering.
enum class Ret { Never, Maybe, Always };

/// A local pointer to char given only string literals and passed only to
/// calls made once per example (LowerString.cpp).
struct StringLocal {
  /// Its initializer (if any) is a literal, and it is given one.
  bool Candidate = false;
  /// A use that keeps it from being one (reported at its declaration).
  const Expr *Bad = nullptr;
  /// The literals it is given, as C source, each once.
  std::vector<std::string> Lits;
  /// Its type, for the array of them ("char *", "const char *").
  std::string CType;
};

// AST queries (ASTQueries.cpp): syntactic, no lowering state.

/// Narrow integer types live in 32-bit lanes; a conversion to one of them
/// truncates and re-extends.
std::optional<Op> narrowing(QualType QT);
/// literalOnly's answers by node: lowering asks at every node of an
/// expression, and a chain of N operators would be walked N times.
using LiteralMemo = llvm::DenseMap<const Stmt *, bool>;
/// True if \p S reads no variables and calls nothing, so constant folding it
/// matches what clang's IRBuilder folds (and so its FMA contraction choices).
bool literalOnly(const Stmt *S, const ASTContext &Ctx,
                 LiteralMemo *Memo = nullptr);
/// True if evaluating \p S has no side effects, so it may be evaluated in
/// lanes (or examples) where C would not evaluate it.
bool pure(const Stmt *S);
/// Whether \p S contains (or is) a node of class NodeT.
template <typename NodeT> bool contains(const Stmt *S) {
  if (!S)
    return false;
  if (isa<NodeT>(S))
    return true;
  for (const Stmt *C : astChildren(S))
    if (contains<NodeT>(C))
      return true;
  return false;
}
bool hasCall(const Stmt *S);
/// Whether \p S reads memory through a pointer or an array parameter (not
/// a local array or a file-scope table): the caller's memory, which a lane
/// may not read where C does not (`i < n && x[i] < t` must not read x[n]).
bool readsUserMemory(const Stmt *S);
/// pure(S) && !hasCall(S) && !readsUserMemory(S), answers by node in
/// \p Memo: a `?:` may compute such an arm in lanes that take the other,
/// and a chain of N `?:` asks it of each arm, which holds the rest of the
/// chain (N^2 / 2 nodes walked).
bool speculable(const Stmt *S, LiteralMemo &Memo);
bool mayReturn(const Stmt *S);
/// Syntactic, like the return-state the lowering computes.
bool alwaysReturns(const Stmt *S);
/// Whether a break/continue in \p S leaves S (not caught by an inner loop).
bool escapes(const Stmt *S, bool Break);
/// Whether \p S assigns, increments or decrements \p VD (or takes its
/// address): a pointer that does is re-pointed and needs an offset variable.
bool modifies(const Stmt *S, const VarDecl *VD);
/// After every write of variable \p V in \p Blk, \p Flag = true
/// (LowerGlobal.cpp).
void flagWrites(ir::Function &F, ir::Block &Blk, int V, int Flag);
/// Whether \p VD is a local arithmetic scalar declared `volatile` (not
/// static) whose address the function never takes: nothing but the
/// function's own reads and writes can reach it (no pointer, no other
/// thread; signal handlers and longjmp are outside the subset), so its
/// accesses are those of an ordinary local. R's qbeta declares `volatile
/// double u, xinbta;` to force rounding to double where the FPU keeps
/// more (x87); batched lanes compute in double, as x86-64's scalar code does.
bool plainVolatile(const VarDecl *VD);
/// What \p E, \p S or a conversion is, in the words of C (for
/// diagnostics: never clang's class names).
std::string describeExpr(const Expr *E);
std::string describeStmt(const Stmt *S);
/// "memcpy", "memmove" or "memset" for those functions (also their
/// __builtin_ and _FORTIFY_SOURCE __builtin___NAME_chk forms), else "".
llvm::StringRef memFunction(llvm::StringRef Name);
/// The C library allocator \p E calls (malloc, calloc, realloc,
/// aligned_alloc, alloca), through parentheses and casts, else "".
llvm::StringRef allocationCall(const Expr *E);
/// Whether every call in \p S is to a <math.h> function of the table or a
/// compiler builtin without side effects (`fabs(x) < 1`, `isnan(x)`): such
/// a call may run in lanes where C would not run it.
bool onlyMathCalls(const Stmt *S, const ASTContext &Ctx);
std::string describeConversion(QualType From, QualType To);
/// The type of the member at C access path \p Path (".in.x") of \p T,
/// through anonymous members; null if there is none (LowerRecords.cpp).
QualType memberType(QualType T, llvm::StringRef Path);
/// A file-scope struct or table of structs (not a static local: the
/// generated code cannot name those).
bool globalRecordVar(const VarDecl *VD, const ASTContext &Ctx);
/// The multiplication \p E is (possibly negated) if clang would contract it
/// into an fmuladd with an enclosing add/sub; null otherwise.
const BinaryOperator *mulOperand(const Expr *E, bool &Neg,
                                 const ASTContext &Ctx,
                                 LiteralMemo *Memo = nullptr);

// What lowering reports besides the IR (Definition.cpp).

/// Remarks (-fplugin-arg-batchdiff-remarks): how each parameter is batched.
void paramRemarks(const FunctionDecl *FD, DiagnosticsEngine &D,
                  const ir::Function &F, bool WantGrad);
/// Errors at calls without a derivative rule whose value is differentiated
/// (each once per file by \p Seen: helpers are inlined into several).
bool checkDerivatives(const ir::Function &F, llvm::ArrayRef<SourceLocation> S,
                      DiagnosticsEngine &D, ReportedErrors &Seen);
/// The generated functions get internal linkage.
bool internalLinkage(const FunctionDecl *FD, const SourceManager &SM);
/// The translation unit already declares the runtime.
bool runtimeDeclared(Sema &S);

class Lowerer {
public:
  Lowerer(const FunctionDecl *Top, Sema &S, bool WantGrad, ir::Function &F,
          MissingBody *Missing, ReportedErrors &Seen)
      : Top(Top), Ctx(S.getASTContext()), Diags(S.getDiagnostics()),
        WantGrad(WantGrad), F(F), B(F, &F.Body), Missing(Missing), Seen(Seen) {}

  bool run();
  /// Whether an error was reported (lowering may also stop silently, at a
  /// call to a function defined later).
  bool reported() const { return Reported; }
  void setMaxDepth(unsigned D) { MaxDepth = D; }
  /// Whether the function may write the array of parameter \p I (a store,
  /// or passed whole to a call batchdiff does not see into).
  bool mayWriteArray(int I) const;
  /// NAME_batched calls the function per example (LowerLongDouble.cpp):
  /// why ("declares a long double local"), else empty.
  const std::string &scalarBody() const { return ScalarWhy; }
  /// Where each math call is (Stmt::Site indexes it).
  llvm::ArrayRef<SourceLocation> sites() const { return Sites; }
  /// The calls that became the C library's function.
  llvm::ArrayRef<LibraryCall> libraryCalls() const { return LibraryCalls; }
  /// Remarks: how each global the function reads or writes is batched.
  void globalRemarks() const;
  /// After run(): whether its generated functions may write a global
  /// another file can name (\p Sets), or read or write one (\p Uses):
  /// lower/Lower.h's LowerInfo::SetsNoGlobal, UsesNoGlobal
  /// (GlobalCalls.cpp).
  void globalEffects(bool &Sets, bool &Uses) const;
  /// After run(): the globals another file can name that the function
  /// writes on every path (lower/Lower.h's LowerInfo::SetsGlobals).
  const std::vector<std::string> &setsGlobals() const { return SetsGlobals; }
  /// File-scope declarations the generated code needs: of the globals the
  /// function names only through a block-scope 'extern' declaration.
  const std::string &fileDecls() const { return FileDecls; }

private:
  /// What a pointer points into: a local array or a local scalar (Var), or
  /// an array parameter of the annotated function or a file-scope table
  /// (Arg: a User or Global parameter). Pointers are
  /// lowered as (base, integer offset), so every access through one is a
  /// plain indexed access the batcher and the AD already know.
  /// Or one of several read-only tables (Choices[Multi]: cephes' per-range
  /// coefficient tables), which one a per-lane I32 id (LowerChoice.cpp).
  struct PtrBase {
    int Var = -1;
    int Arg = -1;
    int Multi = -1;
    /// Arg is a scalar member of a written array of records (`&out->m`):
    /// only *p (p[0]) reaches it, as for the address of a local scalar; an
    /// access past it would store into the memory of another member's
    /// array, which that array's loads do not see.
    bool One = false;
    bool ok() const { return Var >= 0 || Arg >= 0 || Multi >= 0; }
    bool operator==(const PtrBase &O) const {
      return Var == O.Var && Arg == O.Arg && Multi == O.Multi && One == O.One;
    }
  };
  /// A pointer value: its base and an I32 offset temp (-1: offset 0); for
  /// a Multi base, the I32 temp of its table's position there (-1: 0).
  struct PtrVal {
    PtrBase Base;
    int Off = -1;
    int Id = -1;
    /// A `void *` (cephes' `polevl(double, void *, int)`): the element type
    /// it was converted from, the only one it may be converted back to.
    clang::QualType Hidden{};
  };
  /// A pointer variable (local, helper parameter, array parameter). One
  /// that is never re-pointed keeps the offset it was bound to (Off); one
  /// that is (p++, p += k, p = q) has an offset variable (OffVar).
  /// IdVar: the table's position (a Multi base) of a re-pointed one that
  /// may point into tables; LastRead: PtrSeq at its last read.
  struct PtrVar {
    PtrBase Base;
    int Off = -1;
    int OffVar = -1;
    int Id = -1;
    int IdVar = -1;
    unsigned LastRead = 0;
    clang::QualType Hidden{}; // as PtrVal::Hidden
    /// The Choices entry of every table it is assigned from tables of
    /// pointers (LowerPtrTables.cpp: seedTables), or -1.
    int Seed = -1;
    /// A local set to NULL that may be null on some paths only: the Bool
    /// variable, per lane, that it is not (NullLocals.h), or -1.
    int NullVar = -1;
  };
  /// A record, or a member of one, in an array-of-records parameter: the
  /// Record parameter, the record's index (an I32 temp, -1: 0) and the
  /// leaves [Start, Start + Count) of its layout (all of them: Whole).
  struct RecRef {
    int Param = -1;
    int Idx = -1;
    unsigned Start = 0, Count = 0;
    bool Whole = true;
    /// A re-pointed pointer's (RecPtrs): its record index, an I32
    /// variable read at each use (LowerRecordWalk.cpp), else -1.
    int IdxVar = -1;
  };
  struct Frame;
  // Function values that may be one of several functions (the types Frame
  // and CallArgs hold, and LowerFuncChoice.cpp's members).
#include "lower/LowerFuncChoice.inc"

  struct Frame {
    const FunctionDecl *FD;
    /// The call inlined (null for the annotated function).
    const CallExpr *Call = nullptr;
    llvm::DenseMap<const VarDecl *, int> Vars;
    llvm::DenseMap<const VarDecl *, PtrVar> Ptrs;
    /// Struct locals and parameters, and pointers to structs: the
    /// variables of their leaf members (LowerStruct.cpp).
    llvm::DenseMap<const VarDecl *, std::vector<int>> Structs;
    /// Pointers into an array-of-records parameter (LowerRecords.cpp).
    llvm::DenseMap<const VarDecl *, RecRef> RecPtrs;
    /// Local pointers to string literals: the number of their literal.
    llvm::DenseMap<const VarDecl *, int> Strings;
    /// Function pointer parameters of a helper, each bound to the function
    /// its call passed (`integrate(f, a, b)` calls f where it calls its
    /// parameter).
    llvm::DenseMap<const VarDecl *, const FunctionDecl *> Funcs;
    /// Function pointer variables that may hold one of several functions
    /// (LowerFuncChoice.cpp).
    llvm::DenseMap<const VarDecl *, FuncVar> FuncVars;
    /// Pointer parameters of a helper its call passed a null pointer
    /// constant (`lgammafn_sign(x, NULL)`): tests of them fold (nullTest),
    /// any other use is an error. The value: the call.
    llvm::DenseMap<const VarDecl *, const CallExpr *> Nulls;
    /// Pointer parameters whose call passed a pointer known not to be
    /// null there (a local set to NULL, assigned since or under a test of
    /// it): tests of them fold as the caller's would.
    llvm::DenseSet<const VarDecl *> NotNulls;
    int RetVar = -1;
    /// A helper returning a struct: its return value's leaves.
    std::vector<int> RetStruct;
    /// A helper returning a complex value: its parts' variables.
    std::pair<int, int> RetComplex{-1, -1};
    int RetFlag = -1;
  };
  /// break/continue lower to flags of the innermost loop; statements after
  /// one run under `if (!flag)`, exactly as after an early return. A switch
  /// has its own break flag and its loop's continue flag.
  struct LoopCtx {
    int BrkVar = -1;
    int CntVar = -1;
  };

  void error(SourceLocation Loc, llvm::StringRef What, llvm::StringRef Instead);
  void error(SourceRange R, llvm::StringRef What, llvm::StringRef Instead) {
    error(R.getBegin(), What, Instead);
  }
  int fail() {
    Failed = true;
    return -1;
  }
  /// The statement \p St, without the recovery stmt() adds.
  Ret stmtKind(const Stmt *St);
  /// \p S names a variable whose declaration failed.
  bool usesPoisoned(const Stmt *S) const;
  /// glibc's assert() (or any expansion of a macro named assert): the
  /// generated functions leave it out, as under NDEBUG.
  bool fromAssert(const Expr *E) const;
  /// isnan, isinf, isfinite, isnormal, fpclassify, signbit, isgreater and
  /// friends (clang builtins behind <math.h>'s macros), abs, labs, llabs;
  /// nullopt if \p Name is none of them.
  std::optional<int> builtinCall(const CallExpr *CE, llvm::StringRef Name);
  /// A call to NAME_batched / NAME_grad, which batchdiff generated.
  bool generatedCallee(const FunctionDecl *Callee) const;

  // Statements.
  Ret stmt(const Stmt *St);
  Ret stmtList(llvm::ArrayRef<const Stmt *> List);
  Ret declStmt(const DeclStmt *DS);
  Ret ifStmt(const IfStmt *IS);
  /// IS's two sides under an if on the condition variable C.
  Ret ifSides(const IfStmt *IS, int C);
  /// The value of \p IS's condition when it is a constant without side
  /// effects and the side it never takes holds no label (so no goto or case
  /// can enter it): that side is never lowered, as clang never emits it.
  std::optional<bool> constantIf(const IfStmt *IS) const;
  // LowerLongDouble.cpp.
#include "lower/LowerLongDouble.inc"
  // Pointers that are or may be NULL (LowerNull.inc).
#include "lower/LowerNull.inc"
  /// An if whose condition such a test decided, and whose side taken
  /// always returns: what follows it in its list is dead (stmtList).
  const Stmt *FoldedReturn = nullptr;
  std::optional<Ret> guardClause(const IfStmt *IS,
                                 llvm::ArrayRef<const Stmt *> Rest);
  Ret returnStmt(const ReturnStmt *RS);
  // Local pointers to string literals (LowerString.cpp).
  const StringLocal *stringLocal(const VarDecl *VD) const;
  /// \p A names such a pointer (whole): its declaration.
  const VarDecl *stringLocalArg(const Expr *A) const;
  int stringIndex(const Expr *E, const StringLocal &S);
  bool stringBad(const VarDecl *VD, const StringLocal &S);
  void stringDecl(const VarDecl *VD, const StringLocal &S);
  int stringAssign(const BinaryOperator *BO);
  /// The C array of \p VD's literals, and in \p Index the number of its
  /// value.
  std::string stringChoice(const VarDecl *VD, int &Index);
  mutable std::map<const VarDecl *, StringLocal> StringLocals;
  // The parts of run() (Lower.cpp).
  bool returnType();
  void param(unsigned I);
  bool checkDiff();
  void outputs(const Frame &Fr);

  Ret body(const FunctionDecl *FD, const Stmt *Body, Frame &Fr);
  Ret anyLoop(const Stmt *St);
  Ret loopStmt(const Stmt *Init, const Expr *Cond, const Expr *Inc,
               const Stmt *Body, bool CondFirst);
  Ret jumpStmt(const Stmt *St);
  int exitFlags(const Stmt *St);

  // goto and switch (LowerJump.cpp).
  /// A statement list holding labels that gotos jump to.
  struct JumpList {
    llvm::ArrayRef<const Stmt *> List;
    /// The goto targets written in front of each statement.
    std::vector<llvm::SmallVector<const LabelDecl *, 1>> At;
    llvm::DenseMap<const LabelDecl *, size_t> Pos;
    /// Backward gotos: one past the last statement holding one, per label.
    llvm::DenseMap<const LabelDecl *, size_t> Back;
    /// Forward gotos: the first statement holding one, per label.
    llvm::DenseMap<const LabelDecl *, size_t> FirstFrom;
  };
  void collectTargets(const Stmt *Body);
  /// A label forward gotos reach by entering the blocks around it: the
  /// statement of the gotos' list that holds it, and every statement on
  /// the way down to it (ifs, blocks, labels).
  struct Entry {
    const Stmt *Outer = nullptr;
    llvm::SmallPtrSet<const Stmt *, 4> Path;
  };
  bool enterable(const LabelDecl *L, llvm::ArrayRef<const GotoStmt *> Gotos,
                 const llvm::DenseMap<const Stmt *, const Stmt *> &Up,
                 const llvm::DenseMap<const VarDecl *, const Stmt *> &DeclAt,
                 Entry &E);
  /// The flags of the entered labels (of the list being lowered) whose
  /// way goes through \p S.
  void enteringFlags(const Stmt *S, std::vector<int> &Out) const;
  bool entered(const Stmt *S) const {
    std::vector<int> Flags;
    enteringFlags(S, Flags);
    return !Flags.empty();
  }
  std::optional<Ret> enterList(llvm::ArrayRef<const Stmt *> List);
  Ret enterIf(const IfStmt *IS, const std::vector<int> &ToThen,
              const std::vector<int> &ToElse);
  /// \p S may return: a return statement, or a goto lowered as a copy of
  /// statements that return.
  bool returns(const Stmt *S) const;
  bool hasNewTarget(llvm::ArrayRef<const Stmt *> List);
  Ret labeledList(llvm::ArrayRef<const Stmt *> List);
  Ret jumpSeq(const JumpList &JL, size_t Lo, size_t Hi, bool HeadDone);
  Ret jumpLoop(const JumpList &JL, size_t Begin, size_t End);
  size_t loopEnd(const JumpList &JL, size_t I);
  bool leavesRange(const JumpList &JL, size_t Lo, size_t Hi);
  Ret gotoStmt(const GotoStmt *GS);
  Ret switchStmt(const SwitchStmt *SS);
  /// A run of a switch's statements and the case labels in front of it.
  struct SwitchSeg {
    std::vector<const SwitchCase *> Labels;
    std::vector<const Stmt *> Stmts;
  };
  bool switchSegments(const SwitchStmt *SS, std::vector<SwitchSeg> &Segs,
                      bool &HasDefault);
  int caseValue(const Expr *E, Type ST);
  int caseMatch(const CaseStmt *CS, int SelVar, Type ST);
  int switchDefault(const std::vector<SwitchSeg> &Segs, int SelVar, Type ST);
  Ret switchRuns(const std::vector<SwitchSeg> &Segs, int SelVar, Type ST,
                 int NoneVar);
  /// The flags (variables) \p St may set that send control past its end:
  /// return, break/continue of the innermost loop or switch, gotos to
  /// labels outside \p St.
  void exitVars(const Stmt *St, std::vector<int> &Out);
  /// The gotos in \p S, and those of the statements that stand in for a
  /// goto into a block there (Tails).
  void jumpsIn(const Stmt *S,
               llvm::SmallVectorImpl<const GotoStmt *> &Out) const;
  void jumpVars(const Stmt *St, std::vector<int> &Out);
  /// OR of the variables, or -1 for none.
  int anyOf(const std::vector<int> &Vars);

  // Expressions. Each returns a temp, or -1 after an error.
  int expr(const Expr *E);
  int castExpr(const CastExpr *CE);
  int unary(const UnaryOperator *UO);
  int binary(const BinaryOperator *BO);
  int arith(const BinaryOperator *BO, int L, int R);
  int addSub(const BinaryOperator *BO, const Expr *LHS, const Expr *RHS,
             bool IsSub, int OldLHS);
  int compoundAssign(const CompoundAssignOperator *CAO);
  int conditional(const ConditionalOperator *CO);
  int logical(const BinaryOperator *BO);
  int call(const CallExpr *CE);
  int inlineCall(const CallExpr *CE, const FunctionDecl *Callee);
  int recursiveCall(const CallExpr *CE, const FunctionDecl *Callee,
                    size_t Depth);
  /// A helper call's arguments (inlineCall): a temp per scalar (-1 for
  /// the others), where pointers point, struct copies or the structs
  /// pointed at, pointers into arrays of records.
  struct CallArgs {
    std::vector<int> Scalars;
    std::vector<PtrVal> Ptrs;
    std::vector<std::vector<int>> Structs;
    std::map<unsigned, RecRef> Recs;
    std::map<unsigned, const FunctionDecl *> Funcs;
    /// Arguments that may be one of several functions (a temp each).
    std::map<unsigned, FuncVar> Choices;
    std::set<unsigned> Nulls; // arguments that are null pointer constants
    /// Complex arguments: the temps of their parts.
    std::map<unsigned, std::pair<int, int>> Complex;
  };
  /// A call of \p Callee (call() once the callee is known).
  int callFunction(const CallExpr *CE, const FunctionDecl *Callee);
  /// \p VD's per-example variable if it is expression scratch, else -1.
  int scratchVar(const VarDecl *VD);

public:
  std::vector<const VarDecl *> scratchGlobals() const { return ScratchUsed; }

private:
  bool callArgs(const CallExpr *CE, CallArgs &CA);
  bool bindParams(const CallExpr *CE, const FunctionDecl *Callee, CallArgs &CA,
                  Frame &Fr);
  bool bindScalarParam(const CallExpr *CE, const ParmVarDecl *P, unsigned I,
                       const std::vector<int> &Args, Frame &Fr);
  int inlineBody(const CallExpr *CE, const FunctionDecl *Callee, Frame &Fr);
  bool externCallee(const CallExpr *CE, const FunctionDecl *Callee) const;
  /// LowerBatchedCall.cpp: a function of another file marked batch/diff.
  bool batchedCallee(const CallExpr *CE, const FunctionDecl *Callee) const;
  /// A recursive call whose value may carry a derivative, of a function
  /// this file marks diff: through its NAME_grad (docs/calls.md,
  /// "Recursion").
  bool recursionBatched(const CallExpr *CE, const FunctionDecl *Callee) const;
  /// The checks both share: numbers in and out (with \p Arrays, also
  /// read-only arrays to pointers, batchedArrayArg).
  bool batchedSignature(const CallExpr *CE, const FunctionDecl *Callee,
                        bool Arrays) const;
  int batchedCall(const CallExpr *CE, const FunctionDecl *Callee,
                  bool SameFile = false);
  /// Whether array \p A can be passed to \p P, a pointer (`void *`: any
  /// element type): a table or an array parameter of the caller, of P's
  /// element type; to a pointer to non-const, one the caller cannot write.
  bool batchedArrayArg(const Expr *A, const ParmVarDecl *P) const;
  /// Why a call batchedCallee refuses is made once per example, and what
  /// to do (ExternCall::BatchedArgs).
  std::pair<std::string, std::string>
  batchedWhyNot(const CallExpr *CE, const FunctionDecl *Callee) const;
  /// The element type of array argument \p A for parameter \p P.
  QualType batchedElement(const Expr *A, const ParmVarDecl *P) const;
  /// Sets \p CP's array and pushes its offset (batchedArrayArg's \p A);
  /// false after an error.
  bool batchedArrayPass(const Expr *A, const FunctionDecl *Callee,
                        ir::ExternCall &X, ir::ExternCall::CalleeParam &CP,
                        std::vector<int> &Args);
  /// A call made once per example on the scalar function (or through
  /// another file's generated functions): its result's temporary, -1 after
  /// an error; \p Entry receives the index of the F.Externs entry it
  /// appended (-1 after an error, and for a call through another file's
  /// generated functions: batchedCall).
  int externCall(const CallExpr *CE, const FunctionDecl *Callee,
                 const std::string *Via = nullptr, bool LocalArrays = false,
                 int *Entry = nullptr);
  int cond(const Expr *E);
  int compare(const BinaryOperator *BO);
  int readLValue(const Expr *E);
  int varOf(const Expr *LV, llvm::StringRef Action);
  /// A variable, or an element of a local array (Idx >= 0).
  struct LValue {
    int Var = -1;
    int Idx = -1;
    int Arg = -1;   // element Idx of array parameter Arg
    int Multi = -1; // element Idx of table Choices[Multi][Id] (read only)
    int Id = -1;
    /// A member of a union (LowerUnion.cpp): the above is the union's
    /// storage (an integer of its size), the member its Bits bits at bit
    /// Bit plus the I32 temp Shift (-1: none), read and written as C type
    /// View.
    QualType View = QualType();
    unsigned Bits = 0, Bit = 0;
    int Shift = -1;
    int Site = -1; // Sites' entry for its bit casts' diagnostics
    bool ok() const { return Var >= 0 || Arg >= 0 || Multi >= 0; }
  };
  LValue lvalue(const Expr *E, llvm::StringRef Action);
#include "lower/LowerComplex.inc"
  int load(LValue L) {
    if (!L.View.isNull())
      return loadBits(L);
    if (L.Multi >= 0)
      return loadChoice(L);
    // A _Bool table or array is read as bytes: its elements are 0 or 1.
    if (L.Arg >= 0 && F.Params[L.Arg].BoolBytes)
      return B.cmp(Op::CmpNE, loadTable(L.Arg, L.Idx), B.constI(Type::I32, 0));
    if (L.Arg >= 0)
      return loadTable(L.Arg, L.Idx);
    return L.Idx >= 0 ? B.loadElem(L.Var, L.Idx) : B.get(L.Var);
  }
  void store(LValue L, int V) {
    if (!L.View.isNull())
      storeBits(L, V);
    else if (L.Arg >= 0 && F.Params[L.Arg].BoolBytes &&
             F.Temps[V] == Type::Bool)
      B.storeArg(L.Arg, L.Idx, B.cast(Type::I32, V)); // a _Bool byte: 0 or 1
    else if (L.Arg >= 0)
      B.storeArg(L.Arg, L.Idx, V);
    else if (L.Idx >= 0)
      B.storeElem(L.Var, L.Idx, V);
    else
      B.set(L.Var, V);
  }

  /// The IR type \p L holds.
  Type typeOf(const LValue &L) const {
    if (!L.View.isNull())
      return *irType(L.View);
    return L.Arg >= 0 ? F.Params[L.Arg].Ty : F.Vars[L.Var].Ty;
  }

  // Out-pointers and tables of calls made once per example
  // (LowerExternArgs.cpp).
  /// `&v` of a scalar local or parameter with lanes (not _Bool): v.
  const VarDecl *outPointerArg(const Expr *A) const;
  /// A file-scope or static local table of const numbers, passed whole; at
  /// the end of the file, also a file-scope one that is not const if the
  /// file only passes it whole to such calls (PassedTables.h).
  const VarDecl *tableArg(const Expr *A) const;
  mutable llvm::DenseMap<const VarDecl *, bool> PassedOnly;
  /// A read-only BD_UNIFORM array parameter (or a pointer bound to one that
  /// is never re-pointed), passed whole: one array for the batch, so the
  /// call can name it (`strcmp(scale, "UTC")`); its index, else -1.
  int uniformArrayArg(const Expr *A) const;
  /// An array parameter (or a pointer bound to one that is not a record's
  /// member) passed whole: its index, else -1 (passedArrayArg and
  /// uniformArrayArg say whether the call can get it).
  int varyingArrayArg(const Expr *A) const;
  /// Whether a call made once per example can pass \p A.
  bool externArg(const Expr *A) const;
  /// Adds array argument \p A (uniformArrayArg, passedArrayArg: parameter
  /// \p I) to \p X's call text (its offset, if any, to \p Args); false
  /// after an error.
  bool uniformArrayPass(const Expr *A, int I, const std::string &Callee,
                        ir::ExternCall &X, std::vector<int> &Args);
  /// Call text opening array parameter \p I's pointer cast to \p Ty,
  /// `((Ty)(` and the parameter's reference; the caller closes it with
  /// "))" (after an offset, if any).
  std::string paramArrayText(int I, const std::string &Ty) const;
  /// The offset (a temp, or -1 for none) of \p A, a pointer into array
  /// parameter \p I; false after an error.
  bool arrayOffset(const Expr *A, int I, int &Off);
  /// The error for array parameter \p I (varyingArrayArg) passed whole as
  /// \p A to \p Callee, called once per example, where uniformArrayArg
  /// refuses it.
  void externArrayError(const Expr *A, int I, const std::string &Callee);
#include "lower/LowerExternOuts.inc"

#include "lower/LowerExternArgs.inc"

  // Unions (LowerUnion.cpp): one integer variable holds a union's bits;
  // its members are bit casts, extracts and inserts of them.
  /// The storage type of union \p T, or an error at \p At (\p Whose: the
  /// variable, for the message).
  std::optional<Type> unionStorage(QualType T, SourceLocation At,
                                   const std::string &Whose);
  /// Whether the scalar lvalue \p E lies in a union: then \p Out is its
  /// member (not ok() after an error).
  bool unionMember(const Expr *E, LValue &Out);
  int loadBits(const LValue &L);
  void storeBits(const LValue &L, int V);
  /// Writes initializer \p Init of C type \p T at bit \p Bit of the union
  /// storage \p S.
  bool unionInit(const LValue &S, QualType T, uint64_t Bit, const Expr *Init);

  // Pointers (LowerPointer.cpp: what they point at; LowerPointerUse.cpp:
  // stores, comparisons, accesses through them, memcpy, extents).
  /// Lowers a pointer-typed expression (with its side effects: p++, p = q).
  bool ptrValue(const Expr *E, PtrVal &Out);
  bool ptrAddrOf(const UnaryOperator *UO, PtrVal &Out);
  // The parts of ptrValue.
  bool ptrMember(const MemberExpr *ME, PtrVal &Out);
  bool ptrCast(const CastExpr *CE, PtrVal &Out);
  int voidCast(const CastExpr *CE, PtrVal &Out);
  bool voidArith(const Expr *Ptr, SourceLocation At);
  bool scalarArith(SourceLocation At, const PtrVal &P);
  bool ptrDecl(const DeclRefExpr *DRE, PtrVal &Out);
  bool ptrArith(const BinaryOperator *BO, PtrVal &Out);
  bool ptrRow(const Expr *E, PtrVal &Out);
  bool ptrIncDec(const Expr *E, const Expr *Sub, int Delta, bool Post,
                 PtrVal &Out);
  bool ptrAssign(const Expr *At, const Expr *LHS, PtrVal V, PtrVal &Out);
  /// `LHS = c ? T : NULL` (either arm NULL; NullLocals.h nullArm) of a
  /// pointer with a flag: an if on c, pointing it, or setting it to NULL.
  bool nullArmAssign(const Expr *LHS, const ConditionalOperator *CO,
                     PtrVal &Out);
  bool ptrConditional(const ConditionalOperator *CO, PtrVal &Out);
  bool ptrBranches(int C, const Expr *TE, const Expr *FE, PtrVal &T, PtrVal &E);
  bool ptrOffsets(const BinaryOperator *BO, llvm::StringRef Action,
                  llvm::StringRef Instead, int &LOff, int &ROff,
                  int *LId = nullptr, int *RId = nullptr);
  int ptrDiff(const BinaryOperator *BO);
  int ptrCompare(const BinaryOperator *BO);
  int memCall(const CallExpr *CE, llvm::StringRef Name, bool Chk);
#include "lower/LowerOmp.inc"
#include "lower/LowerPtrArrays.inc"
#include "lower/LowerSort.inc"
#include "lower/LowerUnroll.inc"
  std::optional<uint64_t> constBytes(const Expr *E);
  PtrVar *ptrVar(const Expr *E);
  bool rowParam(const Expr *E);
  /// The elements of a row (or plane) of type \p T of a multi-dimensional
  /// array, an I32 temp: constant dimensions, and variable ones of a VLA
  /// parameter (`m[r][c]`: c per row) computed from their integer
  /// parameters. -1 after an error at \p At.
  int rowSize(QualType T, const Expr *At);
  /// Offset \p Off plus the integer temp \p Idx (negated if \p Sub).
  int addOffset(int Off, int Idx, bool Sub = false);
  /// The element \p P points at, plus index \p Idx (null: *P).
  LValue pointee(const PtrVal &P, const Expr *Idx, const Expr *At,
                 llvm::StringRef Action);
  /// A pointer local or helper pointer parameter \p VD, bound to \p Init
  /// (null: not yet pointing anywhere), in the innermost frame.
  bool bindPointer(const VarDecl *VD, const PtrVal *Init, Frame &Fr,
                   bool Assigned = false);
  bool pointerDecl(const VarDecl *VD);
  std::string baseName(const PtrBase &P) const;

  // Pointers into one of several read-only tables (LowerChoice.cpp).
  std::vector<std::vector<PtrBase>> Choices;
  /// Counts pointer reads; LoopSeqs: its value where each loop being
  /// lowered began (a read after it may run again after a later store).
  unsigned PtrSeq = 0;
  std::vector<unsigned> LoopSeqs;
  /// A file-scope table or a static local table that is only read, or an
  /// array parameter of a constant length that the function only reads.
  bool tableBase(const PtrBase &P) const;
  std::vector<PtrBase> choicesOf(const PtrBase &P) const;
  /// Whether \p P is, or may be, an array parameter of the function.
  bool choiceParams(const PtrBase &P) const;
  /// What to write instead of a pointer into \p A or \p B where they are
  /// not such tables.
  std::string tablesFix(const PtrBase &A, const PtrBase &B) const;
  /// The base of both \p A and \p Bv when they point into read-only
  /// tables of one element type, with each one's table id in it; false
  /// (nothing reported) otherwise.
  bool mergeTables(const PtrVal &A, const PtrVal &Bv, PtrBase &U, int &IdA,
                   int &IdB);
  /// A read through a pointer into one of several tables: each table read
  /// at an index valid for it, the lane's own table's value kept.
  int loadChoice(const LValue &L);
  /// Tables' index in Choices (added if new).
  int choiceOf(const std::vector<PtrBase> &Tabs);

#include "lower/LowerPtrTables.inc"
  bool scalarBase(const PtrBase &P) const {
    return (P.Var >= 0 && F.Vars[P.Var].Len == 0) || P.One;
  }
  /// Extents of array parameters that are passed on or walked by pointers:
  /// found from the lowered accesses (all constant indices), or an error.
  bool extentsFromAccesses();
  std::map<int, const Expr *> WholeUse;
  /// Uniform array parameters passed whole to calls made once per example
  /// (uniformArrayArg): the first callee's name.
  std::map<int, std::string> ExternWhole;
  bool arrayDecl(const VarDecl *VD);
  /// Local variable-length arrays of one dimension, and local pointers set
  /// to malloc/calloc/alloca memory, whose `free` does nothing (LowerVla.cpp).
  bool vlaDecl(const VarDecl *VD, const VariableArrayType *VAT);
  int vlaSize(int Raw);
  int vlaStorage(const std::string &Name, Type ET, int Raw);
  bool allocatedDecl(const VarDecl *VD, const Expr *Init);
  bool freeCall(const CallExpr *CE);
  llvm::DenseSet<const VarDecl *> Allocated;
  /// `sizeof t` of a local variable-length array (-2: \p UE is not that),
  /// from its size as its (latest) declaration computed it, unclamped.
  int vlaSizeof(const UnaryExprOrTypeTraitExpr *UE);
  llvm::DenseMap<const VarDecl *, int> VlaSizes;

  // Structs (LowerStruct.cpp): one variable per leaf member.
  struct Leaf {
    Type Ty;
    int Len; // > 0: an array member
    std::string Name;
    /// Its C access path (".in.x") and declared C type (an array member:
    /// its element type), for the ABI.
    std::string Path, CType;
    /// > 0: a two-dimensional array member of Len / Cols rows, flattened.
    int Cols;
    /// A member of the structs of an array member (`pt v[3]` of a struct
    /// local: leaves "v_x" and "v_y" of Len 3): its path in one ("x").
    std::string Tail = "";
    /// A union's storage: what it is, for the error where unions are not
    /// supported (the annotated function's parameters and return value).
    std::string Union = "";
    /// No integer member of its size to pass it as across the ABI (else
    /// Path and CType name that member).
    bool NoAbi = false;
    bool Ptr = false; // a pointer member of a const global (PointerLeaves)
    /// Element \p J's access path after Path: "[J]", "[r][c]", "[J].x"
    /// or "".
    std::string sub(int J) const {
      if (!Len)
        return "";
      if (!Cols)
        return "[" + std::to_string(J) + "]" + Tail;
      return "[" + std::to_string(J / Cols) + "][" + std::to_string(J % Cols) +
             "]";
    }
  };
  /// The leaves of struct type \p T, or an error at \p At naming what
  /// is not supported (\p Whose: the variable, for the message).
  /// \p Local: the struct is scalarized (a local, a helper's struct
  /// parameter or value), so arrays of structs as members are allowed.
  bool structLayout(QualType T, const std::string &Prefix,
                    std::vector<Leaf> &Out, SourceLocation At,
                    const std::string &Whose,
                    const std::string &PathPrefix = "", bool Local = false);
  // The parts of structLayout.
  bool unionLayout(QualType T, const RecordType *RT, const std::string &Prefix,
                   std::vector<Leaf> &Out, SourceLocation At,
                   const std::string &Whose, const std::string &PathPrefix);
  bool memberLayout(const FieldDecl *FD, const std::string &TN,
                    const std::string &Prefix, std::vector<Leaf> &Out,
                    SourceLocation At, const std::string &PathPrefix,
                    bool Local);
  bool structArrayMember(const ConstantArrayType *CAT, QualType FT,
                         const std::string &Name, const std::string &Path,
                         const std::string &What, std::vector<Leaf> &Out,
                         SourceLocation At);
  bool arrayMember(const ConstantArrayType *CAT, QualType FT, std::string Name,
                   const std::string &Path, const std::string &What,
                   std::vector<Leaf> &Out, SourceLocation At);
  unsigned leafCount(QualType T) const;
  /// Values \p Vals (of 4- or 8-byte types) as the values of type \p To
  /// their bits make, little-endian (memcpy between a double and a
  /// uint32_t[2]); \p At: the bit casts' place for diagnostics.
  std::vector<int> repack(const std::vector<int> &Vals, Type To,
                          SourceLocation At);
  /// An error at \p At for the first union among \p L: a global or
  /// static local one (\p Global), or at a parameter or the return value
  /// (\p Ret) of the annotated function one without an integer member to
  /// pass it as, or one that would need a derivative (\p Diff).
  bool noUnions(const std::vector<Leaf> &L, SourceLocation At, bool Diff,
                bool Ret = false, bool Global = false);
  /// 2..16 when struct type \p T with leaves \p L is that many members of
  /// one scalar type, back to back with no padding (vec3 of doubles): the
  /// wrapper then transposes whole groups of records in registers; else 0.
  int denseMembers(QualType T, const std::vector<Leaf> &L) const;
  /// The index of field \p FD's first leaf among its record's leaves.
  unsigned leafStart(const FieldDecl *FD) const;
  /// New variables for \p L, zero.
  std::vector<int> newStruct(const std::vector<Leaf> &L);
  void copyStruct(llvm::ArrayRef<int> Dst, llvm::ArrayRef<int> Src);
  bool structDecl(const VarDecl *VD);
  bool structPtrDecl(const VarDecl *VD);
  bool structInit(llvm::ArrayRef<int> Dst, QualType T, const Expr *Init);
  /// The leaves of the struct \p E designates or computes (with its side
  /// effects); \p structPtr: of the struct pointer \p E points at.
  bool structLeaves(const Expr *E, std::vector<int> &Out);
  bool structPtr(const Expr *E, std::vector<int> &Out);
  bool memberLeaves(const MemberExpr *ME, std::vector<int> &Out);
  /// An error if \p ME is a member of a union used other than as a scalar
  /// (those are unionMember's).
  bool unionWhole(const MemberExpr *ME);
  LValue memberLValue(const MemberExpr *ME, llvm::StringRef Action);
  /// An array of structs as a member of a struct local (`t.v`): a view of
  /// its leaves as an array of records (one key per leaf list).
  bool memberRecords(const MemberExpr *ME, RecRef &Out);
  std::map<std::vector<int>, int> MemberRecords;
  static bool isStructPtr(QualType T) {
    return T->isPointerType() && T->getPointeeType()->isRecordType();
  }
  /// Struct parameters of the annotated function (LowerStruct.cpp): a
  /// Record parameter for the ABI, its leaves appended as User parameters.
  bool structParam(unsigned I, const ParmVarDecl *P);
  void bindStructParams(Frame &Fr);
  std::vector<std::pair<unsigned, std::vector<Leaf>>> RecordParams;

  // Arrays of records as parameters (LowerRecords.cpp): each leaf member
  // is an array parameter of its own, over the same records (docs/abi.md
  // "Structs"); element k * Per of it is record k's member.
  // A local array of structs is one too, keyed below -1, with a local
  // array per leaf member instead (LeafVars; Per: the member's elements).
  struct RecArray {
    std::vector<Leaf> Leaves;
    std::vector<int> LeafParams;
    std::vector<int64_t> Per; // elements of the leaf's type per record
    std::vector<int> LeafVars;
    /// A global or static local (only read): its name and what it is
    /// ("global struct", "static local"), for errors at writes.
    std::string Name, What;
  };
  std::map<int, RecArray> RecArrays;
  int NextLocalRecords = -2;
  bool recordArrayParam(unsigned I, const ParmVarDecl *P);
  /// `struct pt p[N]` (\p N records of \p ElT), with its initializer.
  bool structArrayDecl(const VarDecl *VD, QualType ElT, uint64_t N);
  void bindRecordArrays(Frame &Fr);
  /// Whether \p E (a record, a member of one, or a pointer to records)
  /// lies in an array-of-records parameter, a local or static array of
  /// structs or a global struct or table of them: the others are struct
  /// locals.
  bool inRecordArray(const Expr *E);
  /// A file-scope struct or table of structs (any number of dimensions),
  /// read in place: an array of records whose leaves are Global tables
  /// (made on first use; false after an error at \p At).
  bool globalRecords(const VarDecl *VD, SourceLocation At, RecRef &Out);
  /// A static local struct or array of structs, only read: an array of
  /// records whose leaf arrays are filled in the prologue.
  bool staticRecords(const VarDecl *VD);
  /// Whether the records of \p R are only read (global, static local).
  bool readOnlyRecords(const RecRef &R) const;
  /// The error at a write into such records.
  void recordsWrite(SourceLocation At, const RecRef &R);
  /// The constant \p E reads from a const global struct or table of
  /// structs with a constant initializer at constant indices, or null.
  const APValue *constMember(const Expr *E);
  /// An index into records \p Base points at, in records: \p Idx times
  /// the records in one element of \p Base (a row of a 2-D array).
  int recordIndex(const Expr *Base, const Expr *Idx);
  std::map<const VarDecl *, int> GlobalRecords; // -1: its error was reported
  bool PointerLeaves = false; // structLayout of a const global's records
  std::map<const VarDecl *, RecRef> StaticRecords;
  bool recordPtr(const Expr *E, RecRef &Out);
  bool recordRef(const Expr *E, RecRef &Out);
  /// Leaf \p K of \p R as an element of its leaf array parameter.
  LValue recordLeaf(const RecRef &R, unsigned K);
  /// New struct variables holding the leaves of \p R.
  std::vector<int> loadRecord(const RecRef &R);
  void storeRecord(const RecRef &R, llvm::ArrayRef<int> Src);
  /// memcpy/memmove of whole structs, memset of them to 0 (\p Dst, \p Src:
  /// the arguments before their conversion to void *).
  int structMem(const CallExpr *CE, llvm::StringRef Name, const Expr *Dst,
                const Expr *Src);
#include "lower/LowerMemberTables.inc"
#include "lower/LowerRecordWalk.inc"
  /// A struct return value's leaves (empty for a scalar).
  std::vector<Leaf> RetLeaves;
  /// The leaves of the last inlined helper's struct return value.
  std::vector<int> CallStruct;

  // File-scope data, static locals, the out-pointer math calls
  // (LowerGlobal.cpp).
#include "lower/LowerGlobal.inc"

  int convert(int T, QualType From, QualType To);
  int constant(const Expr *E);
  LiteralMemo Literal;    // literalOnly's answers
  LiteralMemo Speculable; // speculable's answers
  int zeroOf(Type T);

  const FunctionDecl *Top;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  bool WantGrad;
  ir::Function &F;
  ir::Builder B;
  /// A deque: inlining a call pushes a frame while references to the
  /// enclosing frames (and iterators into their Vars) are held, e.g. in
  /// lvalue() while lowering an index that calls a helper; a vector would
  /// copy the frames when it grows (DenseMap's move is not noexcept) and
  /// leave those dangling.
  std::deque<Frame> Frames;
  std::vector<LoopCtx> Loops;
  // Loops around the statement being lowered, those of inlined helpers too.
  unsigned LoopDepth = 0;
  static constexpr unsigned MaxLoopDepth = 256;
  /// Calls of stmt(), stmtList() and expr() in progress, those lowering
  /// inlined helpers included: the lowering's recursion and the nesting of
  /// the IR it builds (which later passes recurse on) grow with it, without
  /// the bound clang's parser puts on one function's nesting (a helper of
  /// 500 nested ifs inlined under 100 such helpers overflowed the stack).
  /// Beyond MaxDepth a located error (tooDeep); below it, generation runs
  /// on a thread with a stack large enough (Generate.cpp).
  unsigned Depth = 0;
  unsigned MaxDepth = FullNestDepth;
  bool tooDeep(SourceLocation Loc);
  /// Labels some goto names, and the flag of each label whose statement
  /// list is being lowered (set from the goto until the label).
  llvm::DenseSet<const LabelDecl *> Targets;
  llvm::DenseMap<const LabelDecl *, int> LabelFlag;
  /// Gotos into a block whose statements from the label on always return
  /// (cephes' `goto under;` back into `if (...) { under: ...; return 0; }`):
  /// each is lowered as a copy of those statements (gotoStmt).
  llvm::DenseMap<const GotoStmt *, std::vector<const Stmt *>> Tails;
  /// Scalar locals a tail uses that are declared where its goto is not,
  /// each assigned by a statement of the tail before any other use
  /// (toms708's betaln: `goto L40;` into `{ int n = ...; ... L40: n =
  /// (int)(b - 1.); ... }`): the copy gets its own variable for each.
  llvm::DenseMap<const GotoStmt *, std::vector<const VarDecl *>> TailLocals;
  /// Labels forward gotos reach by entering blocks (round.c's `goto
  /// rndup;` into `if (...) { ... rndup: y += 1.0; }`): the ifs on the way
  /// take the label's side where the flag is set (enterIf). Iterated when
  /// the `__goto_` flags are made: in insertion order, not by address, so
  /// the generated code is the same from one compile to the next.
  llvm::MapVector<const LabelDecl *, Entry> Entries;
  /// Where a call to a function not defined yet is recorded (null: report
  /// it as an error).
  MissingBody *Missing;
  std::vector<LibraryCall> LibraryCalls;
  /// The statement being lowered failed: the rest of it is skipped. stmt()
  /// clears it afterwards (unless Stopped), so one compile reports the
  /// errors of every statement; Reported remembers there were some.
  bool Failed = false;
  bool Reported = false;
  /// Lowering waits for a missing body: no recovery, nothing reported.
  bool Stopped = false;
  /// Declarations whose statement failed: uses of them fail silently
  /// rather than adding follow-on errors.
  llvm::DenseSet<const VarDecl *> Poisoned;
  /// (location, message) of each error reported in the file, so a helper
  /// inlined twice reports its error once.
  ReportedErrors &Seen;
  /// Where convert() reports an unsupported conversion: the expression
  /// being lowered (or the cast being applied). Its location is asked only
  /// then: a left-deep chain's begin is as deep as the chain.
  const Expr *Where = nullptr;
  std::vector<SourceLocation> Sites;
};

} // namespace lowering
} // namespace batchdiff

#endif
