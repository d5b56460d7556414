//===- Plugin.cpp - the batchdiff clang plugin ----------------------------===//
//
// Registered as "batchdiff", run before the main action (-fplugin= runs
// AddBeforeMainAction plugins automatically). The action parses options and
// prepares the preprocessor; the consumer generates code for each annotated
// definition as the parser completes it and injects the code right after.
//
//===----------------------------------------------------------------------===//

#include "Generate.h"
#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"
#include "diagnostics/GeneratedChecks.h"
#include "diagnostics/TargetWarnings.h"
#include "inject/DirectCalls.h"
#include "inject/Inject.h"
#include "inject/LazyRuntime.h"
#include "inject/Outputs.h"
#include "lower/FixedGlobals.h"
#include "lower/RecursiveHelpers.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace clang;

namespace batchdiff {
namespace {

class BatchDiffConsumer : public SemaConsumer {
public:
  BatchDiffConsumer(Options Opts, CompilerInstance &CI)
      : Opts(std::move(Opts)) {
    resetAttributeState();
    Lazy.begin(CI);
  }
  ~BatchDiffConsumer() override { Lazy.end(); }

  void InitializeSema(Sema &SemaRef) override {
    S = &SemaRef;
    Lazy.setSema(S);
  }
  void ForgetSema() override {
    S = nullptr;
    Lazy.setSema(nullptr);
  }

  // The runtime's function bodies: parsed at the end, where used.
  bool shouldSkipFunctionBody(Decl *D) override { return Lazy.shouldSkip(D); }

  // Runs before CodeGen's HandleTopLevelDecl for the same group (we are
  // first in the multiplexer), while the parser holds one lookahead token.
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    Lazy.declHandled(DG);
    // The file's last declaration: functions still waiting for a body get
    // their definitions after it (finishWaiting).
    AtEnd = S && parserAtEnd(*S);
    bool AtFileEnd = AtEnd;
    unsigned InjectedBefore = Injected;
    for (Decl *D : DG) {
      // Our own code: clang hides its warnings (a system buffer).
      if (S && !clangErrors() && checkGeneratedDecl(D)) {
        ++OwnErrors;
        continue;
      }
      if (S && !clangErrors() && isGeneratedDecl(D))
        callInlineHelpersByAddress(D);
      if (S && (isa<FunctionDecl>(D) || isa<VarDecl>(D))) {
        unsigned Before = numErrors();
        diagnoseLateScratchUse(D);
        OwnErrors += numErrors() - Before;
      }
      if (auto *FD = dyn_cast<FunctionDecl>(D)) {
        if (S) {
          unsigned Before = numErrors();
          diagnoseLateAttributes(*S, FD);
          diagnoseLateLibraryBody(FD);
          OwnErrors += numErrors() - Before;
        }
        handleFunction(FD);
      }
    }
    if (AtEnd && !Waiting.empty() && !DG.isNull() && !clangErrors()) {
      std::string Code = finishWaiting();
      if (!Code.empty())
        inject(*(DG.end() - 1), Code, "<batchdiff:end>");
    }
    AtEnd = false;
    // Code held while the parser was in a header opened after its
    // definition: the parser has left it now.
    if (HeldAt && S && !headerOpenedAfter(*S, HeldAt)) {
      const Decl *At = HeldAt;
      HeldAt = nullptr;
      if (!clangErrors() && !injectAfterDefinition(*S, At, Held, HeldName))
        Waiting.clear();
      ++Injected;
      Held.clear();
    }
    // Nothing else comes: the runtime functions used get their bodies.
    if (AtFileEnd && Injected == InjectedBefore && !HeldAt && Waiting.empty() &&
        S && !clangErrors())
      Lazy.injectReferenced();
    return true;
  }

