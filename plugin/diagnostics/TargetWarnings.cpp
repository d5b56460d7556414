//===- TargetWarnings.cpp - clang's target warnings, once -----------------===//
#include "diagnostics/TargetWarnings.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace batchdiff {
namespace {

bool isTargetFeatureWarning(const Diagnostic &Info) {
  return Info.getID() == diag::warn_invalid_feature_combination;
}

/// Collects the texts of target feature warnings (and drops everything).
class Collector : public DiagnosticConsumer {
public:
  llvm::StringSet<> Texts;
  void HandleDiagnostic(DiagnosticsEngine::Level,
                        const Diagnostic &Info) override {
    if (!isTargetFeatureWarning(Info))
      return;
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    Texts.insert(Msg);
  }
};

/// Forwards every diagnostic to the original consumer except repeats of a
/// target feature warning; keeps the original's counts as its own, so the
/// "N warnings generated" line stays right.
class OnceConsumer : public DiagnosticConsumer {
public:
  OnceConsumer(DiagnosticConsumer *Inner,
               std::unique_ptr<DiagnosticConsumer> Owned,
               llvm::StringSet<> Seen)
      : Inner(Inner), Owned(std::move(Owned)), Seen(std::move(Seen)) {
    sync();
  }

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Inner->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Inner->EndSourceFile(); }
  void finish() override {
    Inner->finish();
    sync();
  }
  void clear() override {
    Inner->clear();
    sync();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Inner->IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    if (isTargetFeatureWarning(Info)) {
      llvm::SmallString<128> Msg;
      Info.FormatDiagnostic(Msg);
      if (!Seen.insert(Msg).second)
        return;
    }
    Inner->HandleDiagnostic(Level, Info);
    sync();
  }

private:
  void sync() {
    NumWarnings = Inner->getNumWarnings();
    NumErrors = Inner->getNumErrors();
  }
  DiagnosticConsumer *Inner;
  std::unique_ptr<DiagnosticConsumer> Owned;
  llvm::StringSet<> Seen;
};

} // namespace

void reportTargetWarningsOnce(CompilerInstance &CI) {
  if (!CI.hasTarget())
    return;
  // What clang printed when it created the target: the same computation
  // (TargetInfo::CreateTargetInfo's), into a silent engine.
  Collector C;
  DiagnosticsEngine Quiet(CI.getDiagnostics().getDiagnosticIDs(),
                          &CI.getDiagnosticOpts(), &C,
                          /*ShouldOwnClient=*/false);
  llvm::StringMap<bool> Map;
  const TargetInfo &T = CI.getTarget();
  T.initFeatureMap(Map, Quiet, T.getTargetOpts().CPU,
                   T.getTargetOpts().FeaturesAsWritten);
  DiagnosticsEngine &D = CI.getDiagnostics();
  DiagnosticConsumer *Inner = D.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned;
  if (D.ownsClient())
    Owned = D.takeClient();
  D.setClient(new OnceConsumer(Inner, std::move(Owned), std::move(C.Texts)),
              /*ShouldOwnClient=*/true);
}

} // namespace batchdiff
