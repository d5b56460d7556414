//===- Definition.cpp - what lowering reports besides the IR --------------===//
//
// Parameter remarks, the "no derivative rule" and bit cast errors, and the
// two facts the emitter needs from the translation unit: the generated
// functions' linkage and whether the runtime headers are already declared.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

#include "analysis/Activity.h"
#include "analysis/BitCasts.h"
#include "diagnostics/Diagnostics.h"
#include "transforms/simplify/Simplify.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Lookup.h"

namespace batchdiff {
namespace lowering {

void paramRemarks(const FunctionDecl *FD, DiagnosticsEngine &D,
                  const ir::Function &F, bool WantGrad) {
  for (unsigned I = 0; I < FD->getNumParams() && I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    std::string Msg = Pa.Uniform ? "uniform (one value for the whole batch)"
                                 : "varying (one value per example)";
    if (ir::isFloat(Pa.Ty) && WantGrad)
      Msg += Pa.NoDiff ? ", not differentiated" : ", differentiated";
    std::string Dims = "scalar, no dims";
    unsigned N = 0;
    for (const ir::Param &L : F.Params)
      N += L.Record == (int)I;
    if (Pa.Kind == ir::ParamKind::Record) {
      Dims = "struct, one record per " +
             std::string(Pa.Uniform ? "batch" : "example") + ", " +
             std::to_string(N) + " scalar member(s)";
      if (WantGrad)
        Msg += Pa.NoDiff ? ", not differentiated" : ", differentiated";
    }
    if (Pa.IsArray) {
      Dims = std::string(Pa.Writable ? "output array" : "input array") +
             ", dims " + Pa.DimHow;
      if (Pa.Kind == ir::ParamKind::Record)
        Dims = std::string(Pa.Writable ? "output" : "input") +
               " array of records '" + Pa.CType + "', " + std::to_string(N) +
               " scalar member(s) each, dims in records " + Pa.DimHow;
      if (Pa.DimParam >= 0 && !F.Params[Pa.DimParam].Uniform)
        Dims += "; ragged: each example's extent differs, accesses are "
                "masked per lane";
    }
    report(D, DiagnosticsEngine::Remark, FD->getParamDecl(I)->getLocation(),
           "batchdiff: parameter '%0' is %1; %2")
        << Pa.Name << Msg << Dims;
  }
}

/// The value of per-lane call \p X is differentiated (diff-extern,
/// diff-extern-string; a C library function's reads as diff-no-derivative;
/// diff-long-double, and diff-long-double-function where \p Self: the
/// annotated function's own scalar run).
static void externDerivativeError(const ir::ExternCall &X, SourceLocation At,
                                  DiagnosticsEngine &D, bool Self) {
  if (X.Why == ir::ExternCall::LongDouble && Self) {
    report(D, DiagnosticsEngine::Error, At,
           "'%0' %1, so its batched version calls '%0' once per example and "
           "batchdiff does not know its derivative; move the long double "
           "part into a helper whose result is not differentiated, or use "
           "'batch' without 'diff'")
        << X.Name << X.Via;
    return;
  }
  if (X.Why == ir::ExternCall::LongDouble) {
    report(D, DiagnosticsEngine::Error, At,
           "'%0' %1, so batchdiff calls it once per example and does not "
           "know its derivative; compute its arguments from BD_NODIFF "
           "inputs, use its result only where no derivative is needed, or "
           "use 'batch' without 'diff'")
        << X.Name << X.Via;
    return;
  }
  if (X.Why == ir::ExternCall::Recursion && X.NoReverse) {
    report(D, DiagnosticsEngine::Error, At,
           "the recursive call of '%0' (recursion through %1) is made once "
           "per example on the scalar function, so its derivative is unknown "
           "to batchdiff; a recursive call goes through the callee's "
           "NAME_grad in the NAME_batched, NAME_grad and NAME_jvp of a "
           "function marked diff, but NAME_hvp cannot differentiate it twice "
           "and a function marked diff(forward) alone does not call "
           "NAME_grad; mark a diff(forward) function diff too, write the "
           "recursion as a loop, compute its arguments from BD_NODIFF "
           "inputs, or use 'batch' without 'diff'")
        << X.Name << X.Via;
    return;
  }
  if (X.Why == ir::ExternCall::Recursion && X.MarkedDiff) {
    report(D, DiagnosticsEngine::Error, At,
           "the recursive call of '%0' (recursion through %1) is made once "
           "per example on the scalar function, so its derivative is unknown "
           "to batchdiff; a recursive call goes through the NAME_grad of a "
           "function marked diff only where its result and an argument are "
           "floating-point and, for a static function, where it is defined "
           "before the function being generated; define '%0' first, write "
           "the recursion as a loop, or use 'batch' without 'diff'")
        << X.Name << X.Via;
    return;
  }
  if (X.Why == ir::ExternCall::BatchedArgs) {
    report(D, DiagnosticsEngine::Error, At,
           "'%0' %1, so this call is made once per example on the scalar "
           "function and its derivative is unknown to batchdiff; %2, define "
           "'%0' in this file (static inline in the header that declares "
           "it) so that it is inlined and differentiated, compute its "
           "arguments from BD_NODIFF inputs, or use 'batch' without 'diff'")
        << X.Name << X.Via << X.Fix;
    return;
  }
  if (X.Why == ir::ExternCall::Recursion) {
    report(D, DiagnosticsEngine::Error, At,
           "the recursive call of '%0' (recursion through %1) is made once "
           "per example on the scalar function, so its derivative is unknown "
           "to batchdiff; mark '%0' batch, diff (a recursive call of a "
           "function the file marks diff goes through its NAME_grad), write "
           "the recursion as a loop, compute its arguments from BD_NODIFF "
           "inputs, or use 'batch' without 'diff'")
        << X.Name << X.Via;
    return;
  }
  const char *Text =
      X.Why == ir::ExternCall::Library
          ? "'%0' has no derivative rule in batchdiff; compute it from "
            "BD_NODIFF inputs, or use 'batch' without 'diff'"
      : X.Why == ir::ExternCall::StringArg
          ? "'%0' is called once per example because of its string literal "
            "argument, so its derivative is unknown to batchdiff; pass it "
            "numbers only, with its body in this file, so that it is "
            "inlined and differentiated, compute its other arguments from "
            "BD_NODIFF inputs, or use 'batch' without 'diff'"
      : X.Why == ir::ExternCall::BatchedNoGrad
          ? "'%0' is marked batch but not diff where this file declares it, "
            "so batchdiff has no derivative for it; mark it batch, diff "
            "where it is declared and defined (its file then defines "
            "'%0_grad', which gives the derivative), compute its arguments "
            "from BD_NODIFF inputs, or use 'batch' without 'diff'"
      : X.Why == ir::ExternCall::BatchedNoDiff
          ? "'%0' is defined in another file, and the argument of its "
            "BD_NODIFF parameter %1 carries a derivative that '%0_grad' "
            "does not give; compute that argument from BD_NODIFF inputs, "
            "drop BD_NODIFF from that parameter where '%0' is declared and "
            "defined, or use 'batch' without 'diff'"
      : X.Why == ir::ExternCall::BatchedHvp
          ? "NAME_hvp would need the second derivatives of '%0', which is "
            "defined in another file ('%0_grad' gives first derivatives "
            "only); define '%0' in this file (static inline in the header "
            "that declares it) so that it is inlined and differentiated "
            "twice, or ask for diff or diff(forward) without diff(hvp)"
          : "'%0' is defined in another file, so its derivative is unknown "
            "to batchdiff, which calls it once per example; define it in "
            "this file (static inline in the header that declares it) so "
            "that it is inlined and differentiated, mark it batch, diff "
            "where it is declared and defined (numbers in, a number out: "
            "its file's '%0_grad' then gives the derivative), compute its "
            "arguments from BD_NODIFF inputs, or use 'batch' without 'diff'";
  if (X.Why == ir::ExternCall::BatchedNoDiff)
    report(D, DiagnosticsEngine::Error, At, Text) << X.Name << X.Via;
  else
    report(D, DiagnosticsEngine::Error, At, Text) << X.Name;
}

/// What per-lane call \p X leaves in its out-pointer argument \p K is
/// differentiated (diff-extern-out).
/// Passed as a pointer (a helper's parameter 'h' bound to '&yh'), the error
/// at the call names what is written there, '*h', and notes show where
/// each helper's call bound it.
static void externOutDerivativeError(const ir::ExternCall &X, size_t K,
                                     llvm::ArrayRef<SourceLocation> Sites,
                                     SourceLocation At, DiagnosticsEngine &D) {
  const ir::ExternCall::Out &O = X.Outs[K];
  report(D, DiagnosticsEngine::Error, At,
         "the value '%0' leaves in %2 carries no "
         "derivative: '%0' is called once per example and batchdiff does "
         "not see its body; define it in this file (static inline in the "
         "header that declares it, or marked batch/diff) so that it is "
         "inlined and differentiated, use '%1' only where no derivative is "
         "needed (a flag, a comparison), compute the call's arguments from "
         "BD_NODIFF inputs, or use 'batch' without 'diff'")
      << X.Name << O.Name
      << (!O.Array.empty()
              ? O.Ptr.empty()
                    ? "the array '" + O.Name + "' (passed whole)"
                    : "the array '" + O.Name + "' (passed as '" + O.Ptr + "')"
          : O.Ptr.empty() ? "'" + O.Name + "' (passed as '&" + O.Name + "')"
                          : "'*" + O.Ptr + "' ('" + O.Ptr + "' points to '" +
                                O.Name + "')");
  for (const auto &[Site, Text] : O.Notes)
    report(D, DiagnosticsEngine::Note, Sites[Site], "%0") << Text;
}

bool checkDerivatives(const ir::Function &F,
                      llvm::ArrayRef<SourceLocation> Sites,
                      DiagnosticsEngine &D, ReportedErrors &Seen) {
  auto First = [&Seen](SourceLocation At, std::string Key) {
    return Seen.insert({At.getRawEncoding(), "derivative: " + Key}).second;
  };
  auto NoRule = [](const ir::Stmt &St) {
    return St.K == ir::Stmt::Inst && St.Opc == Op::Math &&
           ir::mathDeriv(St.Fn) == ir::MathDeriv::None;
  };
  // A floating result of a call made per lane (Op::Extern) has no
  // derivative either: batchdiff does not see the callee's body.
  auto Outside = [&F](const ir::Stmt &St) {
    return St.K == ir::Stmt::Inst &&
           (St.Opc == Op::Extern || St.Opc == Op::ExternOut) &&
           ir::isFloat(F.Temps[St.Dst]);
  };

  bool Any = false, Bits = false;
  ir::walk(F.Body, [&](const ir::Stmt &St, int) {
    Any |= NoRule(St) || Outside(St);
    Bits |= St.K == ir::Stmt::Inst && St.Opc == Op::Bitcast;
  });
  if (!Any && !Bits)
    return true;
  // Whether a call is differentiated is what activity finds in the
  // simplified IR the pipeline differentiates (a variable that held x and
  // is then reassigned a constant no longer carries x's derivative).
  ir::Function S = ir::cloneFunction(F);
  simplify(S);
  Activity A = analyzeActivity(S);
  std::map<int, int> CallOf; // an Extern's result temp -> its Externs index
  ir::walk(S.Body, [&](const ir::Stmt &St, int) {
    if (St.K == ir::Stmt::Inst && St.Opc == Op::Extern)
      CallOf[St.Dst] = (int)St.IVal;
  });
  bool Ok = true;
  ir::walk(S.Body, [&](const ir::Stmt &St, int) {
    if (Outside(St) && A.Temp[St.Dst]) {
      Ok = false;
      // (Through out-pointers bound by other calls, the notes differ.)
      std::string Key = "value";
      if (St.Opc == Op::ExternOut && CallOf.count(St.Args[0])) {
        const ir::ExternCall &X = S.Externs[CallOf[St.Args[0]]];
        Key = "out " + std::to_string(St.IVal);
        // (An array's elements: one error, naming the array.)
        if ((size_t)St.IVal < X.Outs.size() &&
            !X.Outs[(size_t)St.IVal].Array.empty())
          Key = "array " + X.Outs[(size_t)St.IVal].Array;
        if ((size_t)St.IVal < X.Outs.size())
          for (const auto &N : X.Outs[(size_t)St.IVal].Notes)
            Key += " " + std::to_string(Sites[N.first].getRawEncoding());
      }
      if (!First(Sites[St.Site], Key))
        return;
      if (St.Opc == Op::ExternOut && CallOf.count(St.Args[0]))
        externOutDerivativeError(S.Externs[CallOf[St.Args[0]]], (size_t)St.IVal,
                                 Sites, Sites[St.Site], D);
      else if (St.Opc == Op::Extern)
        externDerivativeError(S.Externs[St.IVal], Sites[St.Site], D,
                              S.Externs[St.IVal].Name == S.Name);
      return;
    }
    if (!NoRule(St) || !A.Temp[St.Args[0]] || !A.Temp[St.Dst])
      return;
    Ok = false;
    if (!First(Sites[St.Site], ir::mathName(St.Fn)))
      return;
    report(D, DiagnosticsEngine::Error, Sites[St.Site],
           "'%0' has no derivative rule in batchdiff; compute it from "
           "BD_NODIFF inputs, or use 'batch' without 'diff'")
        << ir::mathName(St.Fn);
  });
  // A floating global the function writes, carrying a derivative, passed
  // to a call that may change it (lower/GlobalCalls.cpp, Out::Before): the
  // value read back keeps the derivative only where the call left its bits
  // alone; where the call changes it, that part of the gradient is 0.
  // Once per call site and global in the file (a helper inlined twice).
  ir::walk(S.Body, [&](const ir::Stmt &St, int) {
    if (St.K != ir::Stmt::Inst || St.Opc != Op::Extern)
      return;
    const ir::ExternCall &X = S.Externs[St.IVal];
    for (const ir::ExternCall::Out &O : X.Outs)
      if (O.Before && O.Arg >= 0 && (size_t)O.Arg < St.Args.size() &&
          ir::isFloat(S.Temps[St.Args[O.Arg]]) && A.Temp[St.Args[O.Arg]] &&
          First(Sites[St.Site], "global " + O.After)) {
        // A recursive call is defined here: only its wording differs.
        bool Rec = X.Why == ir::ExternCall::Recursion ||
                   (X.Batched && X.Batched->SameFile);
        report(D, DiagnosticsEngine::Warning, Sites[St.Site],
               Rec ? "the recursive call of '%0' may change floating global "
                     "'%1', which carries a derivative here: derivatives "
                     "cross a recursive call through its arguments and "
                     "result only, so where the call changes '%1' the value "
                     "it leaves has no derivative (that part of the gradient "
                     "is 0; the values are right); pass '%1' to '%0' as an "
                     "argument and return its new value"
                   : "'%0' may change floating global '%1', which carries a "
                     "derivative here: batchdiff does not see into '%0', so "
                     "where the call changes '%1' the value it leaves has no "
                     "derivative (that part of the gradient is 0; the values "
                     "are right); pass '%1' to '%0' as an argument and return "
                     "its new value, or define '%0' in this file")
            << X.Name << O.After;
      }
  });
  for (const ir::Stmt *St : derivativeLosingBitcasts(S)) {
    Ok = false;
    SourceLocation At = St->Site >= 0 ? Sites[St->Site] : SourceLocation();
    if (!First(At, "bit cast"))
      continue;
    report(D, DiagnosticsEngine::Error, At,
           "a float made from the bits of a value that carries a derivative "
           "(a bit cast back from integers) is not supported in a diff "
           "function; its derivative cannot be followed through integer "
           "bits: compute it from BD_NODIFF inputs, use the <math.h> "
           "function (frexp, ldexp, copysign, fabs, ...), or use 'batch' "
           "without 'diff'");
  }
  return Ok;
}

bool internalLinkage(const FunctionDecl *FD, const SourceManager &SM) {
  // A definition in a header would otherwise define NAME_batched in every
  // file that includes it.
  return !FD->isExternallyVisible() || FD->getStorageClass() == SC_Static ||
         !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()));
}

/// True once the translation unit declares \p Name.
static bool declared(Sema &S, llvm::StringRef Name) {
  IdentifierInfo &II = S.getASTContext().Idents.get(Name);
  return S.LookupSingleName(S.TUScope, &II, SourceLocation(),
                            Sema::LookupOrdinaryName) != nullptr;
}

bool runtimeDeclared(Sema &S) {
  // Because batchdiff.h included the runtime, or a preprocessed file
  // (-save-temps, include guards gone) carries it.
  return declared(S, "bd_sclamp_idx") && declared(S, "bd_arena_get");
}

} // namespace lowering
} // namespace batchdiff
