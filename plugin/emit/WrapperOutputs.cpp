//===- WrapperOutputs.cpp - the wrapper's outputs and uniform sums ------===//
#include "emit/WrapperEmitter.h"

#include <sstream>

namespace batchdiff {
namespace wrapper {

/// Writes output \p I of the current chain CS.
std::string WrapperEmitter::output(size_t I) {
  std::ostringstream OS;
  const ir::Output &O = F.Outputs[I];
  std::string Val = "__bd_o" + std::to_string(I) + CS;
  if ((O.Kind == ir::OutKind::Ret || O.Kind == ir::OutKind::Tangent) &&
      !O.Member.empty() && F.RetDense && !Ix &&
      retMembers(F, O.Kind) == F.RetDense)
    return denseRet(I);
  if ((O.Kind == ir::OutKind::Ret || O.Kind == ir::OutKind::Tangent) &&
      !O.Member.empty()) {
    bool Ret = O.Kind == ir::OutKind::Ret;
    std::string Base = Ret ? "__bd_ret" : "__bd_dret";
    OS << "    " << (Fl != Flavor::Batched || !Ret ? "if (" + Base + ") " : "")
       << scatterMember(Sh, Buf, Base, recordIdx(false), "__bd_k" + CS,
                        O.Member, F.Vars[O.Var].Ty, O.CType, Val)
       << "\n";
    return OS.str();
  }
  if (O.Kind == ir::OutKind::Ret) {
    std::string St =
        Ix ? storeIx("__bd_ret", F.RetTy, F.RetNativeLayout, F.RetCType, Val)
           : store("__bd_ret + __bd_i" + CS, F.RetTy, F.RetNativeLayout,
                   F.RetCType, Val);
    OS << "    " << (Fl != Flavor::Batched ? "if (__bd_ret) " : "") << St
       << "\n";
    return OS.str();
  }
  if (O.Kind == ir::OutKind::Tangent) {
    OS << "    if (__bd_dret) "
       << (Ix ? storeIx("__bd_dret", F.RetTy, F.RetNativeLayout, F.RetCType,
                        Val)
              : store("__bd_dret + __bd_i" + CS, F.RetTy, F.RetNativeLayout,
                      F.RetCType, Val))
       << "\n";
    return OS.str();
  }
  if (O.Kind == ir::OutKind::GlobalWritten)
    return ""; // with its global
  if (O.Kind == ir::OutKind::Global && writtenFlag(I) >= 0)
    return lastWrite(I, writtenFlag(I));
  if (O.Kind == ir::OutKind::Global) {
    // The chunk holding example n - 1 leaves its value, as the loop would.
    Type T = F.Vars[O.Var].Ty;
    if (Ix) {
      // Lanes hold examples in any order: the one holding n - 1, if any.
      OS << "    {\n      " << O.CType << " __bd_gb[" << Sh.W() << "];\n      "
         << store("__bd_gb", T, O.NativeLayout, O.CType, Val)
         << "\n      for (size_t __bd_j = 0; __bd_j < __bd_k" << CS
         << "; __bd_j++)\n        if (" << indexedLane(Sh, CI)
         << " + 1 == __bd_nall) " << O.Global << " = __bd_gb[__bd_j];\n    }\n";
      return OS.str();
    }
    OS << "    if (__bd_i" << CS << " + __bd_k" << CS
       << " == __bd_nall) {\n      " << O.CType << " __bd_gb[" << Sh.W()
       << "];\n      " << store("__bd_gb", T, O.NativeLayout, O.CType, Val)
       << "\n      " << O.Global << " = __bd_gb[__bd_k" << CS
       << " - 1];\n    }\n";
    return OS.str();
  }
  const ir::Param &P = F.Params[O.Param];
  std::string Sfx = Sh.sfx(P.Ty);
  bool Hv = O.Kind == ir::OutKind::HvAdjoint;
  if (P.Uniform) {
    // Lanes past the end hold garbage: only active lanes are summed.
    std::string Acc = Sum{(size_t)O.Param, Hv}.acc();
    OS << "    " << Acc << " = bd_add_" << Sfx << "(" << Acc << ", bd_select_"
       << Sfx << "(__bd_mk" << CS << ", " << Val << ", bd_splat_" << Sfx
       << "(0)));\n";
    return OS.str();
  }
  std::string Sh0 = ptr(Hv ? 2 : 0, O.Param);
  std::string Ptr = Sh0 + " + __bd_i" + CS;
  if (member(O.Param) && !denseGroup(O.Param).empty())
    return denseShadow(I, denseGroup(O.Param), Hv);
  if (member(O.Param)) {
    OS << "    if (" << Sh0 << ") "
       << scatterAddMember(Sh, Buf, Sh0, recordIdx(false), "__bd_k" + CS,
                           P.Member, P.Ty, Val)
       << "\n";
    return OS.str();
  }
  OS << "    if (" << Sh0 << ") {\n";
  if (Ix) {
    OS << loadIx(Sh0, P.Ty, true, "__bd_old" + CS) << "      "
       << storeIx(Sh0, P.Ty, true, P.CType,
                  "bd_add_" + Sfx + "(__bd_old" + CS + ", " + Val + ")")
       << "\n    }\n";
    return OS.str();
  }
  OS << load(Ptr, P.Ty, true, "__bd_k" + CS, "__bd_old" + CS);
  OS << "      "
     << store(Ptr, P.Ty, true, P.CType,
              "bd_add_" + Sfx + "(__bd_old" + CS + ", " + Val + ")")
     << "\n    }\n";
  return OS.str();
}

/// The shadows (\p Hv: H·v shadows) of dense record \p G's members, all
/// with the record's first output: one transpose in registers.
std::string WrapperEmitter::denseShadow(size_t I, const std::vector<size_t> &G,
                                        bool Hv) {
  ir::OutKind K = Hv ? ir::OutKind::HvAdjoint : ir::OutKind::ParamAdjoint;
  std::vector<std::string> Ms, Vs(G.size());
  size_t First = F.Outputs.size();
  for (size_t J = 0; J < F.Outputs.size(); ++J)
    for (size_t M = 0; M < G.size(); ++M)
      if (F.Outputs[J].Kind == K && (size_t)F.Outputs[J].Param == G[M]) {
        First = std::min(First, J);
        Vs[M] = "__bd_o" + std::to_string(J) + CS;
      }
  if (First != I)
    return "";
  for (size_t J : G)
    Ms.push_back(F.Params[J].Member);
  const ir::Param &P = F.Params[G[0]];
  std::string Sh0 = ptr(Hv ? 2 : 0, G[0]);
  return "    if (" + Sh0 + ") " +
         denseOut(Sh, Buf, dense(Sh0), recordIdx(false), "__bd_k" + CS, Ms,
                  P.Ty, P.CType, Vs, true) +
         "\n";
}

/// A dense struct return value (Function::RetDense): all its members (or
/// in NAME_jvp their tangents) with the first, transposed in registers.
std::string WrapperEmitter::denseRet(size_t I) {
  const ir::Output &O = F.Outputs[I];
  std::vector<std::string> Ms, Vs;
  size_t First = F.Outputs.size();
  for (size_t J = 0; J < F.Outputs.size(); ++J)
    if (F.Outputs[J].Kind == O.Kind && !F.Outputs[J].Member.empty()) {
      First = std::min(First, J);
      Ms.push_back(F.Outputs[J].Member);
      Vs.push_back("__bd_o" + std::to_string(J) + CS);
    }
  if (First != I)
    return "";
  bool Ret = O.Kind == ir::OutKind::Ret;
  std::string Base = Ret ? "__bd_ret" : "__bd_dret";
  std::string St =
      denseOut(Sh, Buf, dense(Base), recordIdx(false), "__bd_k" + CS, Ms,
               F.Vars[O.Var].Ty, O.CType, Vs, false);
  return "    " +
         (Fl != Flavor::Batched || !Ret ? "if (" + Base + ") "
                                        : std::string()) +
         St + "\n";
}

/// Global output \p I, written on some paths only (\p Flag: its
/// GlobalWritten output): among the lanes of the current chain whose
/// example wrote it, the highest example index, if above the chunk's so
/// far, and its value. Lanes may hold examples in any order (Ix): indices
/// are compared, not lanes.
std::string WrapperEmitter::lastWrite(size_t I, int Flag) {
  std::ostringstream OS;
  const ir::Output &O = F.Outputs[I];
  std::string N = std::to_string(I), Val = "__bd_o" + N + CS;
  std::string W = "__bd_gw" + N, V = "__bd_gv" + N;
  std::string Idx = Ix ? indexedLane(Sh, CI) : "__bd_i" + CS + " + __bd_j";
  OS << "    {\n      int __bd_gm = bd_mbits_" << Sh.S() << "(bd_and_m"
     << Sh.S() << "(__bd_o" << Flag << CS << ", __bd_mk" << CS
     << "));\n      if (__bd_gm) {\n        " << O.CType << " __bd_gb["
     << Sh.W() << "];\n        "
     << store("__bd_gb", F.Vars[O.Var].Ty, O.NativeLayout, O.CType, Val)
     << "\n        for (size_t __bd_j = 0; __bd_j < __bd_k" << CS
     << "; __bd_j++)\n          if ((__bd_gm >> __bd_j & 1) && " << Idx
     << " + 1 > " << W << ") {\n            " << W << " = " << Idx
     << " + 1;\n            " << V
     << " = __bd_gb[__bd_j];\n          }\n      }\n    }\n";
  return OS.str();
}

int WrapperEmitter::writtenFlag(size_t I) const {
  for (size_t J = 0; J < F.Outputs.size(); ++J)
    if (F.Outputs[J].Kind == ir::OutKind::GlobalWritten &&
        F.Outputs[J].Global == F.Outputs[I].Global)
      return (int)J;
  return -1;
}

std::vector<size_t> WrapperEmitter::lastWrites() const {
  std::vector<size_t> R;
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    if (F.Outputs[I].Kind == ir::OutKind::Global && writtenFlag(I) >= 0)
      R.push_back(I);
  return R;
}

std::vector<WrapperEmitter::Sum> WrapperEmitter::uniformSums() const {
  std::vector<Sum> R;
  for (const ir::Output &O : F.Outputs)
    if ((O.Kind == ir::OutKind::ParamAdjoint ||
         O.Kind == ir::OutKind::HvAdjoint) &&
        F.Params[O.Param].Uniform)
      R.push_back({(size_t)O.Param, O.Kind == ir::OutKind::HvAdjoint});
  return R;
}

} // namespace wrapper
} // namespace batchdiff
