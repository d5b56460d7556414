//===- TargetWarnings.h - clang's target warnings, once --------*- C++ -*-===//
//
// Clang reports an invalid target feature combination (say -march=native
// on some AVX-512 hosts) when it creates the target, and again every time
// it computes a function's feature map, which the runtime headers' x86
// builtins make it do several times per file. Through the plugin a file
// printed the same warning six times instead of once.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_DIAGNOSTICS_TARGETWARNINGS_H
#define BATCHDIFF_DIAGNOSTICS_TARGETWARNINGS_H

namespace clang {
class CompilerInstance;
} // namespace clang

namespace batchdiff {

/// Wraps \p CI's diagnostic consumer so that each distinct target feature
/// warning is printed once per compile, counting the one clang printed
/// when it created the target. Everything else passes through unchanged.
void reportTargetWarningsOnce(clang::CompilerInstance &CI);

} // namespace batchdiff

#endif
