//===- Inject.h - parse generated C right after a definition ----*- C++ -*-===//
//
// Inline token injection (see docs / INJECTION.md): called from
// HandleTopLevelDecl, while the parser holds exactly one lookahead token.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_INJECT_H
#define BATCHDIFF_INJECT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class Decl;
class Sema;
class Token;
} // namespace clang

namespace batchdiff {

/// Makes \p Code the next text the live parser reads, as if it had been
/// #included right after \p D (a definition, or any top-level declaration);
/// the lookahead token follows it.
/// The text is a memory buffer named \p BufferName and treated as a system
/// header (no user -W flags fire on generated code). Nothing is parsed here:
/// the ordinary ParseAST loop parses the generated declarations next and
/// hands each to every consumer in order, after \p D. Returns false, with
/// an error reported, when no parser is live (e.g. an AST file as input).
bool injectAfterDefinition(clang::Sema &S, const clang::Decl *D,
                           llvm::StringRef Code, llvm::StringRef BufferName);

/// Makes the token sequences \p Streams, in order, the next tokens the live
/// parser reads (already macro-expanded: entered with expansion off); the
/// lookahead token follows them. The tokens must outlive the parse. False
/// when no parser is live.
bool injectTokens(clang::Sema &S,
                  llvm::ArrayRef<llvm::ArrayRef<clang::Token>> Streams);

/// True when the live parser's lookahead token is the end of the
/// translation unit, or only pragmas and empty declarations come before it:
/// the declaration just parsed is the file's last, and no body can come any
/// more.
bool parserAtEnd(clang::Sema &S);

/// True when the lookahead token is in a file #included after the end of
/// \p D (`#include <stdint.h>` right after the definition): that header's
/// include guard is already defined while its declarations are not parsed
/// yet, so text injected now could not include it. Inject once the parser
/// has left it.
bool headerOpenedAfter(clang::Sema &S, const clang::Decl *D);

} // namespace batchdiff

#endif
