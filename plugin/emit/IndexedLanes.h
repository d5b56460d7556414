//===- IndexedLanes.h - lanes listed per step (BD_PACKED/POINTERS) -*- C++
//-*-===//
//
// With a BD_PACKED or BD_POINTERS parameter any lane may hold any example
// (ctext::indexedLanes): the wrapper lists each step's examples in __bd_e,
// gathers and scatters scalars by that list, and passes every varying
// array's lane offsets to the kernel. Per chunk of BD_CHUNK examples it may
// sort them by length first (bd_sort_by_length).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_INDEXEDLANES_H
#define BATCHDIFF_EMIT_INDEXEDLANES_H

#include "emit/CText.h"
#include "ir/IR.h"

#include <string>

namespace batchdiff {

/// The wrapper's local names of a varying array's lane-0 base ("b") and
/// lane offsets ("o"): \p Q 0 its values, Q >= 1 shadow array Q - 1
/// (ctext::shadowArrayName).
std::string indexedPrefix(int Q);

/// The element index of chain \p Chain's lane __bd_j.
std::string indexedLane(const ctext::Shape &Sh, unsigned Chain);

/// Declares \p Dst and gathers chain \p Chain's lanes from \p Base (indexed
/// by __bd_e) into it; \p Default, if given, is its value where \p Base is
/// NULL. \p Buf numbers the lane buffers.
std::string gatherLanes(const ctext::Shape &Sh, unsigned Chain, int &Buf,
                        const std::string &Base, ir::Type T, bool Native,
                        const std::string &Dst,
                        const std::string &Default = "");

/// Scatters the first __bd_k<\p ChainSfx> lanes of \p Val to \p Base at
/// chain \p Chain's examples; a statement.
std::string scatterLanes(const ctext::Shape &Sh, unsigned Chain,
                         const std::string &ChainSfx, int &Buf,
                         const std::string &Base, ir::Type T, bool Native,
                         const std::string &CType, const std::string &Val);

/// The loop over the examples [__bd_lo, __bd_hi) with indexed lanes: per
/// chunk of BD_CHUNK, __bd_ord lists them (sorted by length, or in order);
/// each step gives its lanes the next IL * W of them in __bd_e, computes
/// the lane offsets, and runs \p Chunk (the kernel call).
std::string indexedLoop(const ir::Function &F, Flavor Fl,
                        const std::string &Chunk);

} // namespace batchdiff

#endif
