//===- Wrapper.cpp - the exported NAME_batched / _grad / _jvp -------------===//
#include "emit/Wrapper.h"
#include "emit/BatchedCall.h"
#include "emit/WrapperEmitter.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <sstream>

namespace batchdiff {
namespace wrapper {

std::vector<WrapperEmitter::Decl> WrapperEmitter::params(bool Reserved) const {
  std::vector<Decl> Ds;
  // User-facing names must not collide with the parameters' own names.
  std::vector<std::string> Taken;
  for (const ir::Param &P : F.Params)
    if (P.Kind == ir::ParamKind::User || P.Kind == ir::ParamKind::Record)
      Taken.push_back(P.Name);
  auto Fresh = [&](std::string N) {
    while (std::find(Taken.begin(), Taken.end(), N) != Taken.end())
      N += "_";
    Taken.push_back(N);
    return N;
  };
  auto Nm = [&](const std::string &R, const std::string &U) {
    return Reserved ? R : Fresh(U);
  };
  Ds.push_back({"size_t ", Nm("__bd_n", "n")});
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    std::string N = Reserved ? arg(I) : P.Name;
    if (P.Kind == ir::ParamKind::Record && P.IsArray) {
      std::string C = P.Writable ? "" : "const ";
      Ds.push_back(
          {C + P.CType + (P.Lay == ir::Layout::Pointers ? " *const *" : " *"),
           N});
      if (P.Lay == ir::Layout::Offsets)
        Ds.push_back({"const size_t *", Nm(offs(I), P.Name + "_off")});
      else if (!P.Uniform && P.Lay == ir::Layout::Strided)
        Ds.push_back({"ptrdiff_t ", Nm(stride(I), P.Name + "_stride")});
      continue;
    }
    if (P.Kind == ir::ParamKind::Record) {
      Ds.push_back({P.Uniform ? P.CType + " " : "const " + P.CType + " *", N});
      continue;
    }
    if (P.Kind != ir::ParamKind::User || P.Record >= 0)
      continue;
    if (P.IsArray) {
      std::string C = P.Writable ? "" : "const ";
      if (P.Lay == ir::Layout::Pointers)
        Ds.push_back({C + P.CType + " *const *", N});
      else
        Ds.push_back({C + P.CType + " *", N});
      if (P.Lay == ir::Layout::Offsets)
        Ds.push_back({"const size_t *", Nm(offs(I), P.Name + "_off")});
      else if (!P.Uniform && P.Lay == ir::Layout::Strided)
        Ds.push_back({"ptrdiff_t ", Nm(stride(I), P.Name + "_stride")});
    } else if (P.Uniform) {
      Ds.push_back({P.CType + " ", N});
    } else {
      Ds.push_back({"const " + P.CType + " *", N});
    }
  }
  if (Jvp || Hvp)
    tangentParams(Ds, Nm, Hvp ? 1 : 0);
  if (F.RetTy != Type::Void)
    Ds.push_back({F.RetCType + " *", Nm("__bd_ret", "ret")});
  // An integer return value (with floating outputs) has no seed or tangent;
  // a struct's RetTy is a floating type when any member is.
  bool DRet = ir::isFloat(F.RetTy);
  if (Jvp && DRet)
    Ds.push_back({F.RetCType + " *", Nm("__bd_dret", "d_ret")});
  if (Grad || Hvp) {
    if (DRet)
      Ds.push_back({"const " + F.RetCType + " *", Nm("__bd_dret", "d_ret")});
    shadowParams(Ds, Nm, 0, "d_");
  }
  if (Hvp)
    shadowParams(Ds, Nm, 2, "h_");
  return Ds;
}

/// One shadow (array K) per differentiable parameter, in parameter order.
void WrapperEmitter::shadowParams(
    std::vector<Decl> &Ds,
    const std::function<std::string(std::string, std::string)> &Nm, int K,
    const std::string &Prefix) const {
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (!abiShadow(I))
      continue;
    Ds.push_back(
        {P.CType + (P.Lay == ir::Layout::Pointers ? " *const *" : " *"),
         Nm(ptr(K, I), Prefix + P.Name)});
    if (P.IsArray && !P.Uniform && P.Lay == ir::Layout::Strided)
      Ds.push_back(
          {"ptrdiff_t ", Nm(ptrStride(K, I), Prefix + P.Name + "_stride")});
  }
}

std::vector<WrapperEmitter::GlobalDecl> WrapperEmitter::globals() const {
  std::vector<GlobalDecl> Gs;
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (P.Kind != ir::ParamKind::Global)
      continue;
    std::string T = ctext::elemType(P);
    if (P.IsArray)
      Gs.push_back({"const " + T + " *", arg(I),
                    "(const " + T + " *)" + (P.Addr.empty() ? P.Name : P.Addr),
                    P.InPlace});
    else
      Gs.push_back({P.CType + " ", arg(I), P.Name, P.InPlace});
  }
  // The batch size, for the chunk that ends it to set written globals
  // (those written on every path).
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    if (F.Outputs[I].Kind == ir::OutKind::Global && writtenFlag(I) < 0) {
      Gs.push_back({"size_t ", "__bd_nall", "__bd_n", false});
      break;
    }
  return Gs;
}

/// NAME_jvp's and NAME_hvp's tangents (array K): one per differentiable
/// parameter, in parameter order, laid out as NAME_grad's shadows; const
/// unless the array is written.
void WrapperEmitter::tangentParams(
    std::vector<Decl> &Ds,
    const std::function<std::string(std::string, std::string)> &Nm,
    int K) const {
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (!abiShadow(I))
      continue;
    Ds.push_back({(P.IsArray && P.Writable ? "" : "const ") + P.CType +
                      (P.Lay == ir::Layout::Pointers ? " *const *" : " *"),
                  Nm(ptr(K, I), "t_" + P.Name)});
    if (P.IsArray && !P.Uniform && P.Lay == ir::Layout::Strided)
      Ds.push_back(
          {"ptrdiff_t ", Nm(ptrStride(K, I), "t_" + P.Name + "_stride")});
  }
}

