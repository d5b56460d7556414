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

#include <functional>
#include <string>
#include <vector>

namespace batchdiff {

/// Declares \p Dst and reads member \p Member of record \p Idx (a C
/// expression of __bd_j, the lane; in bounds for every lane) of \p Base
/// into it; where \p Default is given, \p Base may be NULL and then \p Dst
/// is \p Default. \p Buf numbers the lane buffers.
std::string gatherMember(const ctext::Shape &Sh, int &Buf,
                         const std::string &Base, const std::string &Idx,
                         const std::string &Member, ir::Type T,
                         const std::string &Dst,
                         const std::string &Default = "", bool Declare = true);

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

/// Records whose members are 2..16 scalars of one type with no padding
/// (ir::Param::Dense): a full group of W records is transposed in
/// registers (batchdiff/aos.h: bd_aos_load/store up to AosMaxMembers
/// members, bd_rows_load/store above); the batch's last, partial group goes
/// record by record as above, so nothing past the last record is touched.
constexpr size_t AosMaxMembers = 8;
struct DenseRecords {
  std::string Base;  ///< the records (a C pointer to the record type)
  std::string First; ///< the group's first record index
  std::string Full;  ///< nonzero when all W records are the batch's
};

/// The members of parameter \p I's record, in order, when that record
/// is dense; else empty.
std::vector<size_t> denseMembersOf(const ir::Function &F, size_t I);
/// The tangent parameters read with tangent parameter \p I (of a member
/// of a dense record), one per member in order; else empty.
std::vector<size_t> denseTangentsOf(const ir::Function &F, size_t I);
/// The seed parameters of a dense struct return value (every member).
std::vector<size_t> denseSeedsOf(const ir::Function &F);
/// How many outputs of kind \p K are members of the struct return value.
int retMembers(const ir::Function &F, ir::OutKind K);

/// Declares \p Dst (one per member, in declaration order) and reads the
/// group's members into them; \p Default where \p Base may be NULL.
std::string denseIn(const ctext::Shape &Sh, int &Buf, const DenseRecords &D,
                    const std::string &Idx,
                    const std::vector<std::string> &Members, ir::Type T,
                    const std::vector<std::string> &Dst,
                    const std::string &Default = "");

/// Stores (or with \p Add, adds to the records' values) the first
/// \p Count lanes of \p Val, one per member; with \p Add an empty value
/// leaves its member as it was. A statement (the caller tests for NULL).
std::string denseOut(const ctext::Shape &Sh, int &Buf, const DenseRecords &D,
                     const std::string &Idx, const std::string &Count,
                     const std::vector<std::string> &Members, ir::Type T,
                     const std::string &CType,
                     const std::vector<std::string> &Val, bool Add);

/// The wrapper's locals for each member m of an array of records, an
/// array parameter of its own: its base &p->m and stride in elements of m
/// (strided records), or for BD_PACKED/BD_POINTERS records a flag that the
/// records (shadow, tangent) were given. \p Ptr and \p PtrStride name a
/// parameter's shadow array K (Stmt::Shadow) and its stride.
std::string
memberArrays(const ir::Function &F, int NumShadows,
             const std::function<std::string(int, size_t)> &Ptr,
             const std::function<std::string(int, size_t)> &PtrStride);

} // namespace batchdiff

#endif
