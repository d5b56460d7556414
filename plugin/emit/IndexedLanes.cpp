//===- IndexedLanes.cpp - lanes listed per step (BD_PACKED/POINTERS) ------===//
#include "emit/IndexedLanes.h"

#include <sstream>

namespace batchdiff {

using ir::Type;
using namespace ctext;

namespace {

/// Independent chains' suffix of names ("" with one chain).
std::string chain(unsigned IL, unsigned C) {
  return IL > 1 ? "_" + std::to_string(C) : "";
}

/// Example \p E's first element of array parameter \p I (\p Q 0) or of
/// its shadow array Q - 1, by the parameter's layout.
std::string elemPtr(const ir::Function &F, size_t I, int Q,
                    const std::string &E) {
  const ir::Param &P = F.Params[I];
  std::string B = Q ? shadowArrayName(Q - 1, I) : argName(I);
  if (P.Record >= 0 && P.Lay != ir::Layout::Strided) {
    // A member of packed records: that member of example E's first record.
    size_t R = (size_t)P.Record;
    std::string RB = Q ? shadowArrayName(Q - 1, R) : argName(R);
    std::string M = "->" + P.Member.substr(1);
    return P.Lay == ir::Layout::Offsets
               ? "&(" + RB + " + " + offsetsName(R) + "[" + E + "])" + M
               : "&(" + RB + "[" + E + "])" + M;
  }
  switch (P.Lay) {
  case ir::Layout::Offsets:
    return B + " + " + offsetsName(I) + "[" + E + "]";
  case ir::Layout::Pointers:
    return B + "[" + E + "]";
  case ir::Layout::Strided:
    break;
  }
  return B + " + (ptrdiff_t)" + E + " * " +
         (Q ? shadowArrayStride(Q - 1, I) : strideName(I));
}

/// The C element type of array \p Q of parameter \p P (as elemPtr):
/// const for what the function only reads; the narrow type of a char or
/// short input (its shadows, if any, have the lane type).
std::string arrayType(const ir::Param &P, Flavor Fl, int Q) {
  bool ReadOnly = Q ? isTangentArray(Fl, Q - 1) : true;
  return std::string(P.Writable || !ReadOnly ? "" : "const ") +
         (Q ? scalarType(P.Ty) : ctext::elemType(P));
}

/// Each varying array's (and shadow's) base is lane 0's first element, and
/// lane l's offset from it is a whole number of elements. When the distance
/// is not (pointers to unrelated arrays) or does not fit a 32-bit lane
/// offset (shape n), __bd_ok is cleared and the step runs one example
/// (whose offset is 0).
std::string laneOffsets(const ir::Function &F, Flavor Fl) {
  std::ostringstream OS;
  Shape Sh{F.Lanes.LaneBits == 64};
  unsigned IL = F.Lanes.Interleave;
  std::string IT = Sh.Wide ? "int64_t" : "int32_t";
  std::string Idx = Sh.Wide ? "i64d" : "i32n";
  std::string All = std::to_string(IL) + " * " + Sh.W();
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (P.Kind != ir::ParamKind::User || !P.IsArray || P.Uniform)
      continue;
    for (int Q = 0; Q <= numShadowArrays(Fl, P); ++Q) {
      std::string Pfx = indexedPrefix(Q), Num = std::to_string(I);
      std::string N = Pfx + Num;
      std::string T = arrayType(P, Fl, Q);
      OS << "        " << T << " *" << N << "l[" << All << "];\n";
      // A NULL shadow gets offsets 0 (the kernel does not touch it).
      std::string Ptr =
          "(" + T + " *)(" + elemPtr(F, I, Q, "__bd_e[__bd_j]") + ")";
      // (A member of an array of records: the record's shadow.)
      size_t Own =
          P.Record >= 0 && P.Lay != ir::Layout::Strided ? (size_t)P.Record : I;
      OS << "        for (size_t __bd_j = 0; __bd_j < " << All
         << "; __bd_j++)\n          " << N << "l[__bd_j] = "
         << (Q ? shadowArrayName(Q - 1, Own) + " ? " + Ptr + " : 0" : Ptr)
         << ";\n";
      OS << "        " << Pfx << "b" << Num << " = " << N << "l[0];\n";
      for (unsigned C = 0; C < IL; ++C) {
        std::string Lo = C ? std::to_string(C) + " * " + Sh.W() + " + " : "";
        OS << "        {\n          " << IT << " __bd_ot[" << Sh.W()
           << "];\n          for (size_t __bd_j = 0; __bd_j < " << Sh.W()
           << "; __bd_j++) {\n            intptr_t __bd_d = (intptr_t)" << N
           << "l[" << Lo << "__bd_j] - (intptr_t)" << N
           << "l[0];\n            if (__bd_d % (intptr_t)sizeof(" << T << ")";
        if (!Sh.Wide)
          OS << " || __bd_d / (intptr_t)sizeof(" << T
             << ") > 2147483647 || __bd_d / (intptr_t)sizeof(" << T
             << ") < -2147483647";
        OS << ")\n              __bd_ok = 0;\n            __bd_ot[__bd_j] = ("
           << IT << ")(__bd_d / (intptr_t)sizeof(" << T << "));\n          }\n"
           << "          " << Pfx << "o" << Num << chain(IL, C) << " = bd_load_"
           << Idx << "(__bd_ot);\n        }\n";
      }
    }
  }
  return OS.str();
}

} // namespace

