//===- Lower.h - clang AST to batchdiff IR ---------------------*- C++ -*-===//
//
// The only pass that reads clang's AST. Everything outside the supported
// subset is reported here, at its source location, through clang's
// DiagnosticsEngine; nothing after lowering can fail on user input.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_LOWER_LOWER_H
#define BATCHDIFF_LOWER_LOWER_H

#include "Options.h"
#include "ir/IR.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class Expr;
class FunctionDecl;
class QualType;
class Sema;
class VarDecl;
} // namespace clang

namespace batchdiff {

/// What lowering learns about a definition besides its IR.
struct LowerInfo {
  clang::SourceLocation Loc;  // the definition, where remarks go
  bool Static = false;        // generated functions get internal linkage
  bool IncludeRuntime = true; // the runtime headers are not declared yet
  /// File-scope declarations the generated code needs first (globals the
  /// function declares 'extern' in a block only).
  std::string FileDecls;
  /// A body of one of these defined later in the file is what the scalar
  /// function calls, not the library: the plugin reports it.
  std::vector<LibraryCall> LibraryCalls;
  /// Static globals kept per example as expression scratch (nrutil.h's
  /// dsqrarg): a later definition must use them only so (the plugin checks).
  std::vector<const clang::VarDecl *> ScratchGlobals;
  /// abiDeclaration of the function for NAME_batched and NAME_grad (empty
  /// with internal linkage): the callers of another file check them.
  std::string AbiBatched, AbiGrad;
  /// NAME_grad's abiDeclaration as declared, where AbiGrad spells a
  /// pointer it does not write as a pointer to const (ERFA's `double
  /// p[3]`): a caller through LaneGrad.cpp references this one, which
  /// serves as well (an unwritten array's shadow is the same as an input's
  /// or an output's); else empty.
  std::string AbiGradDeclared;
  /// Its generated functions write no global another file can name
  /// (SetsNoGlobal), and neither read nor write one (UsesNoGlobal): its
  /// file says so to the callers of other files (lower/GlobalCalls.cpp).
  bool SetsNoGlobal = false, UsesNoGlobal = false;
  /// Globals another file can name that its generated functions set on
  /// every path: batchdiff.sets:NAME:GLOBAL (lower/GlobalCalls.cpp).
  std::vector<std::string> SetsGlobals;
  /// The in-place calls its body allows (lower/InPlace.h): "NAME:I:J" and
  /// the promises of other files' functions it relies on.
  std::vector<std::pair<std::string, std::vector<std::string>>> InPlace;
};

/// What the ABI of \p FD's NAME_batched (\p Grad false) or NAME_grad
/// depends on, spelled as a declaration ("double g(double, uniform
/// double)"): its file defines a symbol of that name and a caller in
/// another file references the one its declaration gives, so a header that
/// does not match the definition is a link error, not a call with another
/// ABI (docs/calls.md, "Batch functions of other files"). \p Types, where
/// given and not empty, are the parameters' spellings (abiPointer) instead
/// of their declared types: a pointer the function does not write is spelled as
/// a pointer to const on both sides, so a header may declare it `double *` or
/// `void *`.
std::string abiDeclaration(const clang::FunctionDecl *FD, bool Grad,
                           llvm::ArrayRef<std::string> Types = {});

/// How abiDeclaration spells a pointer to const \p Elem.
std::string abiPointer(clang::QualType Elem, clang::ASTContext &Ctx);

/// Whether \p G may be expression scratch (ScratchGlobals.cpp): a `static`
/// file-scope scalar, neither const nor volatile.
bool scratchCandidate(const clang::VarDecl *G);
/// The first use of \p G in \p D (a function's body, a variable's
/// initializer) that is not scratch: a read with no assignment to G before
/// it in the same expression, a compound assignment or increment without
/// one, its address. Null if none.
const clang::Expr *nonScratchUse(const clang::VarDecl *G, const clang::Decl *D);

/// The errors lowering reported in this translation unit, by location and
/// text: an error inside a helper that several annotated functions inline
/// is reported once.
using ReportedErrors = std::set<std::pair<unsigned, std::string>>;

/// A call to a function whose body has not been parsed (yet).
struct MissingBody {
  const clang::FunctionDecl *Callee = nullptr; // canonical declaration
  clang::SourceLocation At;                    // the call
  /// A function another file may define, called with an argument that
  /// keeps it from being called once per example (cephes' `polevl(x, P,
  /// 8)`): that argument, for the error.
  std::string Pointer;
};

/// The error for a call whose callee's body never came (\p M): what it is
/// and what to do, in the words of the diagnostics engine's "%0 is not
/// supported in a batch/diff function; %1".
std::pair<std::string, std::string> missingBodyError(const MissingBody &M);

/// Lowers the definition \p FD into \p Out. Calls to functions whose body
/// is in the translation unit are inlined. With \p WantGrad, calls without a
/// derivative rule whose value is differentiated are errors. With \p
/// Remarks, reports how each parameter is batched. Returns false after
/// reporting at least one error, or, when \p Missing is given, after meeting
/// a call to a function without a body so far: then \p Missing says which
/// (nothing is reported; \p Out's signature part, Params and RetTy, and \p
/// Info are complete).
/// Nesting deeper than \p MaxDepth statements and expressions, those of
/// inlined helpers included, is an error (the lowering and the passes after
/// it recurse once per level: Generate.cpp sizes it to the stack it has).
constexpr unsigned FullNestDepth = 50000;
bool lowerFunction(const clang::FunctionDecl *FD, clang::Sema &S, bool WantGrad,
                   bool Remarks, ir::Function &Out, LowerInfo &Info,
                   MissingBody *Missing = nullptr,
                   ReportedErrors *Reported = nullptr,
                   unsigned MaxDepth = FullNestDepth);

} // namespace batchdiff

#endif
