//===- Attributes.cpp - the batch/diff/uniform/nodiff attributes ----------===//
//
// Split as in clang/examples/Attribute: diagAppertainsToDecl says where an
// attribute may appear, handleDeclAttribute checks what it says and records
// it. Argument counts are checked by clang itself (NumArgs = OptArgs = 0),
// except for diff's optional mode: diff(reverse) (= diff, NAME_grad),
// diff(forward) (NAME_jvp) or diff(hvp) (NAME_hvp). Clang parses a lone
// identifier argument of a plugin attribute as an identifier, but a second one
// as an expression, so each diff(...) names one mode and the modes of all of
// them add up.
//
//===----------------------------------------------------------------------===//

#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <vector>

using namespace clang;

namespace batchdiff {
namespace {

enum AttrKindBD {
  KBatch,
  KDiff,
  KUniform,
  KNoDiff,
  KOffsets,
  KPointers,
  KExtent,
  NumKinds
};

struct ParamUse {
  const ParmVarDecl *Param;
  SourceLocation Loc;
  AttrKindBD Kind;
};

struct AttrState {
  llvm::DenseSet<const Decl *> Marked[NumKinds]; // diff: diff(reverse)
  llvm::DenseSet<const Decl *> Forward;          // diff(forward)
  llvm::DenseSet<const Decl *> Hvp;              // diff(hvp)
  /// Where batch/diff was written on each function declaration.
  llvm::DenseMap<const Decl *, SourceLocation> FunctionAttrLoc;
  std::vector<ParamUse> ParamUses;
  /// extent("EXPR") on a parameter: the text and where it was written.
  llvm::DenseMap<const Decl *, std::pair<std::string, SourceLocation>> Extents;
};

AttrState &state() {
  // One translation unit per cc1 process; reset at its start anyway.
  static AttrState S;
  return S;
}

const char *attrName(AttrKindBD K) {
  static const char *const Names[NumKinds] = {
      "batch",           "diff",  "uniform", "nodiff", "ragged_offsets",
      "ragged_pointers", "extent"};
  return Names[K];
}

bool marked(const Decl *D, AttrKindBD K) { return state().Marked[K].count(D); }

bool functionMarked(const FunctionDecl *FD, AttrKindBD K) {
  if (!FD)
    return false;
  for (const FunctionDecl *R : FD->redecls())
    if (marked(R, K))
      return true;
  return false;
}

/// The function \p P is a parameter of, or null (e.g. a parameter of a
/// function type inside a typedef).
const FunctionDecl *owningFunction(const ParmVarDecl *P) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  if (!FD)
    return nullptr;
  unsigned I = P->getFunctionScopeIndex();
  if (I >= FD->getNumParams() || FD->getParamDecl(I) != P)
    return nullptr;
  return FD;
}

bool paramMarked(const ParmVarDecl *P, AttrKindBD K) {
  if (!P)
    return false;
  if (marked(P, K))
    return true;
  const FunctionDecl *FD = owningFunction(P);
  if (!FD)
    return false;
  unsigned I = P->getFunctionScopeIndex();
  for (const FunctionDecl *R : FD->redecls())
    if (I < R->getNumParams() && marked(R->getParamDecl(I), K))
      return true;
  return false;
}

/// Strips pointers and arrays: `const float *` and `float[3]` are
/// differentiable just like `float`.
bool hasFloatingElements(QualType T) {
  for (;;) {
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    else
      break;
  }
  // A struct with a floating member (nested or in an array member) has a
  // shadow that nodiff removes.
  if (const auto *RT = T->getAs<RecordType>()) {
    if (const RecordDecl *RD = RT->getDecl()->getDefinition())
      for (const FieldDecl *FD : RD->fields())
        if (hasFloatingElements(FD->getType()))
          return true;
    return false;
  }
  return T->isRealFloatingType();
}

/// Whether the attribute name at \p Loc (`diff` or `batchdiff::diff`) is
/// followed by '(' in the source.
bool parenthesisFollows(Sema &S, SourceLocation Loc) {
  const SourceManager &SM = S.getSourceManager();
  bool Invalid = false;
  const char *P = SM.getCharacterData(SM.getSpellingLoc(Loc), &Invalid);
  if (Invalid || !P)
    return false;
  auto Blank = [&] {
    while (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r')
      ++P;
  };
  auto Name = [&] {
    while (isAsciiIdentifierContinue(*P))
      ++P;
  };
  Name();
  Blank();
  if (P[0] == ':' && P[1] == ':') {
    P += 2;
    Blank();
    Name();
    Blank();
  }
  return *P == '(';
}

template <AttrKindBD K> struct BDAttrInfo : public ParsedAttrInfo {
  static constexpr bool OnFunctions = K == KBatch || K == KDiff;
  static constexpr const char *GNUName = K == KBatch     ? "batch"
                                         : K == KDiff    ? "diff"
                                         : K == KUniform ? "uniform"
                                         : K == KNoDiff  ? "nodiff"
                                         : K == KOffsets ? "ragged_offsets"
                                                         : "ragged_pointers";
  static constexpr const char *ScopedName =
      K == KBatch     ? "batchdiff::batch"
      : K == KDiff    ? "batchdiff::diff"
      : K == KUniform ? "batchdiff::uniform"
      : K == KNoDiff  ? "batchdiff::nodiff"
      : K == KOffsets ? "batchdiff::ragged_offsets"
                      : "batchdiff::ragged_pointers";

  BDAttrInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, GNUName},
                                     {ParsedAttr::AS_C23, ScopedName},
                                     {ParsedAttr::AS_CXX11, ScopedName}};
    Spellings = S;
    if (K == KDiff)
      OptArgs = 1;
  }

  /// diff's mode: none or `reverse` (NAME_grad), `forward` (NAME_jvp),
  /// `hvp` (NAME_hvp).
  static AttrHandling handleDiff(Sema &S, Decl *D, const ParsedAttr &Attr) {
    if (Attr.getNumArgs() == 0) {
      // Clang drops the arguments of a plugin's [[batchdiff::diff(...)]]
      // (it parses only GNU attributes' arguments for plugins): the mode
      // would be lost, so parentheses after the name are an error.
      if (!Attr.isGNUAttribute() && parenthesisFollows(S, Attr.getLoc())) {
        report(S.getDiagnostics(), DiagnosticsEngine::Error, Attr.getLoc(),
               "a 'diff' mode is read only in the GNU spelling: write "
               "__attribute__((diff(forward))) (BD_JVP)");
        return AttributeNotApplied;
      }
      state().Marked[KDiff].insert(D);
      return AttributeApplied;
    }
    if (Attr.getNumArgs() > 1 || !Attr.isArgIdent(0)) {
      SourceLocation Loc = Attr.getLoc();
      unsigned Bad = Attr.getNumArgs() > 1 ? 1 : 0;
      if (Attr.isArgIdent(Bad))
        Loc = Attr.getArgAsIdent(Bad)->Loc;
      else if (const Expr *E = Attr.getArgAsExpr(Bad))
        Loc = E->getBeginLoc();
      report(S.getDiagnostics(), DiagnosticsEngine::Error, Loc,
             "'diff' takes one mode, reverse (NAME_grad), forward "
             "(NAME_jvp) or hvp (NAME_hvp); for several write "
             "diff(reverse), diff(forward)");
      return AttributeNotApplied;
    }
    const IdentifierLoc *Mode = Attr.getArgAsIdent(0);
    StringRef Name = Mode->Ident->getName();
    // `__forward__` as `forward` (BD_JVP's spelling: a user's macro named
    // forward does not reach it), as clang takes `__diff__` for `diff`.
    if (Name.size() > 4 && Name.starts_with("__") && Name.ends_with("__"))
      Name = Name.drop_front(2).drop_back(2);
    if (Name == "reverse") {
      state().Marked[KDiff].insert(D);
    } else if (Name == "forward") {
      state().Forward.insert(D);
    } else if (Name == "hvp") {
      state().Hvp.insert(D);
    } else {
      report(S.getDiagnostics(), DiagnosticsEngine::Error, Mode->Loc,
             "unknown 'diff' mode '%0'; expected reverse (NAME_grad), "
             "forward (NAME_jvp) or hvp (NAME_hvp)")
          << Name;
      return AttributeNotApplied;
    }
    return AttributeApplied;
  }

  // Where it may appear: batch/diff on functions, uniform/nodiff on
  // parameters. A misplaced attribute is an error, because the user asked
  // for generated code (or an ABI) that would silently not exist.
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    bool OK = OnFunctions ? isa<FunctionDecl>(D) : isa<ParmVarDecl>(D);
    if (!OK)
      S.Diag(Attr.getLoc(), diag::err_attribute_wrong_decl_type_str)
          << Attr << Attr.isRegularKeywordAttribute()
          << (OnFunctions ? "functions" : "parameters");
    return OK;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &Attr,
                            const Stmt *) const override {
    S.Diag(Attr.getLoc(), diag::err_attribute_wrong_decl_type_str)
        << Attr << Attr.isRegularKeywordAttribute()
        << (OnFunctions ? "functions" : "parameters");
    return false;
  }

  // What it says: no arguments (clang checks the count before calling us),
  // and nodiff only means something on floating-point data.
  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if constexpr (OnFunctions)
      state().FunctionAttrLoc.try_emplace(D, Attr.getLoc());
    if constexpr (K == KDiff)
      return handleDiff(S, D, Attr);
    if (Attr.getNumArgs() != 0) {
      S.Diag(Attr.getLoc(), diag::err_attribute_wrong_number_arguments)
          << Attr << 0;
      return AttributeNotApplied;
    }
    state().Marked[K].insert(D);
    if constexpr (!OnFunctions) {
      const auto *P = cast<ParmVarDecl>(D);
      state().ParamUses.push_back({P, Attr.getLoc(), K});
      if (K == KNoDiff && !P->getType()->isDependentType() &&
          !hasFloatingElements(P->getType()))
        report(S.getDiagnostics(), DiagnosticsEngine::Warning, Attr.getLoc(),
               "'nodiff' has no effect on parameter %0 of non-floating type "
               "%1")
            << P << P->getType();
    }
    return AttributeApplied;
  }
};

