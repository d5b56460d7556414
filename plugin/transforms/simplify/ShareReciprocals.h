//===- ShareReciprocals.h - one reciprocal per divisor -*- C++ -*-===//
//
// Forward mode divides a quotient's tangent by the quotient's divisor
// ((da - db q) / b, transforms/ad/Derivatives.def), and reverse mode its
// adjoint (g / b): a normalisation (a_i / th) or a perspective division
// (x / z, y / z) divides several values and derivatives by one divisor. On
// Intel's AVX-512 cores a 512-bit division issues once per 16 cycles, and
// reproj was bound by its divider. This pass gives the divisions by one
// divisor in a block and the ifs in it (reverse mode puts each adjoint's
// work under its own need-flag test) one reciprocal (Op::Recip), placed
// before the block's first statement that divides by it:
// - a derivative's division (Div with IVal \p Mark: 1 for forward mode's
//   tangents, marked by Forward.cpp, 2 for reverse mode's adjoints, by
//   Reverse.cpp) becomes a product by it (Op::DivR): about an ULP from the
//   quotient instead of half of one (docs/abi.md); lanes where the
//   reciprocal is not a normal number divide as before;
// - a varying quotient of the primal's values (IVal 0; \p Mark 0 for
//   NAME_batched, whose IR has no other) becomes Op::DivX: the same bits as
//   the division (runtime simd.h's bd_divx, Markstein's correction by the
//   exact residual; lanes out of its range divide), 1 / b the reciprocal
//   itself; only where a derivative divides by the same divisor or in a
//   loop (loop-free NAME_batched kernels keep their divisions: measured
//   slower, see share()).
// Identical DivR and Recip statements on one path are then one (reverse
// mode's two rules of a / b divide the same adjoint g by b: LLVM merged the
// two divisions but keeps each DivR's rare-lane branch). A division in a
// loop by a divisor computed before the loop (a temp, or a
// variable the loop does not write) gets the reciprocal before the loop. A
// varying divisor of one quotient outside loops keeps its division (the
// reciprocal would cost as much; a uniform one's is a scalar division).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_SIMPLIFY_SHARERECIPROCALS_H
#define BATCHDIFF_TRANSFORMS_SIMPLIFY_SHARERECIPROCALS_H

#include "ir/IR.h"

namespace batchdiff {

void shareReciprocals(ir::Function &F, int Mark);

} // namespace batchdiff

#endif
