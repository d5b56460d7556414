//===- Types.h - C types to IR types ---------------------------*- C++ -*-===//
#ifndef BATCHDIFF_LOWER_TYPES_H
#define BATCHDIFF_LOWER_TYPES_H

#include "ir/IR.h"

#include "clang/AST/Type.h"

#include <optional>

namespace clang {
class ASTContext;
} // namespace clang

namespace batchdiff {

/// The IR type of a C arithmetic type (narrow integers widen to 32 bits);
/// none for anything else.
std::optional<ir::Type> irType(clang::QualType QT);

/// The C type has the size of its lane element (false for _Bool, char,
/// short), so arrays of it load as vectors directly.
bool nativeLayout(clang::ASTContext &Ctx, clang::QualType QT, ir::Type T);

} // namespace batchdiff

#endif
