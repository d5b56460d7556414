//===- FuseMath.h - log1p(exp(a)) as one math call -------------*- C++ -*-===//
//
// A float log1p whose argument is a float exp that nothing else reads
// becomes one call of __bd_log1pexp(a) (ir/Math.def): the runtime's
// bd_log1pexp_f32n computes log1p(exp(a)) with neither function's range
// reduction (runtime/include/batchdiff/vmath_log1pexp.h), about half the
// time of the pair at 16 lanes and closer to the exact value (docs/abi.md,
// "<math.h> calls"). Its derivative rule is the pair's reverse-mode
// product, so NAME_grad's gradient keeps its bits. Double is left as it
// is (the runtime's double form is the pair).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_FUSEMATH_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_FUSEMATH_H

#include "ir/IR.h"

namespace batchdiff {

void fuseMath(ir::Function &F);

} // namespace batchdiff

#endif