std::string WrapperEmitter::prototype(bool Reserved) const {
  std::ostringstream OS;
  OS << (Static ? "static __attribute__((unused)) " : "") << "void " << F.Name
     << (Grad  ? "_grad"
         : Jvp ? "_jvp"
         : Hvp ? "_hvp"
               : "_batched")
     << "(";
  std::vector<Decl> Ds = params(Reserved);
  for (size_t I = 0; I < Ds.size(); ++I)
    OS << (I ? ", " : "") << Ds[I].Type << Ds[I].Name;
  OS << ")";
  return OS.str();
}

std::string WrapperEmitter::load(const std::string &Ptr, Type T, bool Native,
                                 const std::string &Count,
                                 const std::string &Dst,
                                 const std::string &IfNull) {
  std::ostringstream OS;
  std::string Sfx = Sh.sfx(T);
  std::string Ty = Sh.vtype(T) + " ";
  if (Assign == 1)
    Decls += "    " + Ty + Dst + ";\n";
  if (Assign)
    Ty.clear();
  if (Native) {
    addStream(Ptr, T, false);
    std::string P = "(const " + std::string(scalarType(T)) + " *)(" + Ptr + ")";
    OS << "    " << Ty << Dst << " = " << IfNull << "__bd_full" << CS
       << " ? bd_load_" << Sfx << "(" << P << ") : bd_loadn_" << Sfx << "(" << P
       << ", " << Count << ");\n";
    return OS.str();
  }
  // Narrow and _Bool elements: widen through a lane buffer.
  Type Lane = T == Type::Bool ? (Sh.Wide ? Type::I64 : Type::I32) : T;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  OS << "    " << scalarType(Lane) << " " << B << "[" << Sh.W() << "];\n"
     << "    for (size_t __bd_j = 0; __bd_j < " << Sh.W() << "; __bd_j++)\n"
     << "      " << B << "[__bd_j] = (" << scalarType(Lane) << ")(" << Ptr
     << ")[__bd_j < " << Count << " ? __bd_j : 0];\n";
  if (T == Type::Bool)
    OS << "    " << Ty << Dst << " = bd_cmpne_" << Sh.sfx(Lane) << "(bd_load_"
       << Sh.sfx(Lane) << "(" << B << "), bd_splat_" << Sh.sfx(Lane)
       << "(0));\n";
  else
    OS << "    " << Ty << Dst << " = bd_load_" << Sfx << "(" << B << ");\n";
  return OS.str();
}

std::string WrapperEmitter::store(const std::string &Ptr, Type T, bool Native,
                                  const std::string &CType,
                                  const std::string &Val) {
  std::ostringstream OS;
  if (Native) {
    addStream(Ptr, T, true);
    std::string P = "(" + std::string(scalarType(T)) + " *)(" + Ptr + ")";
    OS << "{ if (__bd_full" << CS << ") bd_store_" << Sh.sfx(T) << "(" << P
       << ", " << Val << "); else bd_storen_" << Sh.sfx(T) << "(" << P << ", "
       << Val << ", __bd_k" << CS << "); }";
    return OS.str();
  }
  Type Lane = T == Type::Bool ? (Sh.Wide ? Type::I64 : Type::I32) : T;
  std::string B = "__bd_buf" + std::to_string(++Buf);
  std::string V = T == Type::Bool ? "bd_cvt_m" + Sh.S() + "_" + Sh.sfx(Lane) +
                                        "(" + Val + ")"
                                  : Val;
  OS << "{ " << scalarType(Lane) << " " << B << "[" << Sh.W() << "]; bd_store_"
     << Sh.sfx(Lane) << "(" << B << ", " << V
     << "); for (size_t __bd_j = 0; __bd_j < __bd_k" << CS << "; __bd_j++) ("
     << Ptr << ")[__bd_j] = (" << CType << ")" << B << "[__bd_j]; }";
  return OS.str();
}

/// A pointer "base + __bd_i<chain>" (base a name) reads or writes one
/// example after another: a stream.
void WrapperEmitter::addStream(const std::string &Ptr, Type T, bool Write) {
  std::string Tail = " + __bd_i" + CS;
  int Bytes = T == Type::F64 || T == Type::I64 || T == Type::U64   ? 8
              : T == Type::F32 || T == Type::I32 || T == Type::U32 ? 4
                                                                   : 0;
  if (Ix || !Bytes || Ptr.size() <= Tail.size() ||
      Ptr.compare(Ptr.size() - Tail.size(), Tail.size(), Tail) != 0)
    return;
  std::string Base = Ptr.substr(0, Ptr.size() - Tail.size());
  if (Base.find_first_not_of("_abcdefghijklmnopqrstuvwxyz0123456789") !=
      std::string::npos)
    return;
  auto &S = Streams[Base];
  S.first = Bytes;
  S.second |= Write;
}

/// Prefetches of the streams' step about 1 KB ahead (gen_support.h), where
/// it is before the chunk's end: one test per step; the user's parameters'
/// arrays and NAME_batched's ret are never NULL (docs/abi.md), the other
/// flavors' ret and the shadows may be. Not for more than
/// 8 streams: reproj's gradient and tangent (20 each, about 10 ns of work
/// per example) ran 10% slower with them (docs/performance.md).
std::string WrapperEmitter::prefetches() const {
  if (Streams.empty() || Streams.size() > 8)
    return "";
  int Min = 8;
  for (const auto &KV : Streams)
    Min = std::min(Min, KV.second.first);
  std::string Ahead = std::to_string(1024 / Min);
  std::ostringstream OS;
  OS << "    if (__bd_i + " << Ahead << " + " << step() << " <= __bd_hi) {\n";
  for (const auto &KV : Streams) {
    const std::string &P = KV.first;
    std::string Es = std::to_string(KV.second.first);
    bool Param = (P.compare(0, 6, "__bd_a") == 0 &&
                  P.find_first_not_of("0123456789", 6) == std::string::npos) ||
                 (P == "__bd_ret" && Fl == Flavor::Batched);
    OS << "      " << (Param ? "" : "if (" + P + ") ") << "bd_prefetch_"
       << (KV.second.second ? "w" : "r") << "(" << P << ", (__bd_i + " << Ahead
       << ") * " << Es << ", " << step() << " * " << Es << ");\n";
  }
  OS << "    }\n";
  return OS.str();
}

