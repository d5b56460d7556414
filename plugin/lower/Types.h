//===- Types.h - C types to IR types ---------------------------*- C++ -*-===//
#ifndef BATCHDIFF_LOWER_TYPES_H
#define BATCHDIFF_LOWER_TYPES_H

#include "ir/IR.h"

#include "clang/AST/Type.h"

#include <optional>

namespace clang {
class ASTContext;
class VarDecl;
} // namespace clang

namespace batchdiff {

/// The IR type of a C arithmetic type (narrow integers widen to 32 bits);
/// none for anything else.
std::optional<ir::Type> irType(clang::QualType QT);

/// The C type has the size of its lane element (false for _Bool, char,
/// short), so arrays of it load as vectors directly.
bool nativeLayout(clang::ASTContext &Ctx, clang::QualType QT, ir::Type T);

/// A constant array of any number of dimensions whose innermost elements
/// have an IR type (`double[4]`, `const int[4][4][4]`): that element type
/// and how many of them, flat and row-major. None for anything else.
std::optional<std::pair<clang::QualType, uint64_t>>
flatArray(clang::ASTContext &Ctx, clang::QualType QT);

/// An array of any number of dimensions, constant or variable (`double[c]`,
/// `const double[c][4]`, the rows of a VLA parameter `double m[r][c]`),
/// whose innermost elements have an IR type: that element type. None for
/// anything else.
std::optional<clang::QualType> arrayElement(clang::ASTContext &Ctx,
                                            clang::QualType QT);

/// How a table of \p ET elements read in place is read: the lane type and
/// the narrow C type of a char, short or _Bool element ("u8", "i16": one
/// lane at a time, widened), or "" (vectors of the lane type). None for an
/// element without lanes.
std::optional<std::pair<ir::Type, std::string>>
tableElement(clang::ASTContext &Ctx, clang::QualType ET);

/// A table LLVM may make constant as long as only plain loads read it: a
/// static one whose elements are not const (GlobalOpt, for internal
/// globals nothing writes). Read by gather instructions, it would not be.
bool laneLoadsOnly(clang::ASTContext &Ctx, const clang::VarDecl *VD);

} // namespace batchdiff

#endif
