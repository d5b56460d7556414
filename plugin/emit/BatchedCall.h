//===- BatchedCall.h - calls of other files' batch functions ---*- C++ -*-===//
//
// Op::Extern of a function of another file marked batch/diff (ExternCall::
// Batched, lower/LowerBatchedCall.cpp): the lanes that are on are packed
// into arrays and make one call of its NAME_batched, or of its NAME_grad
// where the partial derivatives are read (Op::ExternOut of an Out with
// Partial >= 0; shadows start at 0 and d_ret is NULL, a seed of 1), whose
// results go back into their lanes. With a BD_UNIFORM parameter (one value
// per call in its ABI) each lane calls alone.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_BATCHEDCALL_H
#define BATCHDIFF_EMIT_BATCHEDCALL_H

#include "ir/IR.h"

#include <functional>
#include <string>

namespace batchdiff {

/// The C text of batched call \p S of \p F, as emit/ExternCall.h's
/// externCall (the same arguments); the partials read after it are those
/// of the Op::ExternOut statements of \p F that read its result.
std::string batchedCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                        const std::function<std::string(int)> &Operand,
                        const std::string &Result, bool Declared,
                        const std::string &Pad, const std::string &Outs);

/// The C name of the symbol that names the ABI of NAME_batched (\p Grad
/// false) or NAME_grad (lower/Lower.h, abiDeclaration).
std::string abiSymbol(const std::string &Name, bool Grad);

} // namespace batchdiff

#endif
