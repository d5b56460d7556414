//===- ExternCall.h - per-lane calls of outside functions ------*- C++ -*-===//
//
// Op::Extern in a kernel: a function the batched code cannot inline (an
// error reporter such as cephes' mtherr, NR's nrerror) is called once for
// each lane that is on, in lane order, with that lane's arguments.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_EXTERNCALL_H
#define BATCHDIFF_EMIT_EXTERNCALL_H

#include "ir/IR.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace batchdiff {

/// The C text of Op::Extern \p S of batched \p F (lanes of 64 bits when
/// \p Wide): \p Operand spells a temp as an operand (a vector where it is
/// varying), \p Result the result variable, declared first unless
/// \p Declared; each line starts with \p Pad. What the call leaves in its
/// out-pointer argument k goes into the vector \p Outs followed by k
/// (declared here; Op::ExternOut reads it), holding the arguments' values
/// in lanes that make no call. \p Chain: the suffix of the chain's names
/// (its lane offsets in the varying arrays, `__bd_po<k><Chain>`).
/// \p Reads: emit/BatchedCall.h's readPartials(F), which partials of a call
/// through the callee's NAME_grad (ExternCall::Grad) are read.
std::string externCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                       const std::function<std::string(int)> &Operand,
                       const std::string &Result, bool Declared,
                       const std::string &Pad, const std::string &Outs,
                       const std::string &Chain,
                       const std::map<int, std::vector<bool>> &Reads);

} // namespace batchdiff

#endif
