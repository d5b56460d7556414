//===- ExternCall.cpp - per-lane calls of outside functions ---------------===//
#include "emit/ExternCall.h"
#include "emit/CText.h"

#include <sstream>

namespace batchdiff {

using namespace ctext;

std::string externCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                       const std::function<std::string(int)> &Operand,
                       const std::string &Result, bool Declared,
                       const std::string &Pad, const std::string &Outs,
                       const std::string &Chain) {
  Shape Sh{Wide};
  const ir::ExternCall &X = F.Externs[S.IVal];
  ir::Type Ty = F.Temps[S.Dst];
  std::ostringstream OS;
  // The result lanes of lanes that are off (and of a void call) are 0.
  OS << Pad << (Declared ? "" : Sh.vtype(Ty) + " ") << Result
     << (Declared ? "" : " __attribute__((unused))") << " = " << Sh.zero(Ty)
     << ";\n";
  // What the out-pointer arguments hold after the call: before it, their
  // values (lanes that make no call keep them).
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    int A = S.Args[X.Outs[K].Arg];
    ir::Type OT = F.Temps[A];
    OS << Pad << Sh.vtype(OT) << " " << Outs << K
       << " __attribute__((unused)) = "
       << (F.VaryingTemp[A] ? Operand(A)
                            : "bd_splat_" + Sh.sfx(OT) + "(" + Operand(A) + ")")
       << ";\n";
  }
  OS << Pad << "{\n";
  std::string In = Pad + "  ";
  if (!X.Decl.empty())
    OS << In << X.Decl << ";\n";
  // A static local table the call reads: a copy here (the generated code
  // cannot name the function's static).
  for (size_t K = 0; K < X.Tables.size(); ++K) {
    const ir::ExternCall::Table &T = X.Tables[K];
    OS << In << "static const " << T.CType << " __bd_tb" << K << "[" << T.Len
       << "] = " << T.Init << ";\n";
  }
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
  // "\x01k\x02": argument k's lane; "\x03k\x02": the address of out-pointer
  // k's scalar; "\x04k\x02": table k's copy; "\x05k\x02": the array of
  // BD_UNIFORM parameter k (the kernel's pointer, one for the batch);
  // "\x06k\x02": local array k's copy of the lane's elements; "\x07k\x02":
  // the lane's example's array of parameter k (the kernel's pointer plus
  // the lane's offset in elements); "\x08k\x02": the address of struct k.
  std::string Call;
  for (size_t I = 0; I < X.Call.size(); ++I) {
    char C = X.Call[I];
    if (C < '\x01' || C > '\x08' || C == '\x02') {
      Call += C;
      continue;
    }
    size_t End = X.Call.find('\x02', I);
    std::string K = X.Call.substr(I + 1, End - I - 1);
    Call += C == '\x01'   ? Lane[std::stoul(K)]
            : C == '\x03' ? "&__bd_o" + K
            : C == '\x04' ? "__bd_tb" + K
            : C == '\x05' ? "__bd_p" + K
            : C == '\x06' ? "__bd_la" + K
            : C == '\x08'
                ? "&__bd_s" + K
                : "(__bd_p" + K + " + __bd_po" + K + Chain + "[__bd_l])";
    I = End;
  }
  std::string Made =
      X.Ty == "void" ? Call
                     : Result + "[__bd_l] = (" + scalarType(Ty) + ")" + Call;
  OS << In << "for (int __bd_l = 0; __bd_l < (int)" << Sh.W()
     << "; __bd_l++)\n";
  if (X.Outs.empty() && X.Arrays.empty()) {
    OS << In << "  if (__bd_xm[__bd_l])\n" << In << "    " << Made << ";\n";
    OS << Pad << "}\n";
    return OS.str();
  }
  // Each out-pointer gets the address of a scalar of its C type holding the
  // lane's value; what the callee leaves there goes back into the lane.
  // Each local array, an array of the lane's elements.
  OS << In << "  if (__bd_xm[__bd_l]) {\n";
  for (size_t K = 0; K < X.Outs.size(); ++K)
    OS << In << "    " << X.Outs[K].CType << " __bd_o" << K << " = ("
       << X.Outs[K].CType << ")" << Lane[X.Outs[K].Arg] << ";\n";
  for (size_t K = 0; K < X.Arrays.size(); ++K) {
    const ir::ExternCall::Array &A = X.Arrays[K];
    OS << In << "    " << A.CType << " __bd_la" << K << "[" << A.Len << "] = {";
    for (int E = 0; E < A.Len; ++E)
      OS << (E ? ", " : "") << "(" << A.CType << ")" << Lane[A.First + E];
    OS << "};\n";
  }
  // Each struct, zeroed (its padding and members batchdiff does not
  // know), its members the lane's values.
  for (size_t K = 0; K < X.Structs.size(); ++K) {
    const ir::ExternCall::Struct &St = X.Structs[K];
    OS << In << "    " << St.CType << " __bd_s" << K << ";\n"
       << In << "    __builtin_memset(&__bd_s" << K << ", 0, sizeof __bd_s" << K
       << ");\n";
    for (const auto &[Path, O] : St.Members)
      OS << In << "    __bd_s" << K << Path << " = __bd_o" << O << ";\n";
  }
  // A global the function writes: the lane's value in it for the call,
  // what the call left read back, and its value from before put back
  // (only where the example has written it, with a Cond).
  auto If = [&](const ir::ExternCall::Out &O) {
    return O.Cond < 0 ? std::string() : "if (" + Lane[O.Cond] + ") ";
  };
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    if (O.Before)
      OS << In << "    " << O.CType << " __bd_gs" << K << " = " << O.After
         << ";\n"
         << In << "    " << If(O) << O.After << " = __bd_o" << K << ";\n";
  }
  OS << In << "    " << Made << ";\n";
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    if (O.Before)
      OS << In << "    " << If(O) << "{\n"
         << In << "      __bd_o" << K << " = " << O.After << ";\n"
         << In << "      " << O.After << " = __bd_gs" << K << ";\n"
         << In << "    }\n";
    else if (!O.After.empty())
      OS << In << "    __bd_o" << K << " = " << O.After << ";\n";
  }
  for (size_t K = 0; K < X.Structs.size(); ++K)
    for (const auto &[Path, O] : X.Structs[K].Members)
      OS << In << "    __bd_o" << O << " = __bd_s" << K << Path << ";\n";
  for (size_t K = 0; K < X.Outs.size(); ++K)
    OS << In << "    " << Outs << K << "[__bd_l] = __bd_o" << K << ";\n";
  OS << In << "  }\n";
  OS << Pad << "}\n";
  return OS.str();
}

} // namespace batchdiff
