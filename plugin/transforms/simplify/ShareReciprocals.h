//===- ShareReciprocals.h - one reciprocal per tangent divisor -*- C++ -*-===//
//
// Forward mode divides a quotient's tangent by the quotient's divisor
// ((da - db q) / b, transforms/ad/Derivatives.def), so a normalisation
// (a_i / th) or a perspective division (x / z, y / z) divides several
// tangents by one divisor. On Intel's AVX-512 cores a 512-bit division
// issues once per 16 cycles, and reproj_jvp was bound by its divider. This
// pass gives the tangents' divisions (Div with IVal 1, marked by
// Forward.cpp) by one divisor in one block one reciprocal (Op::Recip) and
// makes each a product by it (Op::DivR): about an ULP from the quotient
// instead of half of one (docs/semantics.md); lanes where the reciprocal
// would overflow or lose bits divide as before. A divisor used once keeps
// its division (the reciprocal would cost as much), and so does every
// division of the primal's values.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_SHARERECIPROCALS_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_SHARERECIPROCALS_H

#include "ir/IR.h"

namespace batchdiff {

void shareReciprocals(ir::Function &F);

} // namespace batchdiff

#endif
