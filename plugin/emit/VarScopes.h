//===- VarScopes.h - variables declared inside a top-level if --*- C++ -*-===//
//
// A gradient's adjoint variables are zeroed where the reverse sweep starts
// and then used only inside its `if (need_x || ...)` guard. Declared up
// front, each one is stored in the entry block and loaded and stored in the
// guard's block, and LLVM's mem2reg (run by SROA) scans that block from its
// start for each such variable to tell whether its first access is a load:
// quadratic in a long kernel (issue 8: 95% of the compile time of a
// 1000-statement function). Declared at the start of the guard's block,
// every access of the variable is in that block and mem2reg promotes it in
// one sweep.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_VARSCOPES_H
#define BATCHDIFF_EMIT_VARSCOPES_H

#include "ir/IR.h"

#include <unordered_set>
#include <vector>

namespace batchdiff {

struct VarScope {
  /// The block that declares the variable; nullptr: the top of the kernel.
  const ir::Block *In = nullptr;
  /// The top-level If whose then block is In, when In is one.
  const ir::Stmt *If = nullptr;
  /// Its value where that block starts: the temp the last top-level write
  /// before the if stored, or -1 for zero.
  int Init = -1;
  /// Some statement reads it (else it is declared unused).
  bool Read = false;
};

/// Per scalar variable of the batched function \p F: where to declare it.
/// A variable moves into a top-level if's then block when every access is
/// either in that block or an unmasked write before the if in the top-level
/// block (so no read sees those writes but through the value the block
/// starts with); its top-level writes are then not printed. Better, it
/// moves into the innermost then or else block that no loop encloses and
/// that holds all its accesses but unmasked writes of one constant (the
/// zeroing of an adjoint where the reverse sweep starts): that block runs
/// at most once per call and starts with the variable's initial zero, or
/// with the constant when one of those writes comes before the block in a
/// block around it; the writes outside are not printed.
/// \p Dropped gets the writes outside the block that declares a variable,
/// which are not printed.
std::vector<VarScope> varScopes(const ir::Function &F,
                                std::unordered_set<const ir::Stmt *> &Dropped);

} // namespace batchdiff

#endif