/// extent("EXPR") (BD_EXTENT(EXPR)) on a pointer parameter declares its
/// extent where C cannot: in `(const double *x, int n)` n follows x. The
/// argument is a string because clang would look a later parameter's name up
/// in an expression argument and fail; the lowering reads it (ArrayParams).
/// Only the GNU spelling: clang drops a [[...]] plugin attribute's arguments.
struct ExtentAttrInfo : public ParsedAttrInfo {
  ExtentAttrInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "extent"}};
    Spellings = S;
    NumArgs = 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<ParmVarDecl>(D))
      return true;
    S.Diag(Attr.getLoc(), diag::err_attribute_wrong_decl_type_str)
        << Attr << Attr.isRegularKeywordAttribute() << "parameters";
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    const auto *P = cast<ParmVarDecl>(D);
    // At BD_EXTENT in the user's file, not inside <batchdiff.h>.
    SourceLocation Loc = S.getSourceManager().getExpansionLoc(Attr.getLoc());
    const auto *Str =
        Attr.getNumArgs() == 1 && Attr.isArgExpr(0) && Attr.getArgAsExpr(0)
            ? dyn_cast<StringLiteral>(Attr.getArgAsExpr(0)->IgnoreParens())
            : nullptr;
    if (!Str || !Str->isOrdinary()) {
      report(S.getDiagnostics(), DiagnosticsEngine::Error, Loc,
             "'extent' takes the extent as a string, extent(\"n\"); write "
             "BD_EXTENT(n)");
      return AttributeNotApplied;
    }
    QualType T = P->getOriginalType();
    if (!T->isDependentType() && !T->isPointerType() && !T->isArrayType()) {
      report(S.getDiagnostics(), DiagnosticsEngine::Error, Loc,
             "BD_EXTENT on parameter %0 of type %1: only a pointer or array "
             "parameter has an extent")
          << P << T;
      return AttributeNotApplied;
    }
    state().Marked[KExtent].insert(D);
    state().Extents[D] = {Str->getString().str(), Loc};
    state().ParamUses.push_back({P, Loc, KExtent});
    return AttributeApplied;
  }
};

