//===- LazyRuntime.h - runtime bodies parsed only where used ----*- C++ -*-===//
//
// The runtime headers define about 1,500 static inline functions (the
// vector API, the math, the records' permutes); a file uses a few dozen.
// Parsing the others' bodies was most of the headers' cost, paid by every
// translation unit. The parser skips the bodies of the runtime's functions
// (clang's SkipFunctionBodies, asked per function through the consumer);
// their tokens are kept, and at the end of the file the definitions of the
// functions the file references are parsed from them again, with the
// floating-point pragmas' state each had in its header.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LAZYRUNTIME_H
#define BATCHDIFF_LAZYRUNTIME_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"

#include <deque>
#include <vector>

namespace clang {
class CompilerInstance;
class Decl;
class DeclGroupRef;
class FunctionDecl;
class Preprocessor;
class Sema;
} // namespace clang

namespace batchdiff {

class LazyRuntime {
public:
  /// Asks the parser to consult shouldSkip for each function body (C only)
  /// and starts recording tokens.
  void begin(clang::CompilerInstance &CI);
  void setSema(clang::Sema *S) { Sema = S; }
  /// Stops recording (the preprocessor outlives the consumer).
  void end();

  /// Whether the body of \p D, whose `{` is the parser's current token, is
  /// a runtime function's that may be parsed later instead.
  bool shouldSkip(clang::Decl *D);

  /// After each top-level declaration group: keeps a skipped function's
  /// tokens, and sets the floating-point state for the next definition
  /// being parsed again.
  void declHandled(clang::DeclGroupRef DG);

  /// At the end of the file: makes the definitions of the skipped functions
  /// the file references the next declarations the parser reads. False
  /// when there was none.
  bool injectReferenced();

  /// After the file: an error for a referenced function that never got its
  /// body back (none expected).
  void diagnoseMissing();

private:
  struct Skipped {
    clang::FunctionDecl *FD;
    std::vector<clang::Token> Toks; // the definition, `static` to `}`
    clang::FPOptions FP;            // Sema's state at the body
    clang::FPOptionsOverride FPOverride;
    bool Injected = false;
  };
  struct FPState {
    clang::FPOptions FP;
    clang::FPOptionsOverride Override;
  };
  void setFP(const FPState &St);

  clang::Preprocessor *PP = nullptr;
  clang::Sema *Sema = nullptr;
  bool Enabled = false;
  // Tokens since the last top-level declaration (its lookahead first).
  std::vector<clang::Token> Recent;
  // Skipped functions, in the order of their headers.
  std::vector<Skipped> All;
  struct Open {
    unsigned Slot, Begin, Brace;
  };
  std::vector<Open> Pending; // skipped, declaration group not handled yet
  // Definitions injected and not yet parsed: the state each needs, then
  // the state to restore after the last.
  std::deque<std::pair<const clang::Decl *, FPState>> Replay;
  FPState After;
  // `#pragma clang optimize off` left open at the end of the file: off
  // again after the last definition (the runtime's are optimized).
  clang::SourceLocation AfterOptimizeOff;
};

} // namespace batchdiff

#endif
