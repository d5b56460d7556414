//===- GeneratedChecks.h - what generated code must never do --*- C++ -*-===//
#ifndef BATCHDIFF_GENERATEDCHECKS_H
#define BATCHDIFF_GENERATEDCHECKS_H

#include "clang/AST/Decl.h"

namespace batchdiff {

/// \p D is in a generated buffer (<batchdiff:NAME>).
bool isGeneratedDecl(const clang::Decl *D);

/// For a declaration of the generated code, reports the first implicit
/// conversion correct generated code never makes (pointers to unrelated
/// types, a qualifier dropped, a pointer to or from an integer) or call of
/// an undeclared function as an error located there, since clang hides
/// the generated code's warnings; true if it did.
bool checkGeneratedDecl(clang::Decl *D);

} // namespace batchdiff

#endif