ParsedAttrInfoRegistry::Add<BDAttrInfo<KBatch>>
    XBatch("batch", "batchdiff: NAME_batched");
ParsedAttrInfoRegistry::Add<BDAttrInfo<KDiff>> XDiff("diff",
                                                     "batchdiff: NAME_grad");
ParsedAttrInfoRegistry::Add<BDAttrInfo<KUniform>>
    XUniform("uniform", "batchdiff: same value for the whole batch");
ParsedAttrInfoRegistry::Add<BDAttrInfo<KNoDiff>>
    XNoDiff("nodiff", "batchdiff: not differentiated");
ParsedAttrInfoRegistry::Add<BDAttrInfo<KOffsets>>
    XOffsets("ragged_offsets", "batchdiff: examples packed, with offsets");
ParsedAttrInfoRegistry::Add<BDAttrInfo<KPointers>>
    XPointers("ragged_pointers", "batchdiff: one pointer per example");
ParsedAttrInfoRegistry::Add<ExtentAttrInfo>
    XExtent("extent", "batchdiff: a pointer parameter's extent");

} // namespace

bool hasBatch(const FunctionDecl *FD) { return functionMarked(FD, KBatch); }
void markBatchDiff(const FunctionDecl *FD) {
  state().Marked[KBatch].insert(FD);
  state().Marked[KDiff].insert(FD);
}
bool hasDiff(const FunctionDecl *FD) { return functionMarked(FD, KDiff); }
bool hasForwardDiff(const FunctionDecl *FD) {
  if (!FD)
    return false;
  for (const FunctionDecl *R : FD->redecls())
    if (state().Forward.count(R))
      return true;
  return false;
}
bool hasHvpDiff(const FunctionDecl *FD) {
  if (!FD)
    return false;
  for (const FunctionDecl *R : FD->redecls())
    if (state().Hvp.count(R))
      return true;
  return false;
}
bool isUniform(const ParmVarDecl *P) { return paramMarked(P, KUniform); }
bool isNoDiff(const ParmVarDecl *P) { return paramMarked(P, KNoDiff); }
bool isPackedOffsets(const ParmVarDecl *P) { return paramMarked(P, KOffsets); }
bool isPackedPointers(const ParmVarDecl *P) {
  return paramMarked(P, KPointers);
}

