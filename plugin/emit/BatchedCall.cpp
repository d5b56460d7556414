//===- BatchedCall.cpp - calls of other files' batch functions ------------===//
#include "emit/BatchedCall.h"
#include "emit/CText.h"

#include <sstream>

namespace batchdiff {

using namespace ctext;

namespace {

/// Which partials (Outs) of the call defining \p Dst are read.
std::vector<bool> readPartials(const ir::Function &F, int Dst, size_t N) {
  std::vector<bool> Read(N, false);
  ir::walk(F.Body, [&](const ir::Stmt &St, int) {
    if (St.K == ir::Stmt::Inst && St.Opc == ir::Op::ExternOut &&
        St.Args[0] == Dst && St.IVal >= 0 && (size_t)St.IVal < N)
      Read[St.IVal] = true;
  });
  return Read;
}

/// Whether C type \p CType is the lanes' type \p T (arrays of it and
/// vectors of T hold the same bytes).
bool sameBits(ir::Type T, const std::string &CType) {
  return (T == ir::Type::F64 && CType == "double") ||
         (T == ir::Type::F32 && CType == "float");
}

/// The prototype of the callee's NAME_batched (\p Grad false) or NAME_grad.
std::string prototype(const ir::ExternCall &X, bool Grad) {
  const ir::ExternCall::Callee &C = *X.Batched;
  std::string P =
      "extern void " + X.Name + (Grad ? "_grad" : "_batched") + "(size_t";
  for (const ir::ExternCall::CalleeParam &Pa : C.Params)
    P += ", " + (Pa.Uniform ? Pa.CType : "const " + Pa.CType + " *");
  P += ", " + X.Ty + " *";
  if (Grad) {
    P += ", const " + X.Ty + " *";
    for (const ir::ExternCall::CalleeParam &Pa : C.Params)
      if (Pa.Shadow)
        P += ", " + Pa.CType + " *";
  }
  return P + ")";
}

} // namespace

std::string abiSymbol(const std::string &Name, bool Grad) {
  return "__bd_abi_" + Name + (Grad ? "_grad" : "_batched");
}

std::string batchedCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                        const std::function<std::string(int)> &Operand,
                        const std::string &Result, bool Declared,
                        const std::string &Pad, const std::string &Outs) {
  Shape Sh{Wide};
  const ir::ExternCall &X = F.Externs[S.IVal];
  const ir::ExternCall::Callee &C = *X.Batched;
  ir::Type Ty = F.Temps[S.Dst];
  std::vector<bool> Read = readPartials(F, S.Dst, X.Outs.size());
  bool Grad = false, Uniform = false;
  for (size_t K = 0; K < X.Outs.size(); ++K)
    Grad |= Read[K];
  // A BD_UNIFORM parameter takes one value per call, and its shadow sums
  // over the call's lanes: the lanes call together only where its argument
  // is one value for all of them and its partial is not read.
  for (size_t I = 0, K = 0; I < C.Params.size(); ++I) {
    bool Partial = K < X.Outs.size() && X.Outs[K].Partial == (int)I;
    Uniform |= C.Params[I].Uniform &&
               (F.VaryingTemp[S.Args[I]] || (Partial && Read[K]));
    K += Partial;
  }
  Grad |= !C.HasBatched; // (NAME_grad with no shadows: the value only)
  std::ostringstream OS;
  // Lanes that are off keep 0 in the result and the partials.
  OS << Pad << (Declared ? "" : Sh.vtype(Ty) + " ") << Result
     << (Declared ? "" : " __attribute__((unused))") << " = " << Sh.zero(Ty)
     << ";\n";
  std::vector<ir::Type> OutTy;
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    OutTy.push_back(F.Temps[S.Args[X.Outs[K].Partial]]);
    OS << Pad << Sh.vtype(OutTy[K]) << " " << Outs << K
       << " __attribute__((unused)) = " << Sh.zero(OutTy[K]) << ";\n";
  }
  OS << Pad << "{\n";
  std::string In = Pad + "  ";
  OS << In << prototype(X, Grad) << ";\n";
  // A reference to the symbol the callee's file defines for the ABI this
  // file's declaration gives: a header that does not match is a link error.
  std::string Abi = abiSymbol(X.Name, Grad);
  if (!C.SameFile)
    OS << In << "extern const char " << Abi
       << "[] __asm__(\"batchdiff.abi:" << (Grad ? C.AbiGrad : C.AbiBatched)
       << "\");\n"
       << In << "static const void *const " << Abi
       << "_ref __attribute__((used)) = " << Abi << ";\n";
  OS << In << Sh.mask() << " __bd_xm = " << Operand(S.Mask) << ";\n";
  // Each argument's lanes (a vector copied to a local, so that lanes can
  // be indexed) packed into an array of the parameter's C type.
  std::vector<std::string> Lane;
  for (size_t I = 0; I < S.Args.size(); ++I) {
    int A = S.Args[I];
    std::string V = "__bd_x" + std::to_string(I);
    if (!F.VaryingTemp[A]) {
      OS << In << scalarType(F.Temps[A]) << " " << V << " = " << Operand(A)
         << ";\n";
      Lane.push_back(V);
      continue;
    }
    OS << In << Sh.vtype(F.Temps[A]) << " " << V << " = " << Operand(A)
       << ";\n";
    Lane.push_back(F.Temps[A] == ir::Type::Bool ? "(" + V + "[__bd_l] != 0)"
                                                : V + "[__bd_l]");
  }
  std::string W = "(int)" + Sh.W();
  for (size_t I = 0; I < S.Args.size(); ++I)
    OS << In << C.Params[I].CType << " __bd_ca" << I << "[" << W << "];\n";
  OS << In << X.Ty << " __bd_cr[" << W << "];\n";
  for (size_t K = 0; K < X.Outs.size(); ++K)
    if (Read[K])
      OS << In << X.Outs[K].CType << " __bd_cd" << K << "[" << W
         << "] = {0};\n";
  // Every lane on (the common case): the vectors are the arrays, copied
  // whole; else the lanes that are on are packed.
  OS << In << "int __bd_cl[" << W << "], __bd_cn = 0, __bd_cf = bd_all_m"
     << Sh.S() << "(__bd_xm);\n";
  OS << In << "if (__bd_cf) {\n";
  for (size_t I = 0; I < S.Args.size(); ++I) {
    std::string A = "__bd_ca" + std::to_string(I);
    if (F.VaryingTemp[S.Args[I]] &&
        sameBits(F.Temps[S.Args[I]], C.Params[I].CType))
      OS << In << "  __builtin_memcpy(" << A << ", &__bd_x" << I << ", sizeof "
         << A << ");\n";
    else
      OS << In << "  for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n"
         << In << "    " << A << "[__bd_l] = " << Lane[I] << ";\n";
  }
  OS << In << "  __bd_cn = " << W << ";\n" << In << "} else\n";
  OS << In << "  for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n";
  OS << In << "    if (__bd_xm[__bd_l]) {\n";
  for (size_t I = 0; I < S.Args.size(); ++I)
    OS << In << "      __bd_ca" << I << "[__bd_cn] = " << Lane[I] << ";\n";
  OS << In << "      __bd_cl[__bd_cn++] = __bd_l;\n" << In << "    }\n";
  // One call for the packed lanes; with a uniform parameter, one per lane.
  std::string At = Uniform ? "[__bd_ci]" : "";
  std::string Ref = Uniform ? "&" : "";
  std::string Call = X.Name + (Grad ? "_grad(" : "_batched(") +
                     (Uniform ? "1" : "(size_t)__bd_cn");
  for (size_t I = 0; I < S.Args.size(); ++I)
    Call += !C.Params[I].Uniform
                ? ", " + Ref + "__bd_ca" + std::to_string(I) + At
            : Uniform ? ", __bd_ca" + std::to_string(I) + At
                      : ", __bd_x" + std::to_string(I);
  Call += ", " + Ref + "__bd_cr" + At;
  if (Grad) {
    Call += ", 0";
    size_t K = 0;
    for (size_t I = 0; I < C.Params.size(); ++I) {
      if (!C.Params[I].Shadow)
        continue;
      // The Outs are the shadowed parameters', in order, when partials are
      // made at all (LowerBatchedCall.cpp).
      bool Has = K < X.Outs.size() && X.Outs[K].Partial == (int)I && Read[K];
      Call += Has ? ", " + Ref + "__bd_cd" + std::to_string(K) + At : ", 0";
      K += K < X.Outs.size() && X.Outs[K].Partial == (int)I;
    }
  }
  Call += ")";
  if (Uniform)
    OS << In << "for (int __bd_ci = 0; __bd_ci < __bd_cn; __bd_ci++)\n"
       << In << "  " << Call << ";\n";
  else
    OS << In << "if (__bd_cn)\n" << In << "  " << Call << ";\n";
  // The results back into their lanes (whole vectors where every lane
  // called and the C type is the lanes').
  struct Copy {
    std::string To, From, Cast;
    bool Whole;
  };
  std::vector<Copy> Back{{Result, "__bd_cr",
                          "(" + std::string(scalarType(Ty)) + ")",
                          sameBits(Ty, X.Ty)}};
  for (size_t K = 0; K < X.Outs.size(); ++K)
    if (Read[K])
      Back.push_back({Outs + std::to_string(K), "__bd_cd" + std::to_string(K),
                      "", sameBits(OutTy[K], X.Outs[K].CType)});
  OS << In << "if (__bd_cf) {\n";
  for (const Copy &B : Back)
    if (B.Whole)
      OS << In << "  __builtin_memcpy(&" << B.To << ", " << B.From
         << ", sizeof " << B.From << ");\n";
    else
      OS << In << "  for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n"
         << In << "    " << B.To << "[__bd_l] = " << B.Cast << B.From
         << "[__bd_l];\n";
  OS << In << "} else\n";
  OS << In << "  for (int __bd_ci = 0; __bd_ci < __bd_cn; __bd_ci++) {\n";
  for (const Copy &B : Back)
    OS << In << "    " << B.To << "[__bd_cl[__bd_ci]] = " << B.Cast << B.From
       << "[__bd_ci];\n";
  OS << In << "  }\n" << Pad << "}\n";
  return OS.str();
}

} // namespace batchdiff