std::string indexedPrefix(int Q) {
  static const char *const Names[] = {"__bd_p", "__bd_q", "__bd_qt", "__bd_qh"};
  return Names[Q];
}

std::string indexedLane(const Shape &Sh, unsigned Chain) {
  return "__bd_e[" +
         (Chain ? std::to_string(Chain) + " * " + Sh.W() + " + " : "") +
         "__bd_j]";
}

std::string gatherLanes(const Shape &Sh, unsigned Chain, int &Buf,
                        const std::string &Base, Type T, bool Native,
                        const std::string &Dst, const std::string &Default) {
  std::ostringstream OS;
  Type Lane = T == Type::Bool ? (Sh.Wide ? Type::I64 : Type::I32) : T;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  OS << "    " << Sh.vtype(T) << " " << Dst << ";\n    ";
  if (!Default.empty())
    OS << "if (!" << Base << ") " << Dst << " = " << Default << "; else ";
  OS << "{\n      " << scalarType(Lane) << " " << B << "[" << Sh.W()
     << "];\n      for (size_t __bd_j = 0; __bd_j < " << Sh.W()
     << "; __bd_j++)\n        " << B << "[__bd_j] = " << (Native ? "" : "(")
     << (Native ? "" : scalarType(Lane)) << (Native ? "" : ")") << "(" << Base
     << ")[" << indexedLane(Sh, Chain) << "];\n      " << Dst << " = ";
  if (T == Type::Bool)
    OS << "bd_cmpne_" << Sh.sfx(Lane) << "(bd_load_" << Sh.sfx(Lane) << "(" << B
       << "), bd_splat_" << Sh.sfx(Lane) << "(0));\n";
  else
    OS << "bd_load_" << Sh.sfx(T) << "(" << B << ");\n";
  OS << "    }\n";
  return OS.str();
}

std::string scatterLanes(const Shape &Sh, unsigned Chain,
                         const std::string &ChainSfx, int &Buf,
                         const std::string &Base, Type T, bool Native,
                         const std::string &CType, const std::string &Val) {
  std::ostringstream OS;
  Type Lane = T == Type::Bool ? (Sh.Wide ? Type::I64 : Type::I32) : T;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  std::string V = T == Type::Bool ? "bd_cvt_m" + Sh.S() + "_" + Sh.sfx(Lane) +
                                        "(" + Val + ")"
                                  : Val;
  OS << "{ " << scalarType(Lane) << " " << B << "[" << Sh.W() << "]; bd_store_"
     << Sh.sfx(Lane) << "(" << B << ", " << V
     << "); for (size_t __bd_j = 0; __bd_j < __bd_k" << ChainSfx
     << "; __bd_j++) (" << Base << ")[" << indexedLane(Sh, Chain)
     << "] = " << (Native ? "" : "(" + CType + ")") << B << "[__bd_j]; }";
  return OS.str();
}