bool declaredExtent(const ParmVarDecl *P, std::string &Text,
                    SourceLocation &Loc) {
  if (!paramMarked(P, KExtent))
    return false;
  auto Take = [&](const Decl *D) {
    auto It = state().Extents.find(D);
    if (It == state().Extents.end())
      return false;
    Text = It->second.first;
    Loc = It->second.second;
    return true;
  };
  if (Take(P))
    return true;
  const FunctionDecl *FD = owningFunction(P);
  unsigned I = P->getFunctionScopeIndex();
  for (const FunctionDecl *R : FD->redecls())
    if (I < R->getNumParams() && Take(R->getParamDecl(I)))
      return true;
  return false;
}

void diagnoseParamAttributes(Sema &S) {
  for (const ParamUse &U : state().ParamUses) {
    const FunctionDecl *FD = owningFunction(U.Param);
    if (FD &&
        (hasBatch(FD) || hasDiff(FD) || hasForwardDiff(FD) || hasHvpDiff(FD)))
      continue;
    report(S.getDiagnostics(), DiagnosticsEngine::Warning, U.Loc,
           "'%0' has no effect on a function that is not marked batch or "
           "diff")
        << attrName(U.Kind);
  }
  state().ParamUses.clear();
}

/// Whether \p FD is a C library function whose calls batchdiff makes
/// itself: one clang knows (exp, remquo) or one of ir/Math.def (j0).
static bool libraryFunction(const FunctionDecl *FD) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> N;
#define BD_MATH(Name, NumArgs, CName, ...)                                     \
  N.insert(CName);                                                             \
  N.insert(CName "f");
