//===- RecordLanes.h - struct parameters' members across lanes -*- C++ -*-===//
//
// A struct parameter passed by value is one record per example, as the
// user stores them (docs/abi.md, "Structs"); the kernel gets one vector per
// scalar member. The wrapper reads member m of the chunk's records into a
// lane buffer (`buf[j] = a[idx(j)].m`, C computes the addresses) and
// accumulates shadows the same way: only the records of the chunk's
// examples are touched, so masked lanes touch nothing past the batch.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_RECORDLANES_H
#define BATCHDIFF_EMIT_RECORDLANES_H

#include "emit/CText.h"
#include "ir/IR.h"

#include <string>

namespace batchdiff {

/// Declares \p Dst and reads member \p Member of record \p Idx (a C
/// expression of __bd_j, the lane; in bounds for every lane) of \p Base
/// into it; where \p Default is given, \p Base may be NULL and then \p Dst
/// is \p Default. \p Buf numbers the lane buffers.
std::string gatherMember(const ctext::Shape &Sh, int &Buf,
                         const std::string &Base, const std::string &Idx,
                         const std::string &Member, ir::Type T,
                         const std::string &Dst,
                         const std::string &Default = "");

/// Adds the first \p Count lanes of \p Val to member \p Member of records
/// \p Idx of \p Base (the caller tests \p Base for NULL); a statement.
std::string scatterAddMember(const ctext::Shape &Sh, int &Buf,
                             const std::string &Base, const std::string &Idx,
                             const std::string &Count,
                             const std::string &Member, ir::Type T,
                             const std::string &Val);

/// Stores the first \p Count lanes of \p Val into member \p Member (of C
/// type \p CType) of records \p Idx of \p Base; a statement.
std::string scatterMember(const ctext::Shape &Sh, int &Buf,
                          const std::string &Base, const std::string &Idx,
                          const std::string &Count, const std::string &Member,
                          ir::Type T, const std::string &CType,
                          const std::string &Val);

} // namespace batchdiff

#endif
