//===- Frame.h - which local arrays live on the stack ----------*- C++ -*-===//
//
// A varying local array is an array of vectors (W times the scalar one) and
// the adjoint adds its shadow: left on the stack, four double[65536] need
// tens of MB and overflow any thread's stack. Arrays past a fixed budget
// live in the runtime's arena instead (per thread, reused: no allocation in
// steady state), taken once per chunk call. docs/abi.md ("Stack frames").
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_FRAME_H
#define BATCHDIFF_EMIT_FRAME_H

#include "ir/IR.h"

#include <string>
#include <vector>

namespace batchdiff {

/// Bytes of local arrays a generated function keeps on its stack, at most.
/// Every vector counts as the widest one (64 bytes, AVX-512) whatever the
/// target, so the bound holds for every ISA the same text is compiled for.
constexpr unsigned long StackArrayBudget = 16384;

/// The local arrays of the batched function \p F (variable indices, in
/// declaration order) that live in the arena: arrays are kept on the stack
/// in declaration order while their total stays within StackArrayBudget.
/// Arrays the body never touches are neither.
std::vector<int> arenaArrays(const ir::Function &F);

/// The local variable-length arrays of \p F the body uses (Var::CountVar):
/// their memory comes from the arena as the declarations need it
/// (bd_vla_reserve), for every size, never from the stack.
std::vector<int> vlaArrays(const ir::Function &F);

/// An array of a long kernel's kept temps (values one block computes for
/// blocks after it, KernelEmitter::keepTemps): the chunk function takes it
/// from the arena, once per chunk call, and passes it to the kernel.
struct KeepArray {
  std::string Name, CType;
  unsigned Len = 0;
};

} // namespace batchdiff

#endif
