//===- Inject.cpp - parse generated C right after a definition ------------===//
//
// The parser is found through the preprocessor: Parser's constructor
// registers itself as the code-completion handler. Its lookahead token is
// pushed back (reinjected) under the generated buffer, and consumed once so
// the parser's current token becomes the first generated token. ParseAST
// then parses the generated declarations as ordinary top-level declarations
// and arrives at the reinjected token again, exactly where it left off.
//
//===----------------------------------------------------------------------===//

#include "inject/Inject.h"
#include "diagnostics/Diagnostics.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Parse/Parser.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace batchdiff {

static Parser *liveParser(Sema &S) {
  Preprocessor &PP = S.getPreprocessor();
  auto *P = dynamic_cast<Parser *>(PP.getCodeCompletionHandler());
  if (!P || &P->getActions() != &S)
    return nullptr;
  // Only between top-level declarations is one lookahead token all the
  // parser holds; anywhere else reinjection would reorder tokens.
  Scope *Sc = P->getCurScope();
  if (!Sc || Sc->getParent() || !S.CurContext->isTranslationUnit())
    return nullptr;
  return P;
}

/// Whether only empty declarations and directives that declare nothing
/// (`#pragma`, `#define`, `#undef`, `#endif`) follow offset \p Off of the
/// main file's text. Read with a raw lexer: peeking through the
/// preprocessor would cache tokens under the generated code.
static bool onlyPragmasFollow(const SourceManager &SM, FileID FID, unsigned Off,
                              const LangOptions &LO) {
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || Off > Buf.size())
    return false;
  Lexer Raw(SM.getLocForStartOfFile(FID), LO, Buf.begin(), Buf.begin() + Off,
            Buf.end());
  Token T;
  for (Raw.LexFromRawLexer(T); T.isNot(tok::eof);) {
    if (T.is(tok::semi)) {
      Raw.LexFromRawLexer(T);
      continue;
    }
    if (T.isNot(tok::hash) || !T.isAtStartOfLine())
      return false;
    Raw.LexFromRawLexer(T);
    StringRef Kind = T.is(tok::raw_identifier) ? T.getRawIdentifier() : "";
    if (Kind != "pragma" && Kind != "define" && Kind != "undef" &&
        Kind != "endif")
      return false;
    do // the rest of the directive's line
      Raw.LexFromRawLexer(T);
    while (T.isNot(tok::eof) && !T.isAtStartOfLine());
  }
  return true;
}

bool parserAtEnd(Sema &S) {
  Parser *P = liveParser(S);
  if (!P)
    return false;
  const Token &Cur = P->getCurToken();
  if (Cur.is(tok::eof))
    return true;
  // `#pragma pack()`, `#pragma STDC ...` (annotation tokens) and `;` are
  // taken at file scope without a declaration: no HandleTopLevelDecl comes
  // after them. Look at the text from the start of the pragma's line, or
  // from the `;`.
  if (!tok::isPragmaAnnotation(Cur.getKind()) && Cur.isNot(tok::semi))
    return false;
  const SourceManager &SM = S.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(Cur.getLocation());
  if (!SM.isInMainFile(L))
    return false;
  auto [FID, Off] = SM.getDecomposedLoc(L);
  if (Cur.isNot(tok::semi)) {
    StringRef Buf = SM.getBufferData(FID);
    size_t NL = Buf.rfind('\n', Off);
    Off = NL == StringRef::npos ? 0 : (unsigned)NL + 1;
  }
  return onlyPragmasFollow(SM, FID, Off, S.getLangOpts());
}

bool headerOpenedAfter(Sema &S, const Decl *D) {
  Parser *P = liveParser(S);
  if (!P || P->getCurToken().is(tok::eof))
    return false;
  const SourceManager &SM = S.getSourceManager();
  SourceLocation End = SM.getExpansionLoc(D->getEndLoc());
  // Every file on the lookahead's include chain is still open.
  FileID F = SM.getFileID(SM.getExpansionLoc(P->getCurToken().getLocation()));
  for (unsigned Depth = 0; F.isValid() && Depth < 256; ++Depth) {
    SourceLocation Inc = SM.getIncludeLoc(F);
    if (Inc.isInvalid())
      return false;
    Inc = SM.getExpansionLoc(Inc);
    if (SM.isBeforeInTranslationUnit(End, Inc))
      return true;
    F = SM.getFileID(Inc);
  }
  return false;
}