/// Chain C's count __bd_k_C, __bd_full_C and first example __bd_i_C of a
/// step of IL chains: constants when \p Full (every chain full), else from
/// __bd_k (a chain with none reads at the chunk's first example).
std::string WrapperEmitter::counts(bool Full) const {
  std::ostringstream OS;
  if (IL == 1)
    return "";
  for (unsigned C = 0; C < IL; ++C) {
    std::string K = "__bd_k" + chain(C), W = Sh.W();
    std::string Lo = std::to_string(C) + " * " + W;
    if (Full) { // (wholeSteps: not Ix)
      std::string I = "__bd_i" + chain(C), Fu = "__bd_full" + chain(C);
      OS << "    size_t " << K << " = " << W << ", " << I << " = __bd_i + "
         << Lo << ";\n    int " << Fu << " = 1;\n    (void)" << K << ", (void)"
         << I << ", (void)" << Fu << ";\n";
      continue;
    }
    if (C == 0)
      OS << "    size_t " << K << " = __bd_k < " << W << " ? __bd_k : " << W
         << ";\n";
    else
      OS << "    size_t " << K << " = __bd_k <= " << Lo << " ? 0 : __bd_k - "
         << Lo << " < " << W << " ? __bd_k - " << Lo << " : " << W << ";\n";
    OS << "    int __bd_full" << chain(C) << " = " << K << " == " << W << ";\n";
    if (Ix)
      continue; // lanes are listed in __bd_e
    OS << "    size_t __bd_i" << chain(C) << " = __bd_i";
    if (C)
      OS << " + (" << K << " ? " << Lo << " : 0)";
    OS << ";\n";
  }
  return OS.str();
}

/// Each chain's mask of examples (declared in Decls when Assign).
std::string WrapperEmitter::masks() {
  std::ostringstream OS;
  std::string M = Sh.mask() + " ";
  for (unsigned C = 0; C < IL; ++C) {
    if (Assign == 1)
      Decls += "    " + M + "__bd_mk" + chain(C) + ";\n";
    OS << "    " << (Assign ? "" : M) << "__bd_mk" << chain(C) << " = __bd_full"
       << chain(C) << " ? bd_mtrue_" << Sh.S() << "() : bd_mfirst_" << Sh.S()
       << "(__bd_k" << chain(C) << ");\n";
  }
  return OS.str();
}

/// Whether a step whose chains are all full takes its own path to the one
/// kernel call (chunk()): with 4 chains (2-5% faster at 32 and 64 bytes;
/// with 2, gradients ran up to 4% slower at 64 bytes), when every input is
/// read by load() or not per chain.
bool WrapperEmitter::wholeSteps() const {
  if (IL < 4 || Ix)
    return false;
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (P.Kind == ir::ParamKind::Seed && !P.Member.empty())
      return false;
    if (P.Kind == ir::ParamKind::Tangent && !P.Uniform &&
        !F.Params[P.Of].Member.empty())
      return false;
    if (P.Kind != ir::ParamKind::Tangent && P.Kind != ir::ParamKind::Seed &&
        member(I) && !P.Uniform)
      return false;
  }
  return true;
}

/// Dense group \p G of the current chain (RecordLanes.h), read at its first
/// member: member J (\p Tangents: the member J is the tangent of) of the
/// records at \p Base into Dst<J> for each J, \p Default where \p Base is
/// NULL.
std::string WrapperEmitter::denseGroupIn(const std::vector<size_t> &G,
                                         bool Tangents, const std::string &Base,
                                         const std::string &Dst, Type T,
                                         const std::string &Default) {
  std::vector<std::string> Ms, Ds;
  for (size_t J : G) {
    Ms.push_back(F.Params[Tangents ? F.Params[J].Of : J].Member);
    Ds.push_back(Dst + std::to_string(J) + CS);
  }
  return denseIn(Sh, Buf, dense(Base), recordIdx(true), Ms, T, Ds, Default);
}

/// The seed of a gradient's return value (NULL means ones), per chain.
void WrapperEmitter::seedInput(size_t I, std::vector<std::string> &KArgs,
                               std::ostringstream &OS) {
  const ir::Param &P = F.Params[I];
  for (unsigned C = 0; C < IL; ++C) {
    CS = chain(C);
    CI = C;
    std::string Ld =
        "__bd_seed" + (P.Member.empty() ? "" : std::to_string(I)) + CS;
    // The seed is read only if given; NULL means ones.
    std::string One = "bd_splat_" + Sh.sfx(P.Ty) + "(1)";
    std::vector<size_t> G = denseSeeds();
    if (!P.Member.empty() && !G.empty()) {
      KArgs.push_back(Ld);
      if (G[0] != I)
        continue; // read with the record's first member
      OS << denseGroupIn(G, false, "__bd_dret", "__bd_seed", P.Ty, One);
      continue;
    }
    if (!P.Member.empty()) { // a member of the seed records
      OS << gatherMember(Sh, Buf, "__bd_dret", recordIdx(true), P.Member, P.Ty,
                         Ld, One);
      KArgs.push_back(Ld);
      continue;
    }
    OS << (Ix ? loadIx("__bd_dret", P.Ty, true, Ld, One)
              : load("__bd_dret + __bd_i" + CS, P.Ty, true, "__bd_k" + CS, Ld,
                     "!__bd_dret ? " + One + " : "));
    KArgs.push_back(Ld);
  }
}

