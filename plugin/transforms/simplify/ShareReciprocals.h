//===- ShareReciprocals.h - one reciprocal per derivative divisor -*- C++ -*-===//
//
// Forward mode divides a quotient's tangent by the quotient's divisor
// ((da - db q) / b, transforms/ad/Derivatives.def), and reverse mode its
// adjoint (g / b): a normalisation (a_i / th) or a perspective division
// (x / z, y / z) divides several derivatives by one divisor. On Intel's
// AVX-512 cores a 512-bit division issues once per 16 cycles, and
// reproj_jvp was bound by its divider. This pass gives the derivatives'
// divisions (Div with IVal \p Mark: 1 for forward mode's tangents, marked
// by Forward.cpp, 2 for reverse mode's adjoints, by Reverse.cpp) by one
// divisor in a block and the ifs in it (reverse mode puts each adjoint's
// work under its own need-flag test) one reciprocal (Op::Recip), placed
// before the block's first statement that divides by it, and makes each a
// product by it (Op::DivR): about an ULP from the quotient instead of half
// of one (docs/abi.md); lanes where the reciprocal is not a normal number
// divide as before. A loop body is a block of its own. A varying divisor
// of one quotient keeps its division (the reciprocal would cost as much; a
// uniform one's is a scalar division), and every division of the primal's
// values stays.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_SHARERECIPROCALS_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_SHARERECIPROCALS_H

#include "ir/IR.h"

namespace batchdiff {

void shareReciprocals(ir::Function &F, int Mark);

} // namespace batchdiff

#endif