/// A header of the C library, by its name (<math.h>, <stdint.h>, ..., or
/// one under bits/), wherever it was found: musl's own build and sysroots
/// passed with -I give the library's headers as user headers. Their macros
/// (INT32_MIN, FP_ILOGBNAN) are what the runtime headers use, and their
/// include guards keep them from being read again to define them anew.
static bool isLibraryHeader(StringRef Path) {
  static const char *const Names[] = {
      "assert.h",  "complex.h",  "ctype.h",  "errno.h",      "fenv.h",
      "float.h",   "inttypes.h", "iso646.h", "limits.h",     "locale.h",
      "math.h",    "setjmp.h",   "signal.h", "stdalign.h",   "stdarg.h",
      "stdbool.h", "stddef.h",   "stdint.h", "stdio.h",      "stdlib.h",
      "string.h",  "tgmath.h",   "time.h",   "uchar.h",      "wchar.h",
      "wctype.h",  "features.h", "endian.h", "stdnoreturn.h"};
  StringRef Dir = llvm::sys::path::filename(llvm::sys::path::parent_path(Path));
  return Dir == "bits" ||
         llvm::is_contained(Names, llvm::sys::path::filename(Path));
}

/// The user's macros hidden around the generated text (push, undef) and
/// restored after it (pop): the runtime headers it includes name locals
/// and parameters `A`, `B`, `x`, `n`, which a file's `#define B 2` or
/// `-Dn=8` would rewrite. Kept: the compiler's and the C library's (system
/// headers, the library's headers by name; reserved names), and
/// batchdiff's own (BD_..., BATCHDIFF...).
static std::pair<std::string, std::string> shieldMacros(Preprocessor &PP) {
  std::string Push, Pop;
  const SourceManager &SM = PP.getSourceManager();
  for (const auto &M : PP.macros()) {
    const IdentifierInfo *II = M.first;
    const MacroInfo *MI = PP.getMacroInfo(II);
    if (!MI || MI->isBuiltinMacro())
      continue;
    StringRef N = II->getName();
    bool Reserved = N.starts_with("__") ||
                    (N.size() > 1 && N[0] == '_' && isUppercase(N[1]));
    if (Reserved || N.starts_with("BD_") || N.starts_with("BATCHDIFF"))
      continue;
    SourceLocation L = MI->getDefinitionLoc();
    if (L.isValid() && (SM.isInSystemHeader(L) ||
                        isLibraryHeader(SM.getFilename(SM.getSpellingLoc(L)))))
      continue;
    Push += "#pragma push_macro(\"" + N.str() + "\")\n#undef " + N.str() + "\n";
    Pop += "#pragma pop_macro(\"" + N.str() + "\")\n";
  }
  return {Push, Pop};
}

bool injectAfterDefinition(Sema &S, const Decl *FD, StringRef Code,
                           StringRef BufferName) {
  Preprocessor &PP = S.getPreprocessor();
  SourceManager &SM = S.getSourceManager();
  Parser *P = liveParser(S);
  if (!P) {
    report(S.getDiagnostics(), DiagnosticsEngine::Error, FD->getLocation(),
           "batchdiff cannot add the generated code of %0 here: no parser "
           "is reading this translation unit")
        << cast<NamedDecl>(FD);
    return false;
  }

  // Push the lookahead token back; it is read again after the buffer.
  // Macro expansion stays disabled: it was already expanded once.
  auto Saved = std::make_unique<Token[]>(1);
  Saved[0] = P->getCurToken();
  PP.EnterTokenStream(std::move(Saved), 1, /*DisableMacroExpansion=*/true,
                      /*IsReinject=*/true);

  // "#include" the generated text at the end of the definition, so
  // diagnostics say where it came from and #pragma diagnostic state (which
  // is keyed by location) is the one in effect at the definition.
  SourceLocation IncludeLoc = SM.getExpansionLoc(FD->getEndLoc());
  auto [Push, Pop] = shieldMacros(PP);
  std::string Text = Push + Code.str() + Pop;
  FileID FID = SM.createFileID(
      llvm::MemoryBuffer::getMemBufferCopy(Text, BufferName), SrcMgr::C_System,
      /*LoadedID=*/0, /*LoadedOffset=*/0, IncludeLoc);
  PP.EnterSourceFile(FID, /*Dir=*/nullptr, IncludeLoc);

  // Drop the parser's copy of the lookahead; it now lexes the buffer.
  // ConsumeAnyToken picks the right method for parens, annotations, eof...
  P->ConsumeAnyToken();
  return true;
}

bool injectTokens(Sema &S, llvm::ArrayRef<llvm::ArrayRef<Token>> Streams) {
  Parser *P = liveParser(S);
  if (!P)
    return false;
  Preprocessor &PP = S.getPreprocessor();
  auto Saved = std::make_unique<Token[]>(1);
  Saved[0] = P->getCurToken();
  PP.EnterTokenStream(std::move(Saved), 1, /*DisableMacroExpansion=*/true,
                      /*IsReinject=*/true);
  // A stack: the last entered is read first.
  for (auto It = Streams.rbegin(); It != Streams.rend(); ++It)
    PP.EnterTokenStream(*It, /*DisableMacroExpansion=*/true,
                        /*IsReinject=*/true);
  P->ConsumeAnyToken();
  return true;
}

} // namespace batchdiff