/// A scalar parameter's tangent: 0 where the caller passed NULL.
void WrapperEmitter::tangentInput(size_t I, std::vector<std::string> &KArgs,
                                  std::ostringstream &OS) {
  const ir::Param &P = F.Params[I];
  std::string T = ptr(P.Shadows & 2 ? 1 : 0, P.Of), Sc = scalarType(P.Ty);
  const std::string &Mb = F.Params[P.Of].Member;
  if (!Mb.empty() && P.Uniform) {
    KArgs.push_back("(" + T + " ? (" + Sc + ")(*" + T + ")" + Mb + " : (" + Sc +
                    ")0)");
  } else if (!Mb.empty()) {
    std::vector<size_t> G = denseTangents(I);
    for (unsigned C = 0; C < IL; ++C) {
      CS = chain(C);
      CI = C;
      std::string Dst = "__bd_x" + std::to_string(I) + CS;
      std::string Zero = "bd_splat_" + Sh.sfx(P.Ty) + "(0)";
      KArgs.push_back(Dst);
      if (G.empty()) {
        OS << gatherMember(Sh, Buf, T, recordIdx(true), Mb, P.Ty, Dst, Zero);
        continue;
      }
      if (G[0] != I)
        continue; // read with the record's first member
      OS << denseGroupIn(G, true, T, "__bd_x", P.Ty, Zero);
    }
  } else if (P.Uniform) {
    KArgs.push_back("(" + T + " ? (" + Sc + ")*" + T + " : (" + Sc + ")0)");
  } else {
    for (unsigned C = 0; C < IL; ++C) {
      CS = chain(C);
      CI = C;
      std::string Dst = "__bd_x" + std::to_string(I) + CS;
      std::string Zero = "bd_splat_" + Sh.sfx(P.Ty) + "(0)";
      OS << (Ix ? loadIx(T, P.Ty, true, Dst, Zero)
                : load(T + " + __bd_i" + CS, P.Ty, true, "__bd_k" + CS, Dst,
                       "!" + T + " ? " + Zero + " : "));
      KArgs.push_back(Dst);
    }
  }
}

/// A varying member of a struct parameter, per chain: gathered alone or
/// with its dense group.
void WrapperEmitter::memberInput(size_t I, std::vector<std::string> &KArgs,
                                 std::ostringstream &OS) {
  const ir::Param &P = F.Params[I];
  std::vector<size_t> G = denseGroup(I);
  for (unsigned C = 0; C < IL; ++C) {
    CS = chain(C);
    CI = C;
    std::string Dst = "__bd_x" + std::to_string(I) + CS;
    KArgs.push_back(Dst);
    if (G.empty()) {
      OS << gatherMember(Sh, Buf, arg(P.Record), recordIdx(true), P.Member,
                         P.Ty, Dst);
      continue;
    }
    if (G[0] != I)
      continue; // read with the record's first member
    OS << denseGroupIn(G, false, arg(P.Record), "__bd_x", P.Ty);
  }
}

/// An array parameter: the chunk's first example and the stride (or, with
/// indexed lanes, the base and per-chain lane offsets), its shadows alike.
void WrapperEmitter::arrayArgs(size_t I, std::vector<std::string> &KArgs) {
  const ir::Param &P = F.Params[I];
  if (Ix && !P.Uniform) {
    // Lane offsets from the wrapper's laneOffsets().
    std::string N = std::to_string(I);
    KArgs.push_back("__bd_pb" + N);
    for (unsigned C = 0; C < IL; ++C)
      KArgs.push_back("__bd_po" + N + chain(C));
    for (int K = 0; K < numShadowArrays(Fl, P); ++K) {
      KArgs.push_back(indexedPrefix(K + 1) + "b" + N);
      for (unsigned C = 0; C < IL; ++C)
        KArgs.push_back(indexedPrefix(K + 1) + "o" + N + chain(C));
    }
    return;
  }
  // As the kernel declares it: `unsigned long long *` is `uint64_t *`
  // (`unsigned long`), `char *` and `_Bool *` are `int8_t *` and
  // `uint8_t *`; same size and representation, other C types.
  // (Globals are declared with the lane type already, globals().)
  std::string Cast =
      P.Kind == ir::ParamKind::Global || ctext::elemType(P) == P.CType
          ? ""
          : std::string("(") + (P.Writable ? "" : "const ") +
                ctext::elemType(P) + " *)";
  if (P.Uniform) {
    KArgs.push_back(Cast + arg(I));
  } else {
    std::string A = arg(I) + " + (ptrdiff_t)__bd_i * " + stride(I);
    KArgs.push_back(Cast.empty() ? A : Cast + "(" + A + ")");
    KArgs.push_back(stride(I));
  }
  for (int K = 0; hasShadowParam(P) && K < numShadows(); ++K) {
    if (P.Uniform) {
      KArgs.push_back(ptr(K, I));
    } else {
      KArgs.push_back(ptr(K, I) + " ? " + ptr(K, I) +
                      " + (ptrdiff_t)__bd_i * " + ptrStride(K, I) + " : 0");
      KArgs.push_back(ptrStride(K, I));
    }
  }
}

