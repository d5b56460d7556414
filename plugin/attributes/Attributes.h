//===- Attributes.h - the batch/diff/uniform/nodiff attributes --*- C++ -*-===//
//
// The attributes (batch, diff, uniform, nodiff, ragged_offsets,
// ragged_pointers, extent) are registered as plugin ParsedAttrInfos. Clang has
// no Attr class for plugin attributes, so which declaration carries which
// attribute is kept in a side table owned by this file: CodeGen never sees a
// marker, so unannotated and annotated code compiles exactly as without the
// plugin (an AnnotateAttr marker would leak into llvm.global.annotations).
//
// The accessors look through all redeclarations: an attribute written on a
// prototype applies to the later definition (and its parameters).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_ATTRIBUTES_H
#define BATCHDIFF_ATTRIBUTES_H

#include "clang/Basic/SourceLocation.h"

#include <string>

namespace clang {
class FunctionDecl;
class ParmVarDecl;
class Sema;
} // namespace clang

namespace batchdiff {

/// `__attribute__((batch))` on any declaration of \p FD.
bool hasBatch(const clang::FunctionDecl *FD);
/// `__attribute__((diff))` or `diff(reverse)` on any declaration of \p FD
/// (NAME_grad).
bool hasDiff(const clang::FunctionDecl *FD);
/// `__attribute__((diff(forward)))` on any declaration of \p FD (NAME_jvp).
bool hasForwardDiff(const clang::FunctionDecl *FD);
/// `__attribute__((diff(hvp)))` on any declaration of \p FD (NAME_hvp).
bool hasHvpDiff(const clang::FunctionDecl *FD);
/// `__attribute__((uniform))` on \p P or on the same parameter of another
/// declaration of its function.
bool isUniform(const clang::ParmVarDecl *P);
/// `__attribute__((nodiff))`, looked up like isUniform.
bool isNoDiff(const clang::ParmVarDecl *P);
/// `__attribute__((ragged_offsets))` (BD_PACKED): the examples' arrays back
/// to back, with offsets. Looked up like isUniform.
bool isPackedOffsets(const clang::ParmVarDecl *P);
/// `__attribute__((ragged_pointers))` (BD_POINTERS): a pointer per example.
bool isPackedPointers(const clang::ParmVarDecl *P);

/// `__attribute__((extent("EXPR")))` (BD_EXTENT(EXPR)), looked up like
/// isUniform: sets \p Text to EXPR and \p Loc to the attribute.
bool declaredExtent(const clang::ParmVarDecl *P, std::string &Text,
                    clang::SourceLocation &Loc);

/// Warns about `uniform`/`nodiff` on parameters of functions that carry
/// neither `batch` nor `diff`. Run once at the end of the translation unit,
/// when every redeclaration has been seen.
void diagnoseParamAttributes(clang::Sema &S);

/// `batch`/`diff` written on a declaration of \p FD that follows its
/// definition, when the definition itself did not carry them: nothing is
/// generated for it (the definition was compiled already), so this is an
/// error at the attribute. Run on each top-level function declaration.
void diagnoseLateAttributes(clang::Sema &S, const clang::FunctionDecl *FD);

/// Warns about `batch`/`diff` on functions this file declares but never
/// defines where the mark has no effect: a C library function (its calls
/// are the library's, through batchdiff's vector math and derivatives or
/// once per example), or a declaration without a prototype (K&R `double
/// f();`: another file's generated functions cannot be called without the
/// parameters' types). Run once at the end of the translation unit.
void diagnoseUnusedFunctionMarks(clang::Sema &S);

/// Records \p FD as marked batch, diff without an attribute written: a
/// static recursive helper of a diff function (lower/RecursiveHelpers.h).
void markBatchDiff(const clang::FunctionDecl *FD);

/// Forgets every recorded attribute (start of a translation unit).
void resetAttributeState();

} // namespace batchdiff

#endif
