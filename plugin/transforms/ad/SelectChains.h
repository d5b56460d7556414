//===- SelectChains.h - derivatives of long chains of selects --*- C++ -*-===//
//
// `x = x > 0 ? 0 : x > 1 ? 1 : ... : x` is a chain of selects, each one's
// value used only by the next one's arm. Its derivative by the rules is a
// chain too: in each select, `c ? 0 : g` of the previous one's derivative
// g. LLVM's InstCombine takes time quadratic in the length of such a chain
// of selects with a constant arm (tests/robust/found, seed 4491: 20 s for
// the gradient of 1,000 conditionals; the same in plain vector C). Both AD
// modes build the derivatives of a long chain from its first derivative
// instead: `m ? 0 : g0` where m is the `|` of the conditions passed so far,
// a chain of mask operations InstCombine handles in linear time. The value
// is the same bits: every step either passes g0 on or gives +0.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_TRANSFORMS_AD_SELECTCHAINS_H
#define BATCHDIFF_TRANSFORMS_AD_SELECTCHAINS_H

#include "ir/IR.h"

#include <functional>
#include <unordered_set>
#include <vector>

namespace batchdiff {

/// Selects in chains shorter than this keep the rules' form (clamps and a
/// few nested `?:`: the generated code of realistic functions is as before).
constexpr size_t MinSelectChain = 8;

/// `V` where Keep is true and Kill false, +0 elsewhere (-1: no such mask).
struct ZeroSelect {
  int Keep = -1, Kill = -1, V = -1;
};

struct SelectChains {
  /// The selects of chains of at least MinSelectChain selects.
  std::unordered_set<const ir::Stmt *> Long;
  /// Their temps used only as an arm of the next select of the chain.
  std::unordered_set<int> Linked;
};

/// The long chains of selects of active values in \p Body (temps of types
/// \p Temps, before batching): a select whose only use is an arm of a
/// select of the same block links to it.
SelectChains findSelectChains(const ir::Block &Body,
                              const std::vector<ir::Type> &Temps,
                              const std::function<bool(int)> &Active);

/// Builds `A | C` or `A & C` of masks (ir::Op::Or or ir::Op::And).
using MaskOp = std::function<int(ir::Op, int, int)>;

/// \p Z with +0 where Bool temp \p Cond is true (\p Zero) or false; its
/// masks merged by \p Merge if given (the reverse mode shares them between
/// the arms of a chain), else in \p B.
void zeroWhere(ir::Builder &B, ZeroSelect &Z, int Cond, bool Zero,
               const MaskOp &Merge = nullptr);
/// The value of \p Z: one or two selects.
int selectValue(ir::Builder &B, const ZeroSelect &Z);

} // namespace batchdiff

#endif