/// The kernel's inputs of one step: loads, and the arguments in \p KArgs.
std::string WrapperEmitter::inputs(std::vector<std::string> &KArgs) {
  std::ostringstream OS;
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    if (P.Kind == ir::ParamKind::Seed) {
      seedInput(I, KArgs, OS);
    } else if (P.Kind == ir::ParamKind::Need) {
      std::string E;
      for (int K = 0; K < 3; ++K)
        if (P.Shadows >> K & 1)
          E += (E.empty() ? "" : " || ") + ptr(K, P.Of) + " != 0";
      KArgs.push_back("(" + E + ")");
    } else if (P.Kind == ir::ParamKind::Tangent) {
      tangentInput(I, KArgs, OS);
    } else if (P.Kind == ir::ParamKind::Record) {
      continue; // the kernel gets its members
    } else if (member(I) && P.Uniform) {
      KArgs.push_back("(" + std::string(scalarType(P.Ty)) + ")" +
                      arg(P.Record) + P.Member);
    } else if (member(I)) {
      memberInput(I, KArgs, OS);
    } else if (P.IsArray) {
      arrayArgs(I, KArgs);
    } else if (P.Uniform) {
      KArgs.push_back(P.Ty == Type::Bool
                          ? "(_Bool)" + arg(I)
                          : "(" + std::string(scalarType(P.Ty)) + ")" + arg(I));
    } else {
      for (unsigned C = 0; C < IL; ++C) {
        CS = chain(C);
        CI = C;
        std::string Dst = "__bd_x" + std::to_string(I) + CS;
        OS << (Ix ? loadIx(arg(I), P.Ty, P.NativeLayout, Dst)
                  : load(arg(I) + " + __bd_i" + CS, P.Ty, P.NativeLayout,
                         "__bd_k" + CS, Dst));
        KArgs.push_back(Dst);
      }
    }
  }
  CS.clear();
  return OS.str();
}

/// One chunk of IL * W examples, W per chain; the last one may be partial
/// (__bd_full == 0): then only its first __bd_k examples are read and
/// written, chain C's __bd_k_C of them. A chain with none reads its values
/// at the chunk's first example (its mask is all off). One kernel call site
/// keeps the code small. With several chains, a step whose chains are all
/// full (every step but a chunk's last) reads and writes on a path of its
/// own, without the per-chain counts, tests and partial loads; the kernel
/// call stays one.
std::string WrapperEmitter::chunk() {
  std::ostringstream OS;
  std::vector<std::string> KArgs;
  for (unsigned C = 0; C < IL; ++C)
    KArgs.push_back("__bd_mk" + chain(C));
  bool Whole = wholeSteps();
  if (Whole) {
    std::vector<std::string> Same;
    Decls.clear();
    Assign = 1;
    std::string Fast = counts(true) + masks() + inputs(KArgs);
    Assign = 2;
    std::string Part = counts(false) + masks() + inputs(Same);
    Part += unusedCounts(Part);
    Assign = 0;
    OS << "    int __bd_all = __bd_k == " << step() << ";\n"
       << Decls << "    if (__bd_all) {\n"
       << Fast << "    } else {\n"
       << Part << "    }\n";
  } else {
    OS << counts(false) << masks() << inputs(KArgs);
  }
  std::string Head = OS.str();
  OS.str("");
  CS.clear();
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    for (unsigned C = 0; C < IL; ++C) {
      std::string O = "__bd_o" + std::to_string(I) + chain(C);
      OS << "    " << Sh.vtype(F.Vars[F.Outputs[I].Var].Ty) << " " << O
         << ";\n";
      KArgs.push_back("&" + O);
    }
  if (!F.TapeSlots.empty()) {
    KArgs.push_back("__bd_ar");
    KArgs.push_back("__bd_tp");
  }
  // In the kernel's order (KernelEmitter::signature): the arena and the
  // variable-length arrays, then the large local arrays.
  std::vector<int> Vla = vlaArrays(F);
  if (!Vla.empty() && F.TapeSlots.empty())
    KArgs.push_back("__bd_ar");
  for (int V : Vla)
    KArgs.push_back("&__bd_vl" + std::to_string(V));
  for (int V : arenaArrays(F))
    KArgs.push_back("__bd_h" + std::to_string(V));
  for (const KeepArray &K : Keeps)
    KArgs.push_back(K.Name);
  OS << kernelCall(KArgs);
  std::string Call = OS.str();
  OS.str("");
  for (int Path = Whole ? 0 : 1; Path < 2; ++Path) {
    std::string Block = Whole ? counts(!Path) : "";
    for (size_t I = 0; I < F.Outputs.size(); ++I)
      for (unsigned C = 0; C < IL; ++C) {
        CS = chain(C);
        CI = C;
        Block += output(I);
      }
    // A partial step's counts that no output reads (a narrow or _Bool
    // result is stored through a lane buffer: no __bd_full_C).
    if (Whole && Path)
      Block += unusedCounts(Block);
    if (Whole)
      OS << (Path ? "    } else {\n" : "    if (__bd_all) {\n");
    OS << Block;
  }
  if (Whole)
    OS << "    }\n";
  CS.clear();
  std::string Tail = OS.str();
  // Without whole steps, one set of counts serves inputs and outputs.
  if (!Whole)
    Tail += unusedCounts(Head + Call + Tail);
  // The prefetches between the loads and the call (the streams are known
  // once the outputs are): at the step's start, their branch kept LLVM
  // from merging the chains' full-vector loads, lognormal_nll_grad 44.4
  // instead of 48.2 instructions per example (docs/performance.md).
  return Head + (Ix ? "" : prefetches()) + Call + Tail;
}

/// "(void)X;" for each chain's count, first example and full flag that
/// \p Block declares (counts(false)) and never reads: an array passed by
/// stride reads no __bd_i_C, a narrow result no __bd_full_C.
std::string WrapperEmitter::unusedCounts(const std::string &Block) const {
  auto Uses = [&](const std::string &Name) {
    unsigned N = 0;
    for (size_t At = Block.find(Name); At != std::string::npos;
         At = Block.find(Name, At + 1)) {
      size_t End = At + Name.size();
      if (End == Block.size() ||
          !(isalnum(static_cast<unsigned char>(Block[End])) ||
            Block[End] == '_'))
        ++N;
    }
    return N;
  };
  std::string Out;
  if (IL == 1)
    return Out;
  for (unsigned C = 0; C < IL; ++C)
    for (const char *V : {"__bd_k", "__bd_i", "__bd_full"}) {
      std::string Name = V + chain(C);
      if (Uses(Name) == 1) // its declaration only
        Out += "    (void)" + Name + ";\n";
    }
  return Out;
}

