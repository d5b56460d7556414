//===- ArrayParams.h - pointer and array parameters ------------*- C++ -*-===//
//
// Part of lowering: declares a pointer or array parameter as an IR array
// parameter and infers its extent (CONTRACT.md section 3): static from
// `T v[N]` / `T v[static N]` or from constant-only indexing, dynamic from a
// VLA parameter `T x[n]` or from indexing by a loop variable bounded by an
// integer parameter.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_ARRAYPARAMS_H
#define BATCHDIFF_LOWER_ARRAYPARAMS_H

#include "ir/IR.h"

namespace clang {
class ASTContext;
class Expr;
class DiagnosticsEngine;
class FunctionDecl;
} // namespace clang

namespace batchdiff {

/// Fills \p Out for parameter \p I of \p FD. Returns false after reporting
/// an error (unsupported element type, extent not inferable, uniform output).
/// A parameter without a declared extent that the body uses as a pointer
/// (passes on, walks, takes the address of an element) gets no extent
/// here: \p Whole is set to that use, and the lowering finds the extent
/// from the accesses it lowered.
bool lowerArrayParam(const clang::FunctionDecl *FD, unsigned I,
                     clang::ASTContext &Ctx, clang::DiagnosticsEngine &D,
                     ir::Param &Out, const clang::Expr **Whole);

/// The extent, in records, of parameter \p I, a pointer to (or array of)
/// structs, as lowerArrayParam infers it for scalar elements.
bool recordArrayExtent(const clang::FunctionDecl *FD, unsigned I,
                       clang::ASTContext &Ctx, clang::DiagnosticsEngine &D,
                       ir::Param &Out, const clang::Expr **Whole);

} // namespace batchdiff

#endif
