//===- Generate.h - per-function generation entry point ---------*- C++ -*-===//
//
// The seam between the clang-facing plugin (attributes, options, injection)
// and the compiler pipeline (lower -> analyses -> ad -> batch -> emit).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_GENERATE_H
#define BATCHDIFF_GENERATE_H

#include "Options.h"

namespace clang {
class DiagnosticsEngine;
class FunctionDecl;
class Sema;
} // namespace clang

namespace batchdiff {

/// Lowers, differentiates, batches and emits \p FD (a definition carrying
/// `batch` and/or `diff`). \p WantBatch / \p WantGrad say which were asked for.
/// Only lowering reads \p FD and \p S; the rest of the pipeline reports
/// remarks through \p Diags. Returns false when it reported an error through
/// clang's diagnostics; then \p Out is empty and nothing must be injected.
bool generateForFunction(clang::FunctionDecl *FD, clang::Sema &S,
                         clang::DiagnosticsEngine &Diags, const Options &Opts,
                         bool WantBatch, bool WantGrad, Generated &Out);

} // namespace batchdiff

#endif