/// The kernel's call on one step. A kernel that defers its math calls'
/// rare-lane tests (emitKernel) reports whether a lane needs them; the step
/// then runs again through its careful copy (Kernel + "c", out of line),
/// into outputs of its own that replace the first call's. (Reading the
/// inputs again for it, behind a compiler barrier, instead of keeping them
/// live: logistic_loss_grad and softplus_grad 4-8% slower.)
std::string WrapperEmitter::kernelCall(const std::vector<std::string> &KArgs) {
  std::ostringstream OS;
  auto Call = [&](const std::string &Fn, const std::string &Sfx,
                  const std::string &Extra) {
    OS << Fn << "(";
    for (size_t A = 0; A < KArgs.size(); ++A)
      OS << (A ? ", " : "") << KArgs[A]
         << (KArgs[A].rfind("&__bd_o", 0) == 0 ? Sfx : "");
    OS << Extra << ");\n";
  };
  if (!Deferred) {
    OS << "    ";
    Call(Kernel, "", "");
    return OS.str();
  }
  OS << "    int __bd_bad = 0;\n    ";
  Call(Kernel, "", ", 0, &__bd_bad");
  OS << "    if (__builtin_expect(__bd_bad, 0)) {\n";
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    for (unsigned C = 0; C < IL; ++C)
      OS << "      " << Sh.vtype(F.Vars[F.Outputs[I].Var].Ty) << " __bd_o" << I
         << chain(C) << "c;\n";
  OS << "      ";
  Call(Kernel + "c", "c", "");
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    for (unsigned C = 0; C < IL; ++C) {
      std::string O = "__bd_o" + std::to_string(I) + chain(C);
      OS << "      " << O << " = " << O << "c;\n";
    }
  OS << "    }\n";
  return OS.str();
}

