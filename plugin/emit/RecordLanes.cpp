//===- RecordLanes.cpp - struct parameters' members across lanes ----------===//
#include "emit/RecordLanes.h"

#include <functional>
#include <sstream>

namespace batchdiff {

using ir::Type;
using namespace ctext;

std::string gatherMember(const Shape &Sh, int &Buf, const std::string &Base,
                         const std::string &Idx, const std::string &Member,
                         Type T, const std::string &Dst,
                         const std::string &Default, bool Declare) {
  std::ostringstream OS;
  Type Lane = T == Type::Bool ? (Sh.Wide ? Type::I64 : Type::I32) : T;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  if (Declare)
    OS << "    " << Sh.vtype(T) << " " << Dst << ";\n";
  OS << "    ";
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

std::vector<size_t> denseMembersOf(const ir::Function &F, size_t I) {
  int R = F.Params[I].Record;
  std::vector<size_t> G;
  for (size_t J = 0; R >= 0 && F.Params[R].Dense && J < F.Params.size(); ++J)
    if (F.Params[J].Record == R && !F.Params[J].IsArray &&
        F.Params[J].Ty == F.Params[I].Ty)
      G.push_back(J);
  if (R < 0 || (int)G.size() != F.Params[R].Dense)
    G.clear();
  return G;
}

std::vector<size_t> denseTangentsOf(const ir::Function &F, size_t I) {
  const ir::Param &P = F.Params[I];
  std::vector<size_t> M = denseMembersOf(F, P.Of), G;
  for (size_t Of : M)
    for (size_t J = 0; J < F.Params.size(); ++J)
      if (F.Params[J].Kind == ir::ParamKind::Tangent &&
          (size_t)F.Params[J].Of == Of &&
          (F.Params[J].Shadows & 2) == (P.Shadows & 2)) {
        G.push_back(J);
        break;
      }
  if (G.size() != M.size() || M.empty())
    G.clear();
  return G;
}

std::vector<size_t> denseSeedsOf(const ir::Function &F) {
  std::vector<size_t> G;
  for (size_t J = 0; J < F.Params.size() && F.RetDense; ++J)
    if (F.Params[J].Kind == ir::ParamKind::Seed && !F.Params[J].Member.empty())
      G.push_back(J);
  if ((int)G.size() != F.RetDense)
    G.clear();
  return G;
}

int retMembers(const ir::Function &F, ir::OutKind K) {
  int N = 0;
  for (const ir::Output &O : F.Outputs)
    N += O.Kind == K && !O.Member.empty();
  return N;
}

std::string denseIn(const Shape &Sh, int &Buf, const DenseRecords &D,
                    const std::string &Idx,
                    const std::vector<std::string> &Members, Type T,
                    const std::vector<std::string> &Dst,
                    const std::string &Default) {
  std::ostringstream OS;
  std::string M = std::to_string(Members.size()), Sfx = Sh.sfx(T);
  OS << "    " << Sh.vtype(T);
  for (size_t K = 0; K < Dst.size(); ++K)
    OS << (K ? ", " : " ") << Dst[K];
  OS << ";\n    ";
  if (!Default.empty()) {
    OS << "if (!" << D.Base << ") {\n";
    for (const std::string &V : Dst)
      OS << "      " << V << " = " << Default << ";\n";
    OS << "    } else ";
  }
  std::string P = std::string("(const ") + scalarType(T) + " *)(" + D.Base +
                  " + " + D.First + ")";
  if (Members.size() > AosMaxMembers) {
    // More members than aos.h's record transposes take: the W records as
    // W rows of M elements (bd_rows_load: blocks of W, each transposed).
    std::string R = "__bd_rows" + std::to_string(++Buf);
    OS << "if (" << D.Full << ") {\n      " << Sh.vtype(T) << " " << R << "["
       << M << "];\n      bd_rows_load_" << Sfx << "(" << P << ", " << M << ", "
       << M << ", " << R << ", 1);\n";
    for (size_t K = 0; K < Dst.size(); ++K)
      OS << "      " << Dst[K] << " = " << R << "[" << K << "];\n";
    OS << "    } else {\n";
  } else {
    OS << "if (" << D.Full << ")\n      bd_aos_load" << M << "_" << Sfx << "("
       << P;
    for (const std::string &V : Dst)
      OS << ", &" << V;
    OS << ");\n    else {\n";
  }
  for (size_t K = 0; K < Dst.size(); ++K)
    OS << gatherMember(Sh, Buf, D.Base, Idx, Members[K], T, Dst[K], "", false);
  OS << "    }\n";
  return OS.str();
}

std::string denseOut(const Shape &Sh, int &Buf, const DenseRecords &D,
                     const std::string &Idx, const std::string &Count,
                     const std::vector<std::string> &Members, Type T,
                     const std::string &CType,
                     const std::vector<std::string> &Val, bool Add) {
  std::ostringstream OS;
  std::string M = std::to_string(Members.size()), Sfx = Sh.sfx(T);
  std::string E = scalarType(T),
              P = "(" + E + " *)(" + D.Base + " + " + D.First + ")";
  OS << "{\n      if (" << D.Full << ") {\n";
  std::vector<std::string> Old;
  if (Members.size() > AosMaxMembers) {
    // As in denseIn: rows of M elements (bd_rows_load, bd_rows_store).
    std::string R = "__bd_rows" + std::to_string(++Buf);
    OS << "        " << Sh.vtype(T) << " " << R << "[" << M << "];\n";
    if (Add)
      OS << "        bd_rows_load_" << Sfx << "(" << P << ", " << M << ", " << M
         << ", " << R << ", 1);\n";
    for (size_t K = 0; K < Members.size(); ++K)
      if (!Add || !Val[K].empty())
        OS << "        " << R << "[" << K << "] = "
           << (Add ? "bd_add_" + Sfx + "(" + R + "[" + std::to_string(K) +
                         "], " + Val[K] + ")"
                   : Val[K])
           << ";\n";
    OS << "        bd_rows_store_" << Sfx << "(" << P << ", " << M << ", " << M
       << ", " << R << ", 1);\n      } else {\n";
  } else {
    if (Add) {
      // Members without a value keep theirs, bit for bit.
      OS << "        " << Sh.vtype(T);
      for (size_t K = 0; K < Members.size(); ++K) {
        Old.push_back("__bd_old" + std::to_string(++Buf));
        OS << (K ? ", " : " ") << Old.back();
      }
      OS << ";\n        bd_aos_load" << M << "_" << Sfx << "(" << P;
      for (const std::string &V : Old)
        OS << ", &" << V;
      OS << ");\n";
    }
    OS << "        bd_aos_store" << M << "_" << Sfx << "(" << P;
    for (size_t K = 0; K < Members.size(); ++K)
      OS << ", "
         << (!Add ? Val[K]
             : Val[K].empty()
                 ? Old[K]
                 : "bd_add_" + Sfx + "(" + Old[K] + ", " + Val[K] + ")");
    OS << ");\n      } else {\n";
  }
  for (size_t K = 0; K < Members.size(); ++K)
    if (!Val[K].empty())
      OS << "        "
         << (Add ? scatterAddMember(Sh, Buf, D.Base, Idx, Count, Members[K], T,
                                    Val[K])
                 : scatterMember(Sh, Buf, D.Base, Idx, Count, Members[K], T,
                                 CType, Val[K]))
         << "\n";
  OS << "      }\n    }";
  return OS.str();
}

/// Each member m of an array of records as an array of its own: its
/// base &p->m and its stride in elements of m, p_stride * (sizeof(record)
/// / sizeof(m)) (docs/abi.md "Structs"); shadows and tangents alike.
std::string
memberArrays(const ir::Function &F, int NumShadows,
             const std::function<std::string(int, size_t)> &Ptr,
             const std::function<std::string(int, size_t)> &PtrStride) {
  std::ostringstream OS;
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (P.Record < 0 || !P.IsArray)
      continue;
    size_t R = (size_t)P.Record;
    std::string T = scalarType(P.Ty);
    std::string Per =
        " * (ptrdiff_t)(sizeof(" + F.Params[R].CType + ") / sizeof(" + T + "))";
    std::string M = "->" + P.Member.substr(1);
    auto Base = [&](const std::string &Dst, const std::string &Src) {
      OS << "  " << T << " *" << Dst << " = " << Src << " ? (" << T << " *)&("
         << Src << ")" << M << " : 0;\n  (void)" << Dst << ";\n";
    };
    auto Stride = [&](const std::string &Dst, const std::string &Src) {
      OS << "  ptrdiff_t " << Dst << " = " << Src << Per << ";\n  (void)" << Dst
         << ";\n";
    };
    if (P.Lay != ir::Layout::Strided) {
      // Lanes address packed records themselves (IndexedLanes.cpp); these
      // locals only flag a given shadow or tangent, never dereferenced.
      OS << "  const void *" << argName(I) << " = " << argName(R)
         << ";\n  (void)" << argName(I) << ";\n";
      for (int K = 0; hasShadowParam(P) && K < NumShadows; ++K)
        OS << "  const void *" << Ptr(K, I) << " = " << Ptr(K, R)
           << ";\n  (void)" << Ptr(K, I) << ";\n";
      continue;
    }
    Base(argName(I), argName(R));
    if (!P.Uniform)
      Stride(strideName(I), strideName(R));
    for (int K = 0; hasShadowParam(P) && K < NumShadows; ++K) {
      Base(Ptr(K, I), Ptr(K, R));
      if (!P.Uniform)
        Stride(PtrStride(K, I), PtrStride(K, R));
    }
  }
  return OS.str();
}

} // namespace batchdiff
