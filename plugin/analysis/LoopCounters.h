//===- LoopCounters.h - loop variables the same on every running lane -*- C++
//-*-===//
//
// A per-lane loop's counter (`for (int i = 0; i < 100; i++)` with a varying
// `break`) is written under the loop's mask, which would make it varying:
// a half-width int vector in shape d, narrowed and widened on every trip.
// But every lane still in the loop has run the same trips, so on those lanes
// it holds the same value; lanes that left never read it again. The writes
// found here may be executed for all lanes as uniform writes.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_ANALYSIS_LOOPCOUNTERS_H
#define BATCHDIFF_ANALYSIS_LOOPCOUNTERS_H

#include "ir/IR.h"

#include <set>

namespace batchdiff {

/// SetVar statements that need no lane mask: for a variable V and a loop L,
/// the writes of V inside L and the ones that set it before L, when
///  - every read of V is inside L, and a write of V outside L precedes L in
///    an enclosing block with no loop between them (V is set again before
///    each entry, so its value at L's end is dead; such writes run for every
///    lane that reaches L);
///  - every write of V inside L is at the top of L's body or under ifs whose
///    conditions are conjuncts of L's repeat condition (e.g. "not broken"):
///    it runs on every lane that stays for the next trip;
///  - every read of V inside L sees the same value on every lane whose
///    result matters: it is under all those ifs, or before the first
///    write in the trip, or only feeds L's repeat condition (a lane that
///    skipped a write leaves the loop at the end of this trip).
/// Whether V then is uniform is still up to its values (a varying
/// increment makes it varying as before).
std::set<const ir::Stmt *> findLoopCounters(const ir::Function &F);

} // namespace batchdiff

#endif