  void HandleTranslationUnit(ASTContext &) override {
    if (!S)
      return;
    if (HeldAt && !clangErrors())
      report(S->getDiagnostics(), DiagnosticsEngine::Error,
             HeldAt->getLocation(),
             "batchdiff cannot add the generated code of %0: the file ends "
             "inside a header included after it")
          << cast<NamedDecl>(HeldAt);
    // Helpers whose bodies never came: the call is the error.
    if (!clangErrors())
      for (const Pending &P : Waiting) {
        auto [What, Instead] = missingBodyError(P.Missing);
        report(S->getDiagnostics(), DiagnosticsEngine::Error, P.Missing.At,
               "%0 is not supported in a batch/diff function; %1")
            << What << Instead;
      }
    if (!clangErrors())
      Lazy.diagnoseMissing();
    // Static structs whose pointer members were read as constants: code
    // after the reading function must not change them either.
    if (!clangErrors())
      lowering::diagnoseLaterChanges(S->getDiagnostics(), S->getASTContext());
    diagnoseParamAttributes(*S);
    diagnoseUnusedFunctionMarks(*S);
    writeOutputs(S->getDiagnostics(), S->getSourceManager(), Opts, All);
  }

private:
  /// An annotated function that calls a function defined later in the file:
  /// its declarations are injected, its definitions wait for that body.
  struct Pending {
    FunctionDecl *FD;
    bool WantBatch, WantGrad, WantJvp, WantHvp;
    MissingBody Missing;
    size_t Slot; // its place in All
  };

  void handleFunction(FunctionDecl *FD) {
    if (!S || !FD->doesThisDeclarationHaveABody() || FD->isInvalidDecl())
      return;
    // After clang's own errors the AST may be partial; generating from it
    // could only add confusing follow-on errors. After ours it is whole:
    // go on, so one compile reports every unsupported construct.
    if (clangErrors())
      return;
    unsigned Before = numErrors();
    std::string Code = resolveWaiting(FD);
    bool WantBatch = hasBatch(FD), WantGrad = hasDiff(FD),
         WantJvp = hasForwardDiff(FD), WantHvp = hasHvpDiff(FD);
    if (WantBatch || WantGrad || WantJvp || WantHvp) {
      // A static function whose generated functions are what the file
      // calls is used: no -Wunused-function for it (still emitted only if
      // referenced).
      FD->setIsUsed();
      if (WantGrad)
        Code += generateRecursiveHelpers(FD);
      Code += generate(FD, WantBatch, WantGrad, WantJvp, WantHvp);
    }
    OwnErrors += numErrors() - Before;
    // At the end of the file, after what this definition resolved.
    if (AtEnd && !clangErrors()) {
      Code += finishWaiting();
      AtEnd = false;
    }
    if (Code.empty())
      return;
    inject(FD, Code, "<batchdiff:" + FD->getNameAsString() + ">");
  }

  /// The static recursive helpers of diff function \p FD that no attribute
  /// marks, generated as if marked batch, diff before \p FD's own code
  /// (lower/RecursiveHelpers.h). Internal functions: not in the header=
  /// output.
  std::string generateRecursiveHelpers(const FunctionDecl *FD) {
    std::string Code;
    for (const RecursiveHelper &H : recursiveHelpers(FD, S->getASTContext())) {
      if (!Implicit.insert(H.FD->getCanonicalDecl()).second)
        continue;
      markBatchDiff(H.FD);
      if (Opts.Remarks)
        report(S->getDiagnostics(), DiagnosticsEngine::Remark,
               H.FD->getLocation(),
               "batchdiff: %0 is generated as if marked batch, diff: it is "
               "static, recursive and called by %1, marked diff")
            << H.FD << FD;
      unsigned Before = numErrors();
      size_t Slot = All.size();
      Code +=
          generate(const_cast<FunctionDecl *>(H.FD), true, true, false, false);
      if (All.size() > Slot)
        All[Slot].Prototypes.clear();
      if (numErrors() != Before)
        report(S->getDiagnostics(), DiagnosticsEngine::Note,
               H.Call->getBeginLoc(),
               "batchdiff generates %0 as if marked batch, diff because %1, "
               "marked diff, calls it recursively here")
            << H.FD << FD;
    }
    return Code;
  }

