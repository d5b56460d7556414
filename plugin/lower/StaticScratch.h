//===- StaticScratch.h - static locals written before read -----*- C++ -*-===//
//
// Part of lowering: which static locals of a function body are scratch (every
// read, on every path, finds what it reads written by the same call), so
// that no value flows from one call into the next and the static is
// observably an ordinary local.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_STATICSCRATCH_H
#define BATCHDIFF_LOWER_STATICSCRATCH_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
class Stmt;
class VarDecl;
} // namespace clang

namespace batchdiff {
namespace lowering {

struct ScratchStatics {
  /// Written before every read: lowered as ordinary locals.
  llvm::DenseSet<const clang::VarDecl *> Local;
  /// The other non-const static scalars and arrays of scalars: the first
  /// use (in source order of the scan) that may see the value the previous
  /// call left.
  llvm::DenseMap<const clang::VarDecl *, clang::SourceLocation> Stale;
};

/// Scans the static locals declared in \p Body (docs/globals.md, "Static
/// locals") into \p Out.
void scanStatics(clang::ASTContext &Ctx, const clang::Stmt *Body,
                 ScratchStatics &Out);

} // namespace lowering
} // namespace batchdiff

#endif
