//===- Generate.h - per-function generation entry point ---------*- C++ -*-===//
//
// The seam between the clang-facing plugin (attributes, options, injection)
// and the compiler pipeline (lower -> analyses -> ad -> batch -> emit).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_GENERATE_H
#define BATCHDIFF_GENERATE_H

#include <string>

namespace clang {
class FunctionDecl;
class Sema;
} // namespace clang

namespace batchdiff {

struct Options {
  std::string EmitDir;    // -fplugin-arg-batchdiff-emit=DIR
  std::string HeaderFile; // -fplugin-arg-batchdiff-header=FILE
  bool Remarks = false;   // -fplugin-arg-batchdiff-remarks
};

struct Generated {
  std::string Code;       // C text injected right after the definition
  std::string Prototypes; // prototypes of the generated functions
};

/// Lowers, differentiates, batches and emits \p FD (a definition carrying
/// `batch` and/or `diff`). \p WantBatch / \p WantGrad say which were asked for.
/// Returns false when it reported an error through clang's diagnostics; then
/// \p Out is empty and nothing must be injected.
bool generateForFunction(clang::FunctionDecl *FD, clang::Sema &S,
                         const Options &Opts, bool WantBatch, bool WantGrad,
                         Generated &Out);

} // namespace batchdiff

#endif