std::string indexedLoop(const ir::Function &F, Flavor Fl,
                        const std::string &Chunk) {
  std::ostringstream OS;
  Shape Sh{F.Lanes.LaneBits == 64};
  unsigned IL = F.Lanes.Interleave;
  std::string All = std::to_string(IL) + " * " + Sh.W();
  int Key = sortKeyParam(F);
  OS << "  for (size_t __bd_s0 = __bd_lo; __bd_s0 < __bd_hi; __bd_s0 += "
        "BD_CHUNK) {\n"
     << "    size_t __bd_cnt = __bd_hi - __bd_s0 < BD_CHUNK ? __bd_hi - "
        "__bd_s0 : BD_CHUNK;\n";
  if (Key >= 0) {
    const ir::Param &K = F.Params[Key];
    OS << "    for (size_t __bd_j = 0; __bd_j < __bd_cnt; __bd_j++) {\n"
       << "      " << K.CType << " __bd_len = " << argName(Key)
       << "[__bd_s0 + __bd_j];\n"
       << "      __bd_ord[BD_CHUNK + __bd_j] = __bd_len > 0 ? (size_t)__bd_len "
          ": 0;\n    }\n"
       << "    bd_sort_by_length(__bd_cnt, __bd_ord + BD_CHUNK, __bd_ord, "
          "__bd_ord + 2 * BD_CHUNK);\n"
       << "    for (size_t __bd_j = 0; __bd_j < __bd_cnt; __bd_j++)\n"
       << "      __bd_ord[__bd_j] += __bd_s0;\n";
  } else {
    OS << "    for (size_t __bd_j = 0; __bd_j < __bd_cnt; __bd_j++)\n"
       << "      __bd_ord[__bd_j] = __bd_s0 + __bd_j;\n";
  }
  OS << "    size_t __bd_k;\n"
     << "    for (size_t __bd_at = 0; __bd_at < __bd_cnt; __bd_at += __bd_k) "
        "{\n"
     << "      __bd_k = __bd_cnt - __bd_at < __bd_w ? __bd_cnt - __bd_at : "
        "__bd_w;\n"
     << "      size_t __bd_e[" << All << "];\n";
  std::string IdxT = Sh.Wide ? "bd_i64d" : "bd_i32n";
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (P.Kind != ir::ParamKind::User || !P.IsArray || P.Uniform)
      continue;
    for (int Q = 0; Q <= numShadowArrays(Fl, P); ++Q) {
      std::string T = arrayType(P, Fl, Q);
      std::string N = indexedPrefix(Q);
      OS << "      " << T << " *" << N << "b" << I << ";\n";
      for (unsigned C = 0; C < IL; ++C)
        OS << "      " << IdxT << " " << N << "o" << I << chain(IL, C) << ";\n";
    }
  }
  OS << "      for (;;) {\n"
     << "        for (size_t __bd_j = 0; __bd_j < " << All << "; __bd_j++)\n"
     << "          __bd_e[__bd_j] = __bd_ord[__bd_at + (__bd_j < __bd_k ? "
        "__bd_j : 0)];\n"
     << "        int __bd_ok = 1;\n"
     << laneOffsets(F, Fl) << "        if (__bd_ok)\n          break;\n"
     << "        __bd_k = 1;\n      }\n";
  if (IL == 1)
    OS << "      int __bd_full = __bd_k == " << Sh.W() << ";\n";
  OS << Chunk;
  OS << "    }\n  }\n";
  return OS.str();
}

} // namespace batchdiff