  /// Injects \p Code after \p At now, or holds it (after any code held
  /// already) while a header opened after \p At is being parsed.
  void inject(const Decl *At, const std::string &Code,
              const std::string &Name) {
    if (!HeldAt && !headerOpenedAfter(*S, At)) {
      if (!injectAfterDefinition(*S, At, Code, Name))
        Waiting.clear();
      ++Injected;
      return;
    }
    if (!HeldAt) {
      HeldAt = At;
      HeldName = Name;
    }
    Held += Code;
  }

  /// A body of a C library function's name defined after an annotated
  /// function whose generated code calls the library's version: the scalar
  /// function calls this body, so the two would disagree.
  void diagnoseLateLibraryBody(const FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() ||
        S->getSourceManager().isInSystemHeader(FD->getLocation()))
      return;
    const FunctionDecl *Canon = FD->getCanonicalDecl();
    for (const Generated &G : All)
      for (const LibraryCall &C : G.LibraryCalls) {
        if (C.Callee != Canon)
          continue;
        report(S->getDiagnostics(), DiagnosticsEngine::Error, FD->getLocation(),
               "%0 is defined after a batch/diff function that calls it, "
               "whose generated code already uses the C library's %0 there "
               "(the name of a C library function means the library's "
               "function unless its body or a declaration of its own comes "
               "first); define or declare %0 before the functions that call "
               "it, or give it a name of its own")
            << FD;
        report(S->getDiagnostics(), DiagnosticsEngine::Note, C.At,
               "the C library's %0 is called here")
            << FD;
        return;
      }
  }

  /// A definition after a batch/diff function that keeps a static global
  /// per example as expression scratch (ScratchGlobals.cpp), using it some
  /// other way: it could see what the scalar loop would have left there.
  void diagnoseLateScratchUse(const Decl *D) {
    for (const Generated &G : All)
      for (const VarDecl *V : G.ScratchGlobals)
        if (const Expr *E = nonScratchUse(V, D)) {
          report(S->getDiagnostics(), DiagnosticsEngine::Error,
                 E->getBeginLoc(),
                 "%0 is used here other than as scratch within one "
                 "expression, after a batch/diff function that keeps it per "
                 "example as such (the batch leaves it as it was, where the "
                 "scalar loop would leave the last example's value); assign "
                 "it in the expression that reads it, as nrutil.h's macros "
                 "do, or use a variable of its own here")
              << V;
          report(S->getDiagnostics(), DiagnosticsEngine::Note, V->getLocation(),
                 "%0 is declared here")
              << V;
          return;
        }
  }

  /// The definitions of waiting functions that \p FD's body completes.
  std::string resolveWaiting(FunctionDecl *FD) {
    std::string Code;
    const FunctionDecl *Canon = FD->getCanonicalDecl();
    std::vector<Pending> Still;
    for (Pending &P : Waiting) {
      if (P.Missing.Callee != Canon) {
        Still.push_back(P);
        continue;
      }
      Generated &Out = All[P.Slot];
      P.Missing = MissingBody();
      if (generateForFunction(P.FD, *S, S->getDiagnostics(), Opts, P.WantBatch,
                              P.WantGrad, P.WantJvp, P.WantHvp, Out, &P.Missing,
                              &Reported))
        Code += Out.Code;
      else if (P.Missing.Callee)
        Still.push_back(P);
    }
    Waiting = std::move(Still);
    return Code;
  }

  /// The definitions of the functions still waiting when the file ends:
  /// generated again with no waiting, so that a call of a function declared
  /// in a header with a floating result becomes a call per example
  /// (docs/calls.md, "Calls of outside functions"); a function this file
  /// declares and never defines is an error at its call.
  std::string finishWaiting() {
    std::string Code;
    unsigned Before = numErrors();
    for (Pending &P : Waiting) {
      Generated &Out = All[P.Slot];
      if (generateForFunction(P.FD, *S, S->getDiagnostics(), Opts, P.WantBatch,
                              P.WantGrad, P.WantJvp, P.WantHvp, Out, nullptr,
                              &Reported))
        Code += Out.Code;
    }
    Waiting.clear();
    OwnErrors += numErrors() - Before;
    return Code;
  }

