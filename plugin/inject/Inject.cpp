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
#include "clang/Lex/Preprocessor.h"
#include "clang/Parse/Parser.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "llvm/Support/MemoryBuffer.h"

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

bool parserAtEnd(Sema &S) {
  Parser *P = liveParser(S);
  return P && P->getCurToken().is(tok::eof);
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
  FileID FID = SM.createFileID(
      llvm::MemoryBuffer::getMemBufferCopy(Code, BufferName), SrcMgr::C_System,
      /*LoadedID=*/0, /*LoadedOffset=*/0, IncludeLoc);
  PP.EnterSourceFile(FID, /*Dir=*/nullptr, IncludeLoc);

  // Drop the parser's copy of the lookahead; it now lexes the buffer.
  // ConsumeAnyToken picks the right method for parens, annotations, eof...
  P->ConsumeAnyToken();
  return true;
}

} // namespace batchdiff
