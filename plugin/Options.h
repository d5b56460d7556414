//===- Options.h - plugin options and per-function results -----*- C++ -*-===//
//
// Plain data passed between the plugin's clang-facing parts (Plugin.cpp,
// inject/) and the generator (Generate.h), so that neither includes the
// other.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_OPTIONS_H
#define BATCHDIFF_OPTIONS_H

#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace batchdiff {

struct Options {
  std::string EmitDir;      // -fplugin-arg-batchdiff-emit=DIR
  std::string HeaderFile;   // -fplugin-arg-batchdiff-header=FILE
  bool Remarks = false;     // -fplugin-arg-batchdiff-remarks
  unsigned Chains = 0;      // -fplugin-arg-batchdiff-chains=N (0: heuristic)
  bool SortByLength = true; // -fplugin-arg-batchdiff-sort-by-length=0|1
  bool DenseRecords = true; // -fplugin-arg-batchdiff-dense-records=0|1
  bool DenseArrays = true;  // -fplugin-arg-batchdiff-dense-arrays=0|1
  bool RaggedBlocks = true; // -fplugin-arg-batchdiff-ragged-blocks=0|1
  bool MathOutline = false; // -fplugin-arg-batchdiff-math=outline|inline
  bool DeferMath = true;    // -fplugin-arg-batchdiff-defer-math=0|1
};

/// A call that became the C library's function (a vector version, an
/// operation or the runtime's memcpy) because no body of it was parsed yet.
} // namespace batchdiff
namespace clang {
class VarDecl;
}
namespace batchdiff {

struct LibraryCall {
  const clang::FunctionDecl *Callee = nullptr; // canonical declaration
  clang::SourceLocation At;                    // the call
};

struct Generated {
  std::string Code;       // C text injected right after the definition
  std::string Prototypes; // prototypes of the generated functions
  bool Deferred = false;  // Code declares only; the definitions come later
  /// A body of one of these defined later in the file is what the scalar
  /// function calls, not the library: the plugin reports it.
  std::vector<LibraryCall> LibraryCalls;
  /// Static globals the generated code keeps per example as expression
  /// scratch: a later definition must use them only so.
  std::vector<const clang::VarDecl *> ScratchGlobals;
};

} // namespace batchdiff

#endif