  std::string generate(FunctionDecl *FD, bool WantBatch, bool WantGrad,
                       bool WantJvp, bool WantHvp) {
    // The generated code and the runtime headers are C99 (inline, for-loop
    // declarations); in C89 they would fail with errors inside our headers.
    // C++ would parse them with different rules.
    const LangOptions &LO = S->getLangOpts();
    if (!LO.C99 || LO.CPlusPlus) {
      report(S->getDiagnostics(), DiagnosticsEngine::Error, FD->getLocation(),
             "batchdiff generates C99: compile %0 as C99 or later "
             "(-std=c99, gnu99, c11, ...), not as %1")
          << FD << (LO.CPlusPlus ? "C++" : "C89/C90");
      return "";
    }
    Generated Out;
    Pending P{FD,      WantBatch,     WantGrad,  WantJvp,
              WantHvp, MissingBody(), All.size()};
    bool Done = generateForFunction(FD, *S, S->getDiagnostics(), Opts,
                                    WantBatch, WantGrad, WantJvp, WantHvp, Out,
                                    &P.Missing, &Reported);
    // (Once: the first generated code includes the runtime headers.)
    if ((Done || Out.Deferred) && !LibChecked) {
      LibChecked = true;
      if (libraryConflicts())
        return "";
    }
    if (Done) {
      All.push_back(Out);
      return Out.Code;
    }
    if (!Out.Deferred)
      return "";
    All.push_back(Out);
    Waiting.push_back(P);
    return Out.Code;
  }

  /// A declaration of a function of <math.h> or <string.h> with another
  /// type than the header's (`float sinf(float, float);`, which clang only
  /// warns about): the runtime headers the first generated code includes
  /// declare it again, and the conflict was an error inside them (robust
  /// fuzzer seed 14488). Later declarations conflict in the file itself.
  bool libraryConflicts() {
    ASTContext &Ctx = S->getASTContext();
    bool Bad = false;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      auto *FD = dyn_cast<FunctionDecl>(D);
      unsigned ID =
          FD && FD->getIdentifier() ? FD->getIdentifier()->getBuiltinID() : 0;
      if (!ID || !Ctx.BuiltinInfo.isPredefinedLibFunction(ID) ||
          Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
        continue;
      const char *H = Ctx.BuiltinInfo.getHeaderName(ID);
      if (!H ||
          (llvm::StringRef(H) != "math.h" && llvm::StringRef(H) != "string.h"))
        continue;
      ASTContext::GetBuiltinTypeError Err;
      QualType BT = Ctx.GetBuiltinType(ID, Err);
      if (Err != ASTContext::GE_None || BT.isNull() ||
          Ctx.typesAreCompatible(FD->getType(), BT))
        continue;
      report(S->getDiagnostics(), DiagnosticsEngine::Error, FD->getLocation(),
             "%0 is declared here as %1, but <%2>, which the generated code "
             "includes, declares it as %3: declare it as <%2> does, or give "
             "this function another name")
          << FD << FD->getType() << H << BT;
      Bad = true;
    }
    return Bad;
  }

  unsigned numErrors() const {
    const DiagnosticConsumer *C = S->getDiagnostics().getClient();
    return C ? C->getNumErrors() : 0;
  }
  /// Errors that batchdiff did not report (or too many errors in all).
  bool clangErrors() const {
    return S->getDiagnostics().hasFatalErrorOccurred() ||
           numErrors() > OwnErrors;
  }

  Options Opts;
  Sema *S = nullptr;
  bool LibChecked = false;    // libraryConflicts() ran
  unsigned OwnErrors = 0;     // reported while generating
  ReportedErrors Reported;    // once each, though helpers are inlined often
  std::vector<Generated> All; // in definition order, for emit= / header=
  std::vector<Pending> Waiting;
  /// Helpers generated without a mark (generateRecursiveHelpers).
  llvm::DenseSet<const FunctionDecl *> Implicit;
  bool AtEnd = false; // handling the translation unit's last declaration
  // Generated code waiting for the parser to leave a header (inject()).
  const Decl *HeldAt = nullptr;
  std::string Held, HeldName;
  unsigned Injected = 0; // generated code entered so far
  LazyRuntime Lazy;
};