/// The loop over the examples [__bd_lo, __bd_hi) of one or more chunks, as
/// a bd_chunk_fn: arguments from the context struct, uniform gradients
/// summed per lane and left in the slot.
std::string WrapperEmitter::chunkFunction(const std::string &Base) {
  std::ostringstream OS;
  OS << "static void " << Base << "c(void *__bd_cx, size_t __bd_lo, "
     << "size_t __bd_hi, void *__bd_slot) {\n";
  OS << "  const struct " << Base << "x *__bd_c = (const struct " << Base
     << "x *)__bd_cx;\n";
  std::vector<Decl> Ds = params(true);
  for (size_t I = 1; I < Ds.size(); ++I)
    OS << "  " << Ds[I].Type << Ds[I].Name << " = __bd_c->" << Ds[I].Name
       << ";\n  (void)" << Ds[I].Name << ";\n";
  // File-scope data by name (InPlace): read through the context, a
  // constant table or a static global nothing writes would not be folded
  // into the kernel as LLVM folds it into the scalar function (a product
  // of constants in a contracted a * b + c is then rounded, not fused: 1
  // ULP apart), and a table's address in the context would keep GlobalOpt
  // from making it constant in the scalar function.
  for (const GlobalDecl &G : globals())
    OS << "  " << G.Type << G.Name << " = "
       << (G.Direct ? G.Init : "__bd_c->" + G.Name) << ";\n";
  OS << memberArrays(
      F, numShadows(), [&](int K, size_t I) { return ptr(K, I); },
      [&](int K, size_t I) { return ptrStride(K, I); });
  std::vector<Sum> Sums = uniformSums();
  for (const Sum &U : Sums)
    OS << "  " << Sh.vtype(F.Params[U.Param].Ty) << " " << U.acc()
       << " = bd_splat_" << Sh.sfx(F.Params[U.Param].Ty) << "(0);\n";
  std::vector<size_t> Lasts = lastWrites();
  for (size_t I : Lasts)
    OS << "  size_t __bd_gw" << I << " = 0;\n  " << F.Outputs[I].CType
       << " __bd_gv" << I << " = 0;\n";
  bool Tapes = !F.TapeSlots.empty();
  std::vector<int> Arena = arenaArrays(F), Vla = vlaArrays(F);
  bool UsesArena =
      Tapes || !Arena.empty() || Ix || !Vla.empty() || !Keeps.empty();
  if (UsesArena)
    OS << "  bd_arena *__bd_ar = bd_arena_get();\n"
       << "  bd_arena_pos __bd_pos = bd_arena_save(__bd_ar);\n";
  // The order of a chunk's examples (and the lengths and scratch to sort).
  if (Ix)
    OS << "  size_t *__bd_ord = (size_t *)bd_arena_alloc(__bd_ar, "
       << (sortKeyParam(F) >= 0 ? "3 * " : "")
       << "BD_CHUNK * sizeof(size_t));\n";
  // Large local arrays, once per chunk call: the kernel initialises them
  // as the scalar code does, for every group of W examples.
  for (int V : Arena) {
    std::string T =
        F.VaryingVar[V] ? Sh.vtype(F.Vars[V].Ty) : scalarType(F.Vars[V].Ty);
    OS << "  " << T << " *__bd_h" << V << " = (" << T
       << " *)bd_arena_alloc(__bd_ar, sizeof(" << T << ") * "
       << F.Vars[V].Len * (F.VaryingVar[V] ? (int)IL : 1) << ");\n";
  }
  // A long kernel's kept temps (KeepArray).
  for (const KeepArray &K : Keeps)
    OS << "  " << K.CType << " *" << K.Name << " = (" << K.CType
       << " *)bd_arena_alloc(__bd_ar, sizeof(" << K.CType << ") * " << K.Len
       << ");\n";
  // Variable-length arrays: grown by the kernel as declarations need.
  for (int V : Vla)
    OS << "  bd_vla __bd_vl" << V << " = {0, 0};\n";
  if (Tapes) {
    OS << "  bd_tape __bd_tp[" << F.TapeSlots.size() << "] = {";
    for (size_t T = 0; T < F.TapeSlots.size(); ++T)
      OS << (T ? ", " : "") << "{0, 0, 0, " << F.TapeSlots[T] * (int)IL
         << ", bd_tape_slot_bytes}";
    OS << "};\n";
    // Identities of the tapes: the arena remembers how many rows each
    // needed, so the next call allocates them at once.
    OS << "  static const char __bd_tapekey[" << F.TapeSlots.size() << "];\n"
       << "  for (int __bd_t = 0; __bd_t < " << F.TapeSlots.size()
       << "; __bd_t++)\n"
       << "    bd_tape_begin(__bd_ar, &__bd_tp[__bd_t], "
          "&__bd_tapekey[__bd_t]);\n";
  }
  // Examples per kernel call. Shape n gathers with 32-bit lane offsets
  // (lane * stride): a stride too large for them runs one example at a
  // time (the other lanes are masked off and touch nothing).
  OS << "  size_t __bd_w = " << step() << ";\n";
  if (Ix)
    OS << indexedLoop(F, Fl, chunk());
  if (!Sh.Wide && !Ix)
    for (size_t I = 0; I < F.Params.size(); ++I) {
      const ir::Param &P = F.Params[I];
      if (!P.IsArray || P.Uniform || P.Kind != ir::ParamKind::User)
        continue;
      std::vector<std::string> Strides = {stride(I)};
      for (int K = 0; hasShadowParam(P) && K < numShadows(); ++K)
        Strides.push_back(ptrStride(K, I));
      for (const std::string &St : Strides)
        OS << "  if (" << St << " > 2147483647 / (ptrdiff_t)" << step()
           << " || " << St << " < -2147483647 / (ptrdiff_t)" << step()
           << ")\n    __bd_w = 1;\n";
    }
  if (!Ix) {
    // LLVM's LoopFullUnroll and LoopUnroll measure the whole chunk loop
    // (UnrollCostEstimator, a cost query per instruction) at each of their
    // runs and then leave it as it is: its trip count is the caller's and
    // its body the kernel. Without that work the code is the same, and the
    // compile 2-3% shorter (docs/compile-time.md, "Chunk loops not
    // measured for unrolling").
    OS << "#pragma clang loop unroll(disable)\n";
    OS << "  for (size_t __bd_i = __bd_lo; __bd_i < __bd_hi; __bd_i += "
          "__bd_w) {\n";
    OS << "    size_t __bd_k = __bd_hi - __bd_i < __bd_w ? __bd_hi - __bd_i : "
          "__bd_w;\n";
    if (IL == 1)
      OS << "    int __bd_full = __bd_k == " << Sh.W() << ";\n";
    OS << chunk();
    OS << "  }\n";
  }
  if (Tapes)
    OS << "  for (int __bd_t = 0; __bd_t < " << F.TapeSlots.size()
       << "; __bd_t++)\n"
       << "    bd_tape_end(__bd_ar, &__bd_tp[__bd_t], "
          "&__bd_tapekey[__bd_t]);\n";
  if (UsesArena)
    OS << "  bd_arena_restore(__bd_ar, __bd_pos);\n";
  if (Sums.empty() && Lasts.empty()) {
    OS << "  (void)__bd_slot;\n";
  } else {
    OS << "  struct " << Base << "s *__bd_s = (struct " << Base
       << "s *)__bd_slot;\n";
    for (const Sum &U : Sums)
      OS << "  __bd_s->" << U.acc() << " = " << U.acc() << ";\n";
    for (size_t I : Lasts)
      OS << "  __bd_s->__bd_gw" << I << " = __bd_gw" << I
         << ";\n  __bd_s->__bd_gv" << I << " = __bd_gv" << I << ";\n";
  }
  OS << "}\n";
  return OS.str();
}

/// Adds one chunk's lane sums to the call's, in chunk order, and keeps the
/// last write of each global written on some paths only (bd_reduce_fn).
std::string WrapperEmitter::reduceFunction(const std::string &Base) {
  std::ostringstream OS;
  OS << "static void " << Base << "r(void *__bd_cx, const void *__bd_slot) {\n"
     << "  struct " << Base << "x *__bd_c = (struct " << Base
     << "x *)__bd_cx;\n"
     << "  const struct " << Base << "s *__bd_s = (const struct " << Base
     << "s *)__bd_slot;\n";
  for (const Sum &U : uniformSums()) {
    std::string A = U.acc();
    OS << "  __bd_c->" << A << " = bd_add_" << Sh.sfx(F.Params[U.Param].Ty)
       << "(__bd_c->" << A << ", __bd_s->" << A << ");\n";
  }
  // The last example that wrote a global: the highest index of any chunk.
  for (size_t I : lastWrites()) {
    std::string W = "__bd_gw" + std::to_string(I),
                V = "__bd_gv" + std::to_string(I);
    OS << "  if (__bd_s->" << W << " > __bd_c->" << W << ") {\n    __bd_c->"
       << W << " = __bd_s->" << W << ";\n    __bd_c->" << V << " = __bd_s->"
       << V << ";\n  }\n";
  }
  OS << "}\n";
  return OS.str();
}

