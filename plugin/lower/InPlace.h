//===- InPlace.h - what a function promises its in-place callers -*- C++
//-*-===//
//
// ERFA calls its functions in place, one array for two parameters
// (eraMoon98's `eraRxpv(rm, pv, pv)`, eraLdsun's `eraLd(1.0, p, p, ...)`).
// A caller of another file differentiates such a call through the callee's
// NAME_grad, which takes its parameters apart (lower/LaneGrad.cpp): that is
// the call's function only where the callee reads each element of one
// parameter (I) before it writes that element through the other (J), and
// never writes through I. Then the call on one array computes what the call
// on two copies of it computes, step by step (every read of I finds the
// array's value before the call, every read of J what J's own writes left),
// and its derivative is the sum of NAME_grad's partials for both.
//
// inPlacePromises finds, from the function's body alone, the pairs (I, J)
// of array parameters of one element type and shape, J not a pointer to
// const, for which this holds on every path (I == J: never writes through
// I). A call of a function of
// another file that takes a part of I or J counts on that function's own
// promise for the parameters it passes them to (its Deps; so does a call of
// a function of this file with external linkage), which only the link and
// the run know: the file defines batchdiff.inplace:NAME:I:J with
// weak references to those (emit/EmitC.cpp), and the caller checks them at
// run time (gen_support.h, bd_inplace_check). Anything else done with I or
// J (its address kept, a call of a static or inline function, an index the
// walk cannot follow) gives no promise.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_INPLACE_H
#define BATCHDIFF_LOWER_INPLACE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>
#include <vector>

namespace batchdiff {

struct InPlacePromise {
  unsigned I = 0, J = 0;
  /// The promises of functions of other files the proof relies on, each
  /// "NAME:M:N".
  std::vector<std::string> Deps;
};

/// The pairs of \p FD's array parameters its body promises (above).
std::vector<InPlacePromise> inPlacePromises(const clang::FunctionDecl *FD,
                                            clang::ASTContext &Ctx);

} // namespace batchdiff

#endif