/// Directory of batchdiff.so itself, found through a function of ours.
std::string pluginDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&pluginDirectory), &Info) ||
      !Info.dli_fname)
    return "";
  llvm::SmallString<256> Path(Info.dli_fname);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_filename(Path);
  return Path.str().str();
}

/// Directories that hold <batchdiff.h> and <batchdiff/batchdiff_rt.h>: the
/// installed prefix/include next to prefix/lib/batchdiff/batchdiff.so, else
/// (running from the build tree) the source tree's own directories.
std::vector<std::string> headerDirectories() {
  llvm::SmallString<256> Installed(pluginDirectory());
  llvm::sys::path::append(Installed, "..", "..", "include");
  llvm::sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Probe(Installed);
  llvm::sys::path::append(Probe, "batchdiff.h");
  if (llvm::sys::fs::exists(Probe))
    return {Installed.str().str()};
#ifdef BATCHDIFF_SOURCE_DIR
  return {BATCHDIFF_SOURCE_DIR "/annotations",
          BATCHDIFF_SOURCE_DIR "/runtime/include"};
#else
  return {};
#endif
}

class BatchDiffAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    reportTargetWarningsOnce(CI);
    Preprocessor &PP = CI.getPreprocessor();
    // annotations/batchdiff.h expands its macros only when this is set.
    PP.setPredefines(PP.getPredefines() + "#define __BATCHDIFF__ 1\n");
    // Last in the search list, as system directories: user -I paths win
    // and warnings in our headers stay quiet.
    HeaderSearch &HS = PP.getHeaderSearchInfo();
    for (const std::string &Dir : headerDirectories())
      if (auto Ref = CI.getFileManager().getOptionalDirectoryRef(Dir))
        HS.AddSystemSearchPath(DirectoryLookup(*Ref, SrcMgr::C_System,
                                               /*isFramework=*/false));
    // The action dies after this call; the consumer keeps its own copy.
    return std::make_unique<BatchDiffConsumer>(Opts, CI);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    bool OK = true;
    for (const std::string &A : Args) {
      StringRef Arg(A);
      if (Arg.consume_front("emit=") && !Arg.empty())
        Opts.EmitDir = Arg.str();
      else if (Arg.consume_front("header=") && !Arg.empty())
        Opts.HeaderFile = Arg.str();
      else if (A == "remarks")
        Opts.Remarks = true;
      else if (A == "chains=1" || A == "chains=2" || A == "chains=4")
        Opts.Chains = (unsigned)(A.back() - '0');
      else if (A == "sort-by-length=0" || A == "sort-by-length=1")
        Opts.SortByLength = A.back() == '1';
      else if (A == "dense-records=0" || A == "dense-records=1")
        Opts.DenseRecords = A.back() == '1';
      else if (A == "dense-arrays=0" || A == "dense-arrays=1")
        Opts.DenseArrays = A.back() == '1';
      else if (A == "ragged-blocks=0" || A == "ragged-blocks=1")
        Opts.RaggedBlocks = A.back() == '1';
      else if (A == "math=outline" || A == "math=inline")
        Opts.MathOutline = A == "math=outline";
      else if (A == "defer-math=0" || A == "defer-math=1")
        Opts.DeferMath = A.back() == '1';
      else {
        report(CI.getDiagnostics(), DiagnosticsEngine::Error, SourceLocation(),
               "unknown batchdiff option '%0' (expected emit=DIR, "
               "header=FILE, remarks, chains=1/2/4, sort-by-length=0/1, "
               "dense-records=0/1, dense-arrays=0/1, ragged-blocks=0/1, "
               "math=outline/inline or "
               "defer-math=0/1)")
            << A;
        OK = false;
      }
    }
    return OK;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  Options Opts;
};

} // namespace
} // namespace batchdiff

static FrontendPluginRegistry::Add<batchdiff::BatchDiffAction>
    X("batchdiff", "batch and differentiate annotated C functions");
