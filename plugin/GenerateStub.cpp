//===- GenerateStub.cpp - stand-in generator for plugin tests -------------===//
//
// Built only while plugin/Generate.cpp does not exist (see CMakeLists.txt).
// Emits NAME_batched as a plain loop over NAME, and NAME_grad with the same
// loop and untouched shadows, with the contract's signatures, so the
// attribute / injection / output plumbing can be tested end to end.
//
//===----------------------------------------------------------------------===//

#include "Generate.h"
#include "attributes/Attributes.h"
#include "diagnostics/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace batchdiff {

static std::string typeText(QualType T, const ASTContext &Ctx) {
  return T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
}

/// One function: "void NAME_SUFFIX(size_t n, ...)" and its loop body.
static void emitOne(const FunctionDecl *FD, StringRef Suffix, bool Grad,
                    Generated &Out) {
  const ASTContext &Ctx = FD->getASTContext();
  std::string Name = FD->getNameAsString() + Suffix.str();
  std::string Sig = "void " + Name + "(__SIZE_TYPE__ __bd_n";
  std::string Args;
  std::string Shadows;
  for (unsigned I = 0, E = FD->getNumParams(); I != E; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    QualType T = P->getType();
    std::string V = "__bd_p" + std::to_string(I);
    bool Uniform = isUniform(P);
    if (const auto *PT = T->getAs<PointerType>()) {
      Sig += ", " + typeText(T, Ctx) + " " + V;
      if (!Uniform)
        Sig += ", __PTRDIFF_TYPE__ " + V + "_stride";
      Args += (I ? ", " : "") + V +
              (Uniform ? "" : " + (__PTRDIFF_TYPE__)__bd_i * " + V + "_stride");
      if (Grad && PT->getPointeeType()->isRealFloatingType() && !isNoDiff(P))
        Shadows += ", " + typeText(PT->getPointeeType(), Ctx) + " *d" + V +
                   (Uniform ? "" : ", __PTRDIFF_TYPE__ d" + V + "_stride");
      continue;
    }
    std::string TT = typeText(T, Ctx);
    Sig += ", " + (Uniform ? TT : "const " + TT + " *") + " " + V;
    Args += (I ? ", " : "") + V + (Uniform ? "" : "[__bd_i]");
    if (Grad && T->isRealFloatingType() && !isNoDiff(P))
      Shadows += ", " + TT + " *d" + V;
  }
  QualType R = FD->getReturnType();
  bool HasRet = !R->isVoidType();
  if (HasRet)
    Sig += ", " + typeText(R, Ctx) + " *__bd_ret";
  if (Grad && HasRet)
    Sig += ", const " + typeText(R, Ctx) + " *__bd_d_ret";
  Sig += Shadows + ")";
  std::string Static = FD->getStorageClass() == SC_Static ? "static " : "";
  std::string Proto = Static + Sig + ";\n";
  // header=FILE is for other translation units: static ones are no use there.
  if (Static.empty())
    Out.Prototypes += Proto;
  std::string Call = FD->getNameAsString() + "(" + Args + ")";
  Out.Code += Proto + Static + "__attribute__((unused)) " + Sig + " {\n" +
              "  for (__SIZE_TYPE__ __bd_i = 0; __bd_i < __bd_n; __bd_i++)\n" +
              (HasRet ? "    if (__bd_ret) __bd_ret[__bd_i] = " + Call + ";\n"
                      : "    " + Call + ";\n") +
              "}\n";
}

bool generateForFunction(FunctionDecl *FD, Sema &S, const Options &Opts,
                         bool WantBatch, bool WantGrad, Generated &Out) {
  if (Opts.Remarks)
    report(S.getDiagnostics(), DiagnosticsEngine::Remark, FD->getLocation(),
           "batchdiff (stub generator): no inference, plain loops for %0")
        << FD;
  if (WantBatch)
    emitOne(FD, "_batched", false, Out);
  if (WantGrad)
    emitOne(FD, "_grad", true, Out);
  return true;
}

} // namespace batchdiff
