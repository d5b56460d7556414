//===- LazyRuntime.cpp - runtime bodies parsed only where used ------------===//
//
// Clang's parser skips a function body when the frontend option
// SkipFunctionBodies is set and every consumer's shouldSkipFunctionBody
// agrees (CodeGen's always does). The plugin's says yes for the static
// functions of the runtime headers only, and records every token the
// preprocessor hands out (its token watcher), so that a skipped definition's
// tokens, already macro-expanded, can be entered again. At the file's end
// the definitions of the skipped functions the file references (calls in
// the generated code and in the user's code alike) are the next tokens the
// parser reads: a declaration followed by its definition, which C allows
// for a static function, and CodeGen emits a static function used before
// its definition as usual. The definitions parsed again reference other
// runtime functions, whose turn comes at the end again, until none is
// missing. Each keeps the floating-point state of its header (vmath_fast.h
// compiles its math under `float_control(precise, on)` and `fp contract
// (off)`): Sema's state is set before each definition and restored after.
//
//===----------------------------------------------------------------------===//

#include "inject/LazyRuntime.h"
#include "diagnostics/Diagnostics.h"
#include "inject/Inject.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace batchdiff {

void LazyRuntime::begin(CompilerInstance &CI) {
  // C only: C++ files may include the runtime but are not generated for.
  // Only where the parse ends in code or nothing: a precompiled header or
  // module keeps the declarations it has at its end, bodies or not.
  FrontendOptions &FO = CI.getFrontendOpts();
  switch (FO.ProgramAction) {
  case frontend::EmitAssembly:
  case frontend::EmitBC:
  case frontend::EmitLLVM:
  case frontend::EmitLLVMOnly:
  case frontend::EmitCodeGenOnly:
  case frontend::EmitObj:
  case frontend::ParseSyntaxOnly:
    break;
  default:
    return;
  }
  if (CI.getLangOpts().CPlusPlus || FO.SkipFunctionBodies)
    return;
  FO.SkipFunctionBodies = true;
  PP = &CI.getPreprocessor();
  PP->setTokenWatcher([this](const Token &T) { Recent.push_back(T); });
  Enabled = true;
}

void LazyRuntime::end() {
  if (PP)
    PP->setTokenWatcher(nullptr);
  PP = nullptr;
  Enabled = false;
}

/// A function of the runtime headers (<batchdiff/...h>, system headers).
static bool runtimeFunction(const FunctionDecl *FD) {
  if (FD->getStorageClass() != SC_Static || !FD->getIdentifier() ||
      !FD->getName().starts_with("bd_") || FD->hasAttr<UsedAttr>() ||
      FD->hasAttr<ConstructorAttr>() || FD->hasAttr<DestructorAttr>())
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  SourceLocation L = SM.getExpansionLoc(FD->getLocation());
  if (!SM.isInSystemHeader(L))
    return false;
  llvm::StringRef Dir = llvm::sys::path::parent_path(SM.getFilename(L));
  return llvm::sys::path::filename(Dir) == "batchdiff";
}

bool LazyRuntime::shouldSkip(Decl *D) {
  auto *FD = dyn_cast_or_null<FunctionDecl>(D);
  if (!Enabled || !Sema || !FD || !runtimeFunction(FD))
    return false;
  // The parser is at the body's `{`, the last token handed out; the
  // definition starts at FD's first token, since the last declaration.
  if (Recent.empty() || Recent.back().isNot(tok::l_brace))
    return false;
  SourceLocation B = FD->getBeginLoc();
  unsigned Brace = Recent.size() - 1, Begin = Brace;
  while (Begin > 0 && Recent[Begin].getLocation() != B)
    --Begin;
  if (Recent[Begin].getLocation() != B)
    return false;
  All.push_back(
      {FD, {}, Sema->CurFPFeatures, Sema->FpPragmaStack.CurrentValue});
  Pending.push_back({(unsigned)All.size() - 1, Begin, Brace});
  return true;
}

void LazyRuntime::setFP(const FPState &St) {
  Sema->CurFPFeatures = St.FP;
  Sema->FpPragmaStack.CurrentValue = St.Override;
}

void LazyRuntime::declHandled(DeclGroupRef DG) {
  if (!Enabled)
    return;
  // A skipped definition is complete: its tokens up to the matching `}`.
  for (const Open &O : Pending) {
    unsigned Depth = 0;
    for (unsigned J = O.Brace; J < Recent.size(); ++J) {
      if (Recent[J].is(tok::l_brace))
        ++Depth;
      else if (Recent[J].is(tok::r_brace) && --Depth == 0) {
        All[O.Slot].Toks.assign(Recent.begin() + O.Begin,
                                Recent.begin() + J + 1);
        break;
      }
    }
  }
  Pending.clear();
  // A definition parsed again: the next one's state, or the file's.
  if (!Replay.empty() && Sema)
    for (Decl *D : DG) {
      auto *FD = dyn_cast<FunctionDecl>(D);
      if (Replay.empty() || !FD ||
          FD->getCanonicalDecl() != Replay.front().first->getCanonicalDecl())
        continue;
      Replay.pop_front();
      setFP(Replay.empty() ? After : Replay.front().second);
      if (Replay.empty() && AfterOptimizeOff.isValid())
        Sema->ActOnPragmaOptimize(false, AfterOptimizeOff);
    }
  // Keep the lookahead: the first token of the next declaration.
  if (Recent.size() > 1) {
    Token Last = Recent.back();
    Recent.clear();
    Recent.push_back(Last);
  }
}

bool LazyRuntime::injectReferenced() {
  if (!Enabled || !Sema || !Replay.empty())
    return false;
  std::vector<llvm::ArrayRef<Token>> Streams;
  std::deque<std::pair<const Decl *, FPState>> Order;
  for (Skipped &Sk : All) {
    if (Sk.Injected || Sk.Toks.empty() || !Sk.FD->isReferenced())
      continue;
    Streams.push_back(Sk.Toks);
    Order.push_back({Sk.FD, {Sk.FP, Sk.FPOverride}});
  }
  if (Streams.empty())
    return false;
  FPState Now{Sema->CurFPFeatures, Sema->FpPragmaStack.CurrentValue};
  if (!injectTokens(*Sema, Streams))
    return false;
  for (Skipped &Sk : All)
    if (!Sk.Injected && !Sk.Toks.empty() && Sk.FD->isReferenced()) {
      Sk.Injected = true;
      // A declaration now; the definition follows.
      Sk.FD->setHasSkippedBody(false);
    }
  After = Now;
  Replay = std::move(Order);
  setFP(Replay.front().second);
  AfterOptimizeOff = Sema->getOptimizeOffPragmaLocation();
  if (AfterOptimizeOff.isValid())
    Sema->ActOnPragmaOptimize(true, SourceLocation());
  return true;
}

void LazyRuntime::diagnoseMissing() {
  if (!Enabled || !Sema)
    return;
  for (const Skipped &Sk : All)
    if (!Sk.Injected && Sk.FD->isReferenced()) {
      report(Sema->getDiagnostics(), DiagnosticsEngine::Error,
             Sk.FD->getLocation(),
             "batchdiff could not add the body of the runtime's %0, which "
             "this file uses (its parse was skipped)")
          << Sk.FD;
      return;
    }
}

} // namespace batchdiff
