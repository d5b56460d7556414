//===- ExternCall.cpp - per-lane calls of outside functions ---------------===//
#include "emit/ExternCall.h"
#include "emit/CText.h"

#include <sstream>

namespace batchdiff {

using namespace ctext;

std::string externCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                       const std::function<std::string(int)> &Operand,
                       const std::string &Result, bool Declared,
                       const std::string &Pad) {
  Shape Sh{Wide};
  const ir::ExternCall &X = F.Externs[S.IVal];
  ir::Type Ty = F.Temps[S.Dst];
  std::ostringstream OS;
  // The result lanes of lanes that are off (and of a void call) are 0.
  OS << Pad << (Declared ? "" : Sh.vtype(Ty) + " ") << Result
     << (Declared ? "" : " __attribute__((unused))") << " = " << Sh.zero(Ty)
     << ";\n";
  OS << Pad << "{\n";
  std::string In = Pad + "  ";
  if (!X.Decl.empty())
    OS << In << X.Decl << ";\n";
  // Vectors are copied into locals so that lanes can be indexed.
  OS << In << Sh.mask() << " __bd_xm = " << Operand(S.Mask) << ";\n";
  std::vector<std::string> Lane;
  for (size_t I = 0; I < S.Args.size(); ++I) {
    int A = S.Args[I];
    if (!F.VaryingTemp[A]) {
      Lane.push_back(Operand(A));
      continue;
    }
    std::string V = "__bd_x" + std::to_string(I);
    OS << In << Sh.vtype(F.Temps[A]) << " " << V << " = " << Operand(A)
       << ";\n";
    Lane.push_back(F.Temps[A] == ir::Type::Bool ? "(" + V + "[__bd_l] != 0)"
                                                : V + "[__bd_l]");
  }
  std::string Call;
  for (size_t I = 0; I < X.Call.size(); ++I) {
    if (X.Call[I] != '\x01') {
      Call += X.Call[I];
      continue;
    }
    size_t End = X.Call.find('\x02', I);
    Call += Lane[std::stoul(X.Call.substr(I + 1, End - I - 1))];
    I = End;
  }
  OS << In << "for (int __bd_l = 0; __bd_l < (int)" << Sh.W()
     << "; __bd_l++)\n";
  OS << In << "  if (__bd_xm[__bd_l])\n" << In << "    ";
  if (X.Ty == "void")
    OS << Call << ";\n";
  else
    OS << Result << "[__bd_l] = (" << scalarType(Ty) << ")" << Call << ";\n";
  OS << Pad << "}\n";
  return OS.str();
}

} // namespace batchdiff
