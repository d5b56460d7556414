//===- DirectCalls.h - inline helpers called through &f -------*- C++ -*-===//
#ifndef BATCHDIFF_DIRECTCALLS_H
#define BATCHDIFF_DIRECTCALLS_H

namespace clang {
class Decl;
} // namespace clang

namespace batchdiff {

/// In \p D, a declaration of the generated code, every call of an
/// always_inline function (the runtime's helpers, the kernels) that passes
/// or returns a vector wider than 128 bits calls it through its address,
/// `(&f)(x)` for `f(x)`. Clang's CodeGen checks each direct call with such
/// a vector against the caller's and callee's target features, copying the
/// target's feature map twice per call (X86_64TargetCodeGenInfo::
/// checkFunctionCallABI): 4% of a compile of 20 generated functions at
/// -march=native. A call through `&f` is still the same direct call in the
/// IR, and the always-inliner removes it as before: the object code is the
/// same. Nothing is done when a sanitizer is on (-fsanitize=function and
/// CFI instrument calls that are not direct in the AST) or when the callee
/// has a target attribute (clang's check of that stays).
void callInlineHelpersByAddress(clang::Decl *D);

} // namespace batchdiff

#endif
