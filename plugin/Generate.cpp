//===- Generate.cpp - the per-function pipeline ---------------------------===//
//
//   clang AST --lower--> IR --simplify--> [activity --> reverse AD]
//     --uniformity--> batch --> batched IR --emit--> C
//
// The same batch transform and emitter serve the primal and the adjoint.
// BATCHDIFF_DUMP_IR=1 prints every stage's IR and analysis to stderr.
//
//===----------------------------------------------------------------------===//
#include "Generate.h"

#include "analysis/Activity.h"
#include "analysis/Uniformity.h"
#include "diagnostics/Diagnostics.h"
#include "emit/EmitC.h"
#include "lower/Lower.h"
#include "transforms/ad/Reverse.h"
#include "transforms/batch/Batch.h"
#include "transforms/simplify/CommonSubexpr.h"
#include "transforms/simplify/ForwardVars.h"
#include "transforms/simplify/HoistInvariants.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace batchdiff {

static void paramRemarks(clang::FunctionDecl *FD, clang::Sema &S,
                         const ir::Function &F, bool WantGrad) {
  auto &D = S.getDiagnostics();
  for (unsigned I = 0; I < FD->getNumParams() && I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    std::string Msg = Pa.Uniform ? "uniform (one value for the whole batch)"
                                 : "varying (one value per example)";
    if (ir::isFloat(Pa.Ty) && WantGrad)
      Msg += Pa.NoDiff ? ", not differentiated" : ", differentiated";
    std::string Dims = "scalar, no dims";
    if (Pa.IsArray) {
      Dims = std::string(Pa.Writable ? "output array" : "input array") +
             ", dims " + Pa.DimHow;
      if (Pa.DimParam >= 0 && !F.Params[Pa.DimParam].Uniform)
        Dims += "; ragged: each example's extent differs, accesses are "
                "masked per lane";
    }
    report(D, clang::DiagnosticsEngine::Remark,
           FD->getParamDecl(I)->getLocation(),
           "batchdiff: parameter '%0' is %1; %2")
        << Pa.Name << Msg << Dims;
  }
}

/// What batching decided for one generated function (primal or adjoint).
static void planRemarks(clang::FunctionDecl *FD, clang::Sema &S,
                        const ir::Function &F, const Uniformity &P,
                        const char *What) {
  auto &D = S.getDiagnostics();
  unsigned MaskedIf = 0, MaskedLoop = 0, Ifs = 0, Loops = 0;
  for (const auto &KV : P.VaryingCond) {
    bool IsIf = KV.first->K == ir::Stmt::If;
    (IsIf ? Ifs : Loops) += 1;
    if (KV.second)
      (IsIf ? MaskedIf : MaskedLoop) += 1;
  }
  report(D, clang::DiagnosticsEngine::Remark, FD->getLocation(),
         "batchdiff: %0: %1 lanes of %2 bits; %3 of %4 branch(es) and %5 of "
         "%6 loop(s) differ per example and run under an execution mask; "
         "the rest are uniform")
      << (F.Name + What) << (P.Wide ? "BD_WD" : "BD_WN")
      << (P.Wide ? "64" : "32") << MaskedIf << Ifs << MaskedLoop << Loops;
  if (!F.TapeSlots.empty()) {
    unsigned Slots = 0;
    for (int N : F.TapeSlots)
      Slots += N;
    report(D, clang::DiagnosticsEngine::Remark, FD->getLocation(),
           "batchdiff: %0: %1 loop tape(s), %2 value(s) stored per "
           "iteration")
        << (F.Name + What) << (unsigned)F.TapeSlots.size() << Slots;
  }
}

/// True once the translation unit declares \p Name (say, because
/// batchdiff.h included the runtime, or a preprocessed file carries it).
static bool declared(clang::Sema &S, llvm::StringRef Name) {
  clang::IdentifierInfo &II = S.getASTContext().Idents.get(Name);
  return S.LookupSingleName(S.TUScope, &II, clang::SourceLocation(),
                            clang::Sema::LookupOrdinaryName) != nullptr;
}

/// Functions without a derivative rule may be batched but not
/// differentiated through.
static bool checkDerivatives(clang::Sema &S, const ir::Function &F,
                             const Activity &A) {
  bool Ok = true;
  ir::walk(F.Body, [&](const ir::Stmt &St, int) {
    if (St.K != ir::Stmt::Inst || St.Opc != ir::Op::Math ||
        (St.Fn != ir::MathFn::Lgamma && St.Fn != ir::MathFn::Tgamma))
      return;
    if (!A.Temp[St.Args[0]] || !A.Temp[St.Dst])
      return;
    Ok = false;
    report(S.getDiagnostics(), clang::DiagnosticsEngine::Error,
           clang::SourceLocation::getFromRawEncoding(St.Loc),
           "'%0' has no derivative rule in batchdiff; compute it from "
           "BD_NODIFF inputs, or use 'batch' without 'diff'")
        << ir::mathName(St.Fn);
  });
  return Ok;
}

bool generateForFunction(clang::FunctionDecl *FD, clang::Sema &S,
                         const Options &Opts, bool WantBatch, bool WantGrad,
                         Generated &Out) {
  ir::Function Primal;
  if (!lowerFunction(FD, S, WantGrad, Primal))
    return false;
  forwardVars(Primal);
  hoistInvariants(Primal);
  commonSubexpr(Primal);
  ir::pruneDeadStores(Primal);
  bool Dump = std::getenv("BATCHDIFF_DUMP_IR") != nullptr;
  if (Dump)
    llvm::errs() << ir::print(Primal);

  if (Opts.Remarks)
    paramRemarks(FD, S, Primal, WantGrad);
  EmitInput In;
  // In a preprocessed file (-save-temps) include guards are gone, so the
  // runtime must not be included a second time.
  In.IncludeRuntime =
      !(declared(S, "bd_sclamp_idx") && declared(S, "bd_arena_get"));
  // A definition in a header would otherwise define NAME_batched in every
  // file that includes it.
  const clang::SourceManager &SM = S.getSourceManager();
  In.Static = !FD->isExternallyVisible() ||
              FD->getStorageClass() == clang::SC_Static ||
              !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()));
  ir::Function Grad, BatchedPrimal, BatchedGrad;
  if (WantBatch) {
    Uniformity PP = analyzeUniformity(Primal);
    BatchedPrimal = batchFunction(Primal, PP);
    In.Primal = &BatchedPrimal;
    if (Opts.Remarks)
      planRemarks(FD, S, Primal, PP, "_batched");
    if (Dump)
      llvm::errs() << PP.print(Primal) << ir::print(BatchedPrimal);
  }
  if (WantGrad) {
    Activity A = analyzeActivity(Primal);
    if (!checkDerivatives(S, Primal, A))
      return false;
    Grad = differentiate(Primal, A);
    ir::pruneDeadStores(Grad);
    Uniformity GP = analyzeUniformity(Grad);
    BatchedGrad = batchFunction(Grad, GP);
    In.Grad = &BatchedGrad;
    if (Opts.Remarks)
      planRemarks(FD, S, Grad, GP, "_grad");
    if (Dump)
      llvm::errs() << A.print(Primal) << ir::print(Grad) << GP.print(Grad)
                   << ir::print(BatchedGrad);
  }
  EmitOutput E = emitC(In);
  Out.Code = std::move(E.Code);
  Out.Prototypes = std::move(E.Prototypes);
  return true;
}

} // namespace batchdiff
