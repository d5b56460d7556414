//===- FixedGlobals.h - static structs no code changes ---------*- C++ -*-===//
// Private to plugin/lower. GSL keeps its Chebyshev series in static structs
// that are not const, `static cheb_series bj0_cs = { bj0_data, 12, -1, 1,
// 9 };`, and passes them as `const cheb_series *` to cheb_eval_e, which
// reads `cs->c[j]`. Such a struct's pointer members hold what its
// initializer says for as long as no code of the file changes them: it has
// internal linkage, so only this file's code can. The pointer members of a
// struct (or table of structs) that is static, at file scope, initialized
// and never changed by the file are read as a const struct's are
// (LowerPtrTables.cpp, ptrConstMember).
//
// The file is parsed in order and a function is lowered at its definition,
// so the code after it is checked at the end of the file: a change found
// there is an error at the read that assumed none.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"

namespace batchdiff {
namespace lowering {

/// The first expression of this file (parsed so far; not batchdiff's
/// generated code, not system headers) that may change \p VD: an
/// assignment, increment or decrement of it or of a member or element; its
/// address (or a member's, an element's) taken other than as a pointer to
/// const; a cast of a pointer to const to a pointer to its struct type, to
/// void or to a pointer. Null if none.
const clang::Expr *changeOf(const clang::VarDecl *VD, clang::ASTContext &Ctx);

/// Whether the pointer members of \p VD, a struct or array of structs that
/// is not const, keep their initializer's values: static at file scope,
/// initialized in this file, and changeOf finds nothing. Code after the
/// current definition is checked at the end of the file
/// (diagnoseLaterChanges), which then reports at \p Use, the read of
/// \p Member (none if \p Use is invalid).
bool keepsInitializer(const clang::VarDecl *VD, clang::ASTContext &Ctx,
                      clang::SourceLocation Use = clang::SourceLocation(),
                      const std::string &Member = "");

/// The text of the error at a read of a pointer member \p Member of \p VD
/// that other code may change (the construct and what to do instead).
std::pair<std::string, std::string>
changedMemberError(const std::string &Member, const clang::VarDecl *VD);

/// At the end of the file: the structs keepsInitializer accepted that code
/// after the reading function changes get an error at the read (once per
/// struct) and a note at the change.
void diagnoseLaterChanges(clang::DiagnosticsEngine &Diags,
                          clang::ASTContext &Ctx);

} // namespace lowering
} // namespace batchdiff
