//===- Generate.h - per-function generation entry point ---------*- C++ -*-===//
//
// The seam between the clang-facing plugin (attributes, options, injection)
// and the compiler pipeline (lower -> analyses -> ad -> batch -> emit).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_GENERATE_H
#define BATCHDIFF_GENERATE_H

#include "Options.h"
#include "lower/Lower.h"

namespace clang {
class DiagnosticsEngine;
class FunctionDecl;
class Sema;
} // namespace clang

namespace batchdiff {

/// Lowers, differentiates, batches and emits \p FD (a definition carrying
/// `batch` and/or `diff`). \p WantBatch / \p WantGrad / \p WantJvp /
/// \p WantHvp say which of NAME_batched, NAME_grad, NAME_jvp and NAME_hvp
/// were asked for.
/// Only lowering reads \p FD and \p S; the rest of the pipeline reports
/// remarks through \p Diags. Returns false when it reported an error through
/// clang's diagnostics; then nothing must be injected. With \p Missing, a
/// call to a function whose body is not parsed yet is no error: it returns
/// false with \p Missing naming the callee and, unless \p Out was deferred
/// before, \p Out holding the declarations of the generated functions
/// (Deferred set) to inject now; the caller retries once that body is parsed.
bool generateForFunction(clang::FunctionDecl *FD, clang::Sema &S,
                         clang::DiagnosticsEngine &Diags, const Options &Opts,
                         bool WantBatch, bool WantGrad, bool WantJvp,
                         bool WantHvp, Generated &Out,
                         MissingBody *Missing = nullptr,
                         ReportedErrors *Reported = nullptr);

} // namespace batchdiff

#endif