/// The exported function: its arguments go into a context struct, and the
/// runtime's bd_parallel_for runs the chunk function over the batch (on
/// several threads for large batches); uniform gradients are summed per
/// chunk, the chunks' sums added in chunk order.
std::string WrapperEmitter::run() {
  std::ostringstream OS;
  std::string Base = Kernel.substr(0, Kernel.size() - 1);
  std::vector<Decl> Ds = params(true);
  std::vector<Sum> Sums = uniformSums();
  std::vector<size_t> Lasts = lastWrites();
  // A global written on some paths only: the highest example index that
  // wrote it plus one (0: none), and its value.
  std::string LastFields;
  for (size_t I : Lasts)
    LastFields += " size_t __bd_gw" + std::to_string(I) + "; " +
                  F.Outputs[I].CType + " __bd_gv" + std::to_string(I) + ";";
  bool Slots = !Sums.empty() || !Lasts.empty();
  OS << "struct " << Base << "x {";
  for (size_t I = 1; I < Ds.size(); ++I)
    OS << " " << Ds[I].Type << Ds[I].Name << ";";
  std::vector<GlobalDecl> Gs;
  for (const GlobalDecl &G : globals())
    if (!G.Direct)
      Gs.push_back(G);
  for (const GlobalDecl &G : Gs)
    OS << " " << G.Type << G.Name << ";";
  for (const Sum &U : Sums)
    OS << " " << Sh.vtype(F.Params[U.Param].Ty) << " " << U.acc() << ";";
  OS << LastFields;
  if (Ds.size() == 1 && Gs.empty() && !Slots)
    OS << " int __bd_none;";
  OS << " };\n";
  if (Slots) {
    OS << "struct " << Base << "s {";
    for (const Sum &U : Sums)
      OS << " " << Sh.vtype(F.Params[U.Param].Ty) << " " << U.acc() << ";";
    OS << LastFields << " };\n";
  }
  OS << chunkFunction(Base);
  if (Slots)
    OS << reduceFunction(Base);
  OS << prototype(true) << ";\n";
  OS << prototype(true) << " {\n";
  OS << "  struct " << Base << "x __bd_c = {";
  bool First = true;
  for (size_t I = 1; I < Ds.size(); ++I, First = false)
    OS << (First ? "" : ", ") << Ds[I].Name;
  for (const GlobalDecl &G : Gs) {
    OS << (First ? "" : ", ") << G.Init;
    First = false;
  }
  for (const Sum &U : Sums) {
    OS << (First ? "" : ", ") << "bd_splat_" << Sh.sfx(F.Params[U.Param].Ty)
       << "(0)";
    First = false;
  }
  for (size_t I = 0; I < Lasts.size(); ++I, First = false)
    OS << (First ? "" : ", ") << "0, 0";
  if (First)
    OS << "0";
  OS << "};\n";
  // A uniform array's shadow is added to by every chunk: one thread.
  std::string Flags;
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &P = F.Params[I];
    // (A member of an array of records: its record's shadow.)
    size_t A = P.Record >= 0 ? (size_t)P.Record : I;
    if ((Grad || Hvp) && P.IsArray && P.Uniform && hasShadowParam(P))
      for (int K = 0; K < 3; K += 2)
        if ((K == 0 || Hvp) &&
            Flags.find(ptr(K, A) + " != 0") == std::string::npos)
          Flags += (Flags.empty() ? "" : " || ") + ptr(K, A) + " != 0";
  }
  Flags = Flags.empty() ? "0" : "(" + Flags + ") ? BD_PAR_SERIAL : 0";
  // Calls of outside functions happen in chunk order on the calling thread
  // (docs/abi.md, "Calls of outside functions"), but for those of a
  // function computing in long double with no effect beyond its result.
  for (const ir::ExternCall &X : F.Externs)
    if (!X.AnyThread)
      Flags = "BD_PAR_SERIAL";
  // So are those of another file's batch functions one lane at a time with
  // globals read back, where its file does not say they leave them alone
  // (BatchedCall.h, syncsGlobals).
  std::string Promised;
  for (size_t K = 0; K < F.Externs.size(); ++K)
    if (F.Externs[K].Batched && syncsGlobals(F.Externs[K])) {
      if (F.Externs[K].Batched->SameFile) { // (a recursion: always)
        Flags = "BD_PAR_SERIAL";
        continue;
      }
      std::string C = promiseName(F.Externs[K]) + " != 0";
      if (Promised.find(C) != std::string::npos)
        continue;
      OS << promiseDecl(F.Externs[K], "  ");
      Promised += (Promised.empty() ? "" : " && ") + C;
    }
  if (!Promised.empty() && Flags != "BD_PAR_SERIAL")
    Flags = "(" + Promised + " ? (" + Flags + ") : BD_PAR_SERIAL)";
  OS << "  bd_parallel_for(__bd_n, " << Base << "c, ";
  if (!Slots)
    OS << "0, 0";
  else
    OS << Base << "r, sizeof(struct " << Base << "s)";
  OS << ", &__bd_c, " << Flags << ");\n";
  for (const Sum &U : Sums) {
    std::string D = ptr(U.Hv ? 2 : 0, U.Param);
    const std::string &Mb = F.Params[U.Param].Member;
    OS << "  if (" << D << ") " << (Mb.empty() ? "*" + D : "(*" + D + ")" + Mb)
       << " += bd_hsum_" << Sh.sfx(F.Params[U.Param].Ty) << "(__bd_c."
       << U.acc() << ");\n";
  }
  for (size_t I : Lasts)
    OS << "  if (__bd_c.__bd_gw" << I << ") " << F.Outputs[I].Global
       << " = __bd_c.__bd_gv" << I << ";\n";
  OS << "}\n";
  return OS.str();
}

} // namespace wrapper

using wrapper::WrapperEmitter;

WrapperText emitWrapper(const ir::Function &F, Flavor Fl, bool Static,
                        const std::string &Kernel, bool Deferred,
                        std::vector<KeepArray> Keeps) {
  WrapperEmitter WE(F, Fl, Static, Kernel, Deferred);
  WE.setKeeps(std::move(Keeps));
  WrapperText T;
  T.Code = WE.run();
  T.Prototype = WE.prototype(false);
  return T;
}

std::string wrapperPrototype(const ir::Function &F, Flavor Fl, bool Static,
                             bool Reserved) {
  return WrapperEmitter(F, Fl, Static, "").prototype(Reserved);
}

} // namespace batchdiff
