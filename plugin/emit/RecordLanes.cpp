//===- RecordLanes.cpp - struct parameters' members across lanes ----------===//
#include "emit/RecordLanes.h"

#include <sstream>

namespace batchdiff {

using ir::Type;
using namespace ctext;

std::string gatherMember(const Shape &Sh, int &Buf, const std::string &Base,
                         const std::string &Idx, const std::string &Member,
                         Type T, const std::string &Dst,
                         const std::string &Default) {
  std::ostringstream OS;
  Type Lane = T == Type::Bool ? (Sh.Wide ? Type::I64 : Type::I32) : T;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  OS << "    " << Sh.vtype(T) << " " << Dst << ";\n    ";
  if (!Default.empty())
    OS << "if (!" << Base << ") " << Dst << " = " << Default << "; else ";
  OS << "{\n      " << scalarType(Lane) << " " << B << "[" << Sh.W()
     << "];\n      for (size_t __bd_j = 0; __bd_j < " << Sh.W()
     << "; __bd_j++)\n        " << B << "[__bd_j] = (" << scalarType(Lane)
     << ")(" << Base << ")[" << Idx << "]" << Member << ";\n      " << Dst
     << " = ";
  if (T == Type::Bool)
    OS << "bd_cmpne_" << Sh.sfx(Lane) << "(bd_load_" << Sh.sfx(Lane) << "(" << B
       << "), bd_splat_" << Sh.sfx(Lane) << "(0));\n";
  else
    OS << "bd_load_" << Sh.sfx(T) << "(" << B << ");\n";
  OS << "    }\n";
  return OS.str();
}

std::string scatterAddMember(const Shape &Sh, int &Buf, const std::string &Base,
                             const std::string &Idx, const std::string &Count,
                             const std::string &Member, Type T,
                             const std::string &Val) {
  std::ostringstream OS;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  OS << "{ " << scalarType(T) << " " << B << "[" << Sh.W() << "]; bd_store_"
     << Sh.sfx(T) << "(" << B << ", " << Val
     << "); for (size_t __bd_j = 0; __bd_j < " << Count << "; __bd_j++) ("
     << Base << ")[" << Idx << "]" << Member << " += " << B << "[__bd_j]; }";
  return OS.str();
}

std::string scatterMember(const Shape &Sh, int &Buf, const std::string &Base,
                          const std::string &Idx, const std::string &Count,
                          const std::string &Member, Type T,
                          const std::string &CType, const std::string &Val) {
  std::ostringstream OS;
  Type Lane = T == Type::Bool ? (Sh.Wide ? Type::I64 : Type::I32) : T;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  std::string V = T == Type::Bool ? "bd_cvt_m" + Sh.S() + "_" + Sh.sfx(Lane) +
                                        "(" + Val + ")"
                                  : Val;
  OS << "{ " << scalarType(Lane) << " " << B << "[" << Sh.W() << "]; bd_store_"
     << Sh.sfx(Lane) << "(" << B << ", " << V
     << "); for (size_t __bd_j = 0; __bd_j < " << Count << "; __bd_j++) ("
     << Base << ")[" << Idx << "]" << Member << " = (" << CType << ")" << B
     << "[__bd_j]; }";
  return OS.str();
}

} // namespace batchdiff