#include "ir/Math.def"
    return N;
  }();
  return FD->getBuiltinID() ||
         (FD->getIdentifier() && Names.contains(FD->getName()));
}

void diagnoseUnusedFunctionMarks(Sema &S) {
  const SourceManager &SM = S.getSourceManager();
  // The first mark of each function without a body, in source order.
  llvm::DenseMap<const Decl *, std::pair<const FunctionDecl *, SourceLocation>>
      First;
  for (const auto &[D, Loc] : state().FunctionAttrLoc) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || FD->isInvalidDecl() || FD->isDefined() || Loc.isInvalid() ||
        SM.isInSystemHeader(Loc))
      continue;
    auto [It, New] = First.try_emplace(FD->getCanonicalDecl(), FD, Loc);
    if (!New && SM.isBeforeInTranslationUnit(Loc, It->second.second))
      It->second = {FD, Loc};
  }
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> Marks;
  for (const auto &[Canon, M] : First)
    Marks.push_back(M);
  llvm::sort(Marks, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.second, B.second);
  });
  for (const auto &[FD, Loc] : Marks) {
    const FunctionDecl *Last = FD->getMostRecentDecl();
    if (libraryFunction(FD))
      report(S.getDiagnostics(), DiagnosticsEngine::Warning, Loc,
             "'batch'/'diff' on %0, a C library function this file does not "
             "define, has no effect: batch/diff functions call the "
             "library's %0 (through batchdiff's own vector code and "
             "derivative where docs/subset.md lists one, else once per "
             "example); remove the attribute, or give a function of your "
             "own a name of its own")
          << FD;
    else if (!Last->hasPrototype())
      report(S.getDiagnostics(), DiagnosticsEngine::Warning, Loc,
             "'batch'/'diff' on %0, declared without a prototype and not "
             "defined in this file, has no effect: batch/diff functions "
             "call %0 once per example on the scalar function, since its "
             "generated functions cannot be called without its parameters' "
             "types (and a differentiated argument of it is an error); "
             "declare it with its parameters, as its definition has them")
          << FD;
  }
}

void diagnoseLateAttributes(Sema &S, const FunctionDecl *FD) {
  auto It = state().FunctionAttrLoc.find(FD);
  if (It == state().FunctionAttrLoc.end() || FD->doesThisDeclarationHaveABody())
    return;
  // Earlier declarations, newest first: is the definition among them, and
  // did it (or a declaration before it) already ask for the code?
  const FunctionDecl *Def = nullptr;
  bool Asked = false;
  for (const FunctionDecl *P = FD->getPreviousDecl(); P;
       P = P->getPreviousDecl()) {
    if (P->doesThisDeclarationHaveABody())
      Def = P;
    if (Def && (marked(P, KBatch) || marked(P, KDiff) ||
                state().Forward.count(P) || state().Hvp.count(P)))
      Asked = true;
  }
  if (!Def || Asked)
    return;
  report(S.getDiagnostics(), DiagnosticsEngine::Error, It->second,
         "'batch'/'diff' on a declaration of %0 after its definition comes "
         "too late: nothing is generated for it; put the attribute on the "
         "definition (or on a declaration before it)")
      << FD;
  report(S.getDiagnostics(), DiagnosticsEngine::Note, Def->getLocation(),
         "%0 is defined here")
      << Def;
}

void resetAttributeState() {
  state().FunctionAttrLoc.clear();
  for (auto &M : state().Marked)
    M.clear();
  state().Forward.clear();
  state().Hvp.clear();
  state().ParamUses.clear();
  state().Extents.clear();
}

} // namespace batchdiff
