//===- BatchedCall.h - calls of other files' batch functions ---*- C++ -*-===//
//
// Op::Extern of a function of another file marked batch/diff (ExternCall::
// Batched, lower/LowerBatchedCall.cpp): the lanes that are on are packed
// into arrays and make one call of its NAME_batched, or of its NAME_grad
// where the partial derivatives are read (Op::ExternOut of an Out with
// Partial >= 0; shadows start at 0 and d_ret is NULL, a seed of 1), whose
// results go back into their lanes. With a BD_UNIFORM parameter (one value
// per call in its ABI) each lane calls alone. An array (a pointer to const
// parameter) the same for every lane is passed as it is, with a stride of
// 0; one per example (the caller's array parameter), whole where the
// lanes' arrays are equally spaced, else a call per lane.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_BATCHEDCALL_H
#define BATCHDIFF_EMIT_BATCHEDCALL_H

#include "ir/IR.h"

#include <functional>
#include <map>
#include <string>

namespace batchdiff {

/// Which partials (Outs) of each batched call of \p F are read (by an
/// Op::ExternOut), keyed by the call's result temp: one walk of \p F for
/// all its calls.
std::map<int, std::vector<bool>> readPartials(const ir::Function &F);

/// The C text of batched call \p S of \p F, as emit/ExternCall.h's
/// externCall (the same arguments); \p Read: readPartials(F).
std::string batchedCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                        const std::function<std::string(int)> &Operand,
                        const std::string &Result, bool Declared,
                        const std::string &Pad, const std::string &Outs,
                        const std::string &Chain,
                        const std::map<int, std::vector<bool>> &Read);

/// The C name of the symbol that names the ABI of NAME_batched (\p Grad
/// false) or NAME_grad (lower/Lower.h, abiDeclaration).
std::string abiSymbol(const std::string &Name, bool Grad);
/// Whether batched call \p X reads globals back (Outs with After,
/// lower/GlobalCalls.cpp): then its lanes call one at a time, with the
/// globals synchronized as for a call made once per example, unless the
/// callee's file says its generated functions leave such globals alone.
bool syncsGlobals(const ir::ExternCall &X);
/// A block-scope declaration of promiseName(X), a weak reference to the
/// symbol that says so (batchdiff.uses-no-global:NAME where the function
/// has written a global before the call, else
/// batchdiff.sets-no-global:NAME): not 0 where it is defined. The name
/// follows the symbol (block-scope externs of one name are one entity).
std::string promiseDecl(const ir::ExternCall &X, const std::string &In);
std::string promiseName(const ir::ExternCall &X);
/// The C name of the symbol saying that NAME's generated functions write
/// no global another file can name (batchdiff.sets-no-global:NAME), or with
/// \p Uses neither read nor write one (batchdiff.uses-no-global:NAME).
std::string noGlobalSymbol(const std::string &Name, bool Uses);
/// The C name of batchdiff.inplace:\p Key (Key "NAME:I:J": NAME reads each
/// element of parameter I only before it writes that element through J,
/// and never writes through I; lower/InPlace.h), and its declaration as an
/// array of \p Len pointers, or with 0 extern and weak.
std::string inPlaceIdent(const std::string &Key);
std::string inPlaceDecl(const std::string &Key, size_t Len);
/// The C name of the symbol saying that NAME's generated functions set
/// global \p Global on every path (batchdiff.sets:NAME:GLOBAL).
std::string setsSymbol(const std::string &Name, const std::string &Global);

} // namespace batchdiff

#endif
