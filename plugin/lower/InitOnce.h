//===- InitOnce.h - lazily initialised static tables ------------*- C++ -*-===//
//
// Part of lowering: the init-once idiom of numeric C,
//
//   static double table[64];
//   static int table_ready = 0;
//   ... if (!table_ready) init_table(); ... table[i] ...
//
// an `if` testing a static flag (`!ready`, `ready == 0`) whose block
// depends on no value of the example (constants, globals, its own locals),
// writes only `static` globals and sets the flag to a nonzero constant.
// Such a block is syntax only here: whether an `if` is one, what it writes
// and reads, and the C text of a function running it as the scalar code
// does (docs/subset.md, "Tables filled once").
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_INITONCE_H
#define BATCHDIFF_LOWER_INITONCE_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class IfStmt;
class VarDecl;
} // namespace clang

namespace batchdiff {
namespace lowering {

struct InitOnceBlock {
  /// The flag the `if` tests (canonical).
  const clang::VarDecl *Flag = nullptr;
  /// The globals the block (or a function it calls) writes, the flag
  /// among them, and the others it reads; canonical, in order first named.
  llvm::SmallVector<const clang::VarDecl *, 4> Writes, Reads;
  /// The `if`.
  clang::SourceLocation At;
};

/// A function's static locals that a block run once under one of its own
/// static locals names (the flag among them; canonical), and the names of
/// the generated code's copies of them at file scope: that code runs the
/// block on the copies (docs/globals.md, "Tables filled once").
using StaticCopies = std::map<const clang::VarDecl *, std::string>;

/// The static locals of \p FD that such blocks of \p FD name.
llvm::SmallVector<const clang::VarDecl *, 4>
onceStaticLocals(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

/// Why an `if` of the idiom's shape cannot run once: where, and the
/// error's two halves (Lowerer::error's What and Instead).
struct InitOnceProblem {
  clang::SourceLocation At;
  std::string What, Instead;
};

/// The flag \p IS tests as `!F`, `F == 0` or `0 == F`, without an else,
/// where F is a global (or static local) integer or _Bool scalar that its
/// block, or a function of the file the block calls, assigns; null when
/// \p IS is not of that shape (it is then an ordinary if).
const clang::VarDecl *initOnceFlag(clang::ASTContext &Ctx,
                                   const clang::IfStmt *IS);

/// Checks the block of \p IS, whose flag is \p Flag, and fills \p Out;
/// the first problem found, if any.
std::optional<InitOnceProblem> checkInitOnce(clang::ASTContext &Ctx,
                                             const clang::IfStmt *IS,
                                             const clang::VarDecl *Flag,
                                             const StaticCopies &Copies,
                                             InitOnceBlock &Out);

/// The definition of `static void Name(void)` running \p IS (test and
/// block) as the scalar code does, on \p Copies of static locals.
std::string initOnceFunction(clang::ASTContext &Ctx, const clang::IfStmt *IS,
                             llvm::StringRef Name, const StaticCopies &Copies);
/// The C text of \p IS's test (`!ready`), parenthesized.
std::string initOnceTest(clang::ASTContext &Ctx, const clang::IfStmt *IS,
                         const StaticCopies &Copies);

} // namespace lowering
} // namespace batchdiff

#endif
