//===- RecursiveHelpers.cpp - helpers generated without a mark ------------===//
//
// Follows the lowering's inlining from the annotated function: a call of a
// helper whose body is being inlined already is where the lowering makes a
// recursive call (Lowerer::recursiveCall), and the helper called there is
// the one whose NAME_grad that call needs.
//
//===----------------------------------------------------------------------===//
#include "lower/RecursiveHelpers.h"

#include "attributes/Attributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace batchdiff {
namespace {

/// The direct calls in one body, in source order.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  std::vector<const CallExpr *> Calls;
  bool VisitCallExpr(CallExpr *CE) {
    Calls.push_back(CE);
    return true;
  }
};

/// A number: what a parameter of a generated function may be.
bool numberType(QualType T) {
  T = T.getCanonicalType();
  if (const auto *BT = T->getAs<BuiltinType>())
    return (BT->isInteger() || BT->isFloatingPoint()) &&
           BT->getKind() != BuiltinType::LongDouble &&
           BT->getKind() != BuiltinType::Int128 &&
           BT->getKind() != BuiltinType::UInt128 &&
           BT->getKind() != BuiltinType::Half &&
           BT->getKind() != BuiltinType::Float16 &&
           BT->getKind() != BuiltinType::BFloat16 &&
           BT->getKind() != BuiltinType::Float128;
  return T->isEnumeralType();
}

bool floatType(QualType T) {
  T = T.getCanonicalType();
  return T->isSpecificBuiltinType(BuiltinType::Float) ||
         T->isSpecificBuiltinType(BuiltinType::Double);
}

class Finder {
public:
  Finder(const FunctionDecl *Top, ASTContext &Ctx)
      : Top(Top), SM(Ctx.getSourceManager()) {}

  std::vector<RecursiveHelper> run() {
    Stack.push_back(Top->getCanonicalDecl());
    visit(Top);
    llvm::sort(Found, [&](const RecursiveHelper &A, const RecursiveHelper &B) {
      return SM.isBeforeInTranslationUnit(A.FD->getLocation(),
                                          B.FD->getLocation());
    });
    return Found;
  }

private:
  const FunctionDecl *Top;
  const SourceManager &SM;
  llvm::SmallVector<const FunctionDecl *, 16> Stack; // canonical decls
  llvm::DenseSet<const FunctionDecl *> Explored, Taken;
  std::vector<RecursiveHelper> Found;

  /// What the lowering inlines: a body in this translation unit, outside
  /// the system headers (the C library's calls are its own).
  const FunctionDecl *inlined(const FunctionDecl *Callee) const {
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || SM.isInSystemHeader(Def->getLocation()))
      return nullptr;
    return Def;
  }

  void visit(const FunctionDecl *FD) {
    CallCollector C;
    C.TraverseStmt(FD->getBody());
    for (const CallExpr *CE : C.Calls) {
      const FunctionDecl *Def = inlined(CE->getDirectCallee());
      if (!Def)
        continue;
      const FunctionDecl *Canon = Def->getCanonicalDecl();
      if (llvm::is_contained(Stack, Canon)) {
        consider(Def, CE);
        continue;
      }
      // (A marked helper's calls are its own generated functions' business
      // where it is not inlined; where it is, its recursions were seen.)
      if (!Explored.insert(Canon).second)
        continue;
      Stack.push_back(Canon);
      visit(Def);
      Stack.pop_back();
    }
  }

  void consider(const FunctionDecl *Def, const CallExpr *CE) {
    if (Def->getCanonicalDecl() == Top->getCanonicalDecl() || hasBatch(Def) ||
        hasDiff(Def) || hasForwardDiff(Def) || hasHvpDiff(Def) ||
        Def->isExternallyVisible() || Def->isVariadic() ||
        !Def->hasPrototype() || !floatType(Def->getReturnType()) ||
        !SM.isBeforeInTranslationUnit(Def->getEndLoc(), Top->getBeginLoc()))
      return;
    bool FloatParam = false;
    for (const ParmVarDecl *P : Def->parameters()) {
      if (!numberType(P->getType()))
        return;
      FloatParam |= floatType(P->getType());
    }
    if (FloatParam && Taken.insert(Def->getCanonicalDecl()).second)
      Found.push_back({Def, CE});
  }
};

} // namespace

std::vector<RecursiveHelper> recursiveHelpers(const FunctionDecl *Top,
                                              ASTContext &Ctx) {
  if (!hasDiff(Top) || !Top->hasBody())
    return {};
  return Finder(Top, Ctx).run();
}

} // namespace batchdiff
