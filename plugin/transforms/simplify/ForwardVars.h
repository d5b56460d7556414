//===- ForwardVars.h - reuse known values of variables ---------*- C++ -*-===//
//
// Every read of a C variable lowers to a GetVar. Where the variable's value
// is already a temp (an earlier read or the value just stored, with no store
// in between), the read is dropped and its uses take that temp. Fewer temps
// mean less code, and in loops fewer values on the gradient's tape. A bit
// cast of a bit cast back to the first one's type (a union's double written
// and read back) is that value too: no derivative is lost in the bits. A
// float x rebuilt from its own bits with the sign bit cleared (musl's fabs,
// `u.i &= -1ULL/2`), or cleared and another float's sign bit or'ed in
// (musl's copysign), is `-x` where those bits differ from x's, else `x`:
// the same bits, with a derivative of -1 or 1 by the sign bit.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_FORWARDVARS_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_FORWARDVARS_H

#include "ir/IR.h"

namespace batchdiff {

void forwardVars(ir::Function &F);

} // namespace batchdiff

#endif
