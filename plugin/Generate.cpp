//===- Generate.cpp - the per-function pipeline ---------------------------===//
//
//   clang AST --lower--> IR --simplify--> [activity --> reverse / forward AD]
//     --uniformity--> batch --> batched IR --emit--> C
//
// The same batch transform and emitter serve the primal, the adjoint and
// the forward-mode function.
// BATCHDIFF_DUMP_IR=1 prints every stage's IR and analysis to stderr.
//
//===----------------------------------------------------------------------===//
#include "Generate.h"

#include "analysis/Activity.h"
#include "analysis/Uniformity.h"
#include "diagnostics/Diagnostics.h"
#include "emit/EmitC.h"
#include "lower/Lower.h"
#include "transforms/ad/Forward.h"
#include "transforms/ad/Reverse.h"
#include "transforms/batch/Batch.h"
#include "transforms/simplify/DropTies.h"
#include "transforms/simplify/ShareReciprocals.h"
#include "transforms/simplify/Simplify.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <pthread.h>
#include <sys/resource.h>

namespace batchdiff {

/// What batching decided for one generated function (primal or adjoint).
static void planRemarks(clang::DiagnosticsEngine &D, clang::SourceLocation Loc,
                        const ir::Function &F, const Uniformity &P,
                        const BatchReport &R, const ir::Function &B,
                        const char *What) {
  unsigned MaskedIf = 0, MaskedLoop = 0, Ifs = 0, Loops = 0;
  for (const auto &KV : P.VaryingCond) {
    if (KV.first->Rare)
      continue;
    bool IsIf = KV.first->K == ir::Stmt::If;
    (IsIf ? Ifs : Loops) += 1;
    if (KV.second)
      (IsIf ? MaskedIf : MaskedLoop) += 1;
  }
  report(D, clang::DiagnosticsEngine::Remark, Loc,
         "batchdiff: %0: %1 lanes of %2 bits; %3 of %4 branch(es) and %5 of "
         "%6 loop(s) differ per example and run under an execution mask; "
         "the rest are uniform")
      << (F.Name + What) << (P.Wide ? "BD_WD" : "BD_WN")
      << (P.Wide ? "64" : "32") << MaskedIf << Ifs << MaskedLoop << Loops;
  if (!R.BranchFree.empty() || !R.Masked.empty())
    report(D, clang::DiagnosticsEngine::Remark, Loc,
           "batchdiff: %0: %1 of %2 per-lane branch(es) branch-free (both "
           "sides computed for every lane and blended: no loop, array "
           "parameter access, integer division or tape operation, and at most "
           "%3 cost units); the others skip a side no lane takes")
        << (F.Name + What) << (unsigned)R.BranchFree.size()
        << (unsigned)(R.BranchFree.size() + R.Masked.size())
        << (unsigned)BranchFreeMaxCost;
  report(D, clang::DiagnosticsEngine::Remark, Loc,
         "batchdiff: %0: %1 independent chain(s) of lanes per step (%2)")
      << (F.Name + What) << B.Lanes.Interleave << R.ChainsWhy;
  if (!F.TapeSlots.empty()) {
    unsigned Slots = 0;
    for (int N : F.TapeSlots)
      Slots += N;
    report(D, clang::DiagnosticsEngine::Remark, Loc,
           "batchdiff: %0: %1 loop tape(s), %2 value(s) stored per "
           "iteration")
        << (F.Name + What) << (unsigned)F.TapeSlots.size() << Slots;
  }
}

static bool generateHere(clang::FunctionDecl *FD, clang::Sema &S,
                         clang::DiagnosticsEngine &Diags, const Options &Opts,
                         bool WantBatch, bool WantGrad, bool WantJvp,
                         bool WantHvp, Generated &Out, MissingBody *Missing,
                         ReportedErrors *Reported, unsigned MaxDepth) {
  ir::Function Primal;
  LowerInfo Info;
  // Forward mode differentiates what reverse mode does: the same checks.
  if (!lowerFunction(FD, S, WantGrad || WantJvp || WantHvp, Opts.Remarks,
                     Primal, Info, Missing, Reported, MaxDepth)) {
    // A helper defined later: declare the generated functions now, as the
    // contract says; the definitions follow once its body is parsed.
    if (Missing && Missing->Callee && !Out.Deferred) {
      EmitInput In;
      In.IncludeRuntime = Info.IncludeRuntime;
      In.Static = Info.Static;
      In.Primal = WantBatch ? &Primal : nullptr;
      In.Grad = WantGrad ? &Primal : nullptr;
      In.Jvp = WantJvp ? &Primal : nullptr;
      In.Hvp = WantHvp ? &Primal : nullptr;
      EmitOutput E = emitDeclarations(In);
      Out.Code = std::move(E.Code);
      Out.Prototypes = std::move(E.Prototypes);
      Out.Deferred = true;
    }
    return false;
  }
  if (!Opts.DenseRecords) { // records member by member (for measuring)
    Primal.RetDense = 0;
    for (ir::Param &P : Primal.Params)
      P.Dense = 0;
  }
  if (!Opts.DenseArrays) // per-example arrays by gathers (for measuring)
    for (ir::Param &P : Primal.Params)
      P.Declared = false;
  simplify(Primal);
  bool Dump = std::getenv("BATCHDIFF_DUMP_IR") != nullptr;
  if (Dump)
    llvm::errs() << ir::print(Primal);

  EmitInput In;
  In.IncludeRuntime = Info.IncludeRuntime;
  In.Static = Info.Static;
  In.MathOutline = Opts.MathOutline;
  In.DeferMath = Opts.DeferMath;
  In.RaggedBlocks = Opts.RaggedBlocks;
  In.FileDecls = Info.FileDecls;
  In.AbiBatched = Info.AbiBatched;
  In.AbiGrad = Info.AbiGrad;
  In.AbiGradDeclared = Info.AbiGradDeclared;
  In.SetsNoGlobal = Info.SetsNoGlobal;
  In.UsesNoGlobal = Info.UsesNoGlobal;
  In.SetsGlobals = Info.SetsGlobals;
  In.InPlace = Info.InPlace;
  ir::Function Grad, BatchedPrimal, BatchedGrad, Jvp, BatchedJvp, Hvp,
      BatchedHvp;
  if (WantBatch) {
    // A loop's quotients by a divisor computed before it share its
    // reciprocal (the same bits); the derivatives differentiate the
    // primal's divisions as they are.
    ir::Function P = ir::cloneFunction(Primal);
    dropTies(P);
    shareReciprocals(P, 0);
    Uniformity PP = analyzeUniformity(P);
    BatchReport R;
    BatchedPrimal = batchFunction(P, PP, &R, Opts.Chains);
    BatchedPrimal.KeepOrder = !Opts.SortByLength;
    In.Primal = &BatchedPrimal;
    if (Opts.Remarks)
      planRemarks(Diags, Info.Loc, P, PP, R, BatchedPrimal, "_batched");
    if (Dump)
      llvm::errs() << PP.print(P) << ir::print(BatchedPrimal);
  }
  if (WantGrad || WantHvp) {
    Activity A = analyzeActivity(Primal);
    Grad = differentiate(Primal, A);
    dropTies(Grad);
    ir::pruneDeadStores(Grad);
    // Before NAME_hvp differentiates it: its gradient is NAME_grad's bits.
    shareReciprocals(Grad, 2);
    if (Dump)
      llvm::errs() << A.print(Primal) << ir::print(Grad);
  }
  if (WantGrad) {
    Uniformity GP = analyzeUniformity(Grad);
    BatchReport R;
    BatchedGrad = batchFunction(Grad, GP, &R, Opts.Chains);
    BatchedGrad.KeepOrder = !Opts.SortByLength;
    In.Grad = &BatchedGrad;
    if (Opts.Remarks)
      planRemarks(Diags, Info.Loc, Grad, GP, R, BatchedGrad, "_grad");
    if (Dump)
      llvm::errs() << GP.print(Grad) << ir::print(BatchedGrad);
  }
  if (WantJvp) {
    Activity A = analyzeActivity(Primal);
    Jvp = differentiateForward(Primal, A);
    dropTies(Jvp);
    simplifyDerivative(Jvp);
    shareReciprocals(Jvp, 1);
    Uniformity JP = analyzeUniformity(Jvp);
    BatchReport R;
    BatchedJvp = batchFunction(Jvp, JP, &R, Opts.Chains);
    BatchedJvp.KeepOrder = !Opts.SortByLength;
    In.Jvp = &BatchedJvp;
    if (Opts.Remarks)
      planRemarks(Diags, Info.Loc, Jvp, JP, R, BatchedJvp, "_jvp");
    if (Dump)
      llvm::errs() << ir::print(Jvp) << JP.print(Jvp) << ir::print(BatchedJvp);
  }
  if (WantHvp) {
    // Forward over reverse: the gradient's IR differentiated again.
    Activity A = analyzeActivity(Grad, true);
    Hvp = differentiateForward(Grad, A, true);
    simplifyDerivative(Hvp);
    shareReciprocals(Hvp, 1);
    Uniformity HP = analyzeUniformity(Hvp);
    BatchReport R;
    BatchedHvp = batchFunction(Hvp, HP, &R, Opts.Chains);
    // Sorted as NAME_grad is: its gradient stays bit for bit NAME_grad's.
    BatchedHvp.KeepOrder = !Opts.SortByLength;
    In.Hvp = &BatchedHvp;
    if (Opts.Remarks)
      planRemarks(Diags, Info.Loc, Hvp, HP, R, BatchedHvp, "_hvp");
    if (Dump)
      llvm::errs() << A.print(Grad) << ir::print(Hvp) << HP.print(Hvp)
                   << ir::print(BatchedHvp);
  }
  EmitOutput E = emitC(In);
  Out.Code = std::move(E.Code);
  Out.Prototypes = std::move(E.Prototypes);
  Out.Deferred = false;
  Out.LibraryCalls = std::move(Info.LibraryCalls);
  Out.ScratchGlobals = std::move(Info.ScratchGlobals);
  return true;
}

/// The lowering and the passes after it recurse once per level of the
/// function's nesting, inlined helpers included: up to FullNestDepth levels
/// (50,000). Measured: a chain of 8,000 inlined helpers (40,000 levels)
/// needs 16-24 MB of stack, 5,000 nested ifs 2-4 MB through the whole
/// pipeline, where clang's main thread has 8 MB (both crashed there, at
/// 3,600 helpers and 28,000 ifs). So generation runs on a thread of its own
/// with 256 MB (address space; only the pages used are memory), the caller
/// waiting for it. Under an address-space limit (`ulimit -v`) a stack of
/// more than a third of it is not tried (measured: 256 MB under a limit of
/// 600 MB left LLVM out of memory where 700 MB was enough), nor one that
/// cannot be created; smaller stacks allow proportionally less nesting, and
/// without any thread clang's own stack, part of which the parser has used,
/// 1,000 levels (llvm::thread would stop the compiler with a fatal error).
struct GenerateStack {
  size_t Bytes;
  unsigned Depth;
};
constexpr GenerateStack GenerateStacks[] = {
    {size_t(256) << 20, FullNestDepth},
    {size_t(64) << 20, FullNestDepth / 4},
    {size_t(16) << 20, FullNestDepth / 16}};
constexpr unsigned InPlaceNestDepth = 1000;

/// Runs \p Fn on a new thread with a stack of \p Bytes; false if no such
/// thread could be created.
static bool runOnStack(size_t Bytes, llvm::function_ref<void()> Fn) {
  pthread_attr_t Attr;
  if (pthread_attr_init(&Attr) != 0)
    return false;
  pthread_t T;
  auto Run = [](void *P) -> void * {
    (*static_cast<llvm::function_ref<void()> *>(P))();
    return nullptr;
  };
  bool Made = pthread_attr_setstacksize(&Attr, Bytes) == 0 &&
              pthread_create(&T, &Attr, Run, &Fn) == 0;
  pthread_attr_destroy(&Attr);
  if (Made)
    pthread_join(T, nullptr);
  return Made;
}

bool generateForFunction(clang::FunctionDecl *FD, clang::Sema &S,
                         clang::DiagnosticsEngine &Diags, const Options &Opts,
                         bool WantBatch, bool WantGrad, bool WantJvp,
                         bool WantHvp, Generated &Out, MissingBody *Missing,
                         ReportedErrors *Reported) {
  bool Done = false;
  unsigned Depth = InPlaceNestDepth;
  struct rlimit Limit;
  size_t Most =
      getrlimit(RLIMIT_AS, &Limit) == 0 && Limit.rlim_cur != RLIM_INFINITY
          ? size_t(Limit.rlim_cur / 3)
          : SIZE_MAX;
  auto Generate = [&] {
    Done = generateHere(FD, S, Diags, Opts, WantBatch, WantGrad, WantJvp,
                        WantHvp, Out, Missing, Reported, Depth);
  };
  for (const GenerateStack &G : GenerateStacks) {
    Depth = G.Depth;
    if (G.Bytes <= Most && runOnStack(G.Bytes, Generate))
      return Done;
  }
  Depth = InPlaceNestDepth;
  Generate();
  return Done;
}

} // namespace batchdiff
