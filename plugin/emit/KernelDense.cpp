//===- KernelDense.cpp - per-example arrays as one vector per element -----===//
// A per-example input array of a declared static extent L (`const double
// xs[8]`, ir::Param::Declared; or a member of an array of records, `const
// struct pt pts[8]` read as pts[i].x) that the function reads at indices
// the same for every lane (`xs[i]` in a loop of constant trip count): a
// gather per read (one per lane in memory, masked) was the kernel's cost
// (Zen 4's zmm gathers are slow; bench_arrays). Instead the kernel starts
// by reading each chain's W arrays whole into L vectors (vector t holds
// element t of every lane's array): with all lanes active, whole-vector row
// loads and a transpose in registers (bd_rows_load, batchdiff/aos.h), any
// stride; else (the batch's last, partial step) one masked gather per
// element, so a lane past the batch reads nothing. A read at index t then
// takes vector t; an index outside 0..L-1 (C reads past a declared extent)
// gathers as before. Every element of an active example's array is read
// once per step, also those the example does not read: the declared extent
// is the caller's promise that they are valid (docs/abi.md, "Arrays read
// whole"). Reads at per-lane indices keep their gathers; written arrays are
// not affected. NAME_grad's shadows of such arrays, added to at indices the
// same for every lane, are accumulated in vectors the same way
// (denseShadowFill, below).
#include "emit/KernelEmitter.h"

namespace batchdiff {
namespace kernel {

namespace {
/// Extents above this keep their gathers: the kernel would read (and hold on
/// its stack) all L vectors per chain whatever it reads of them.
constexpr int DenseArrayMax = 32;
/// The vectors of all of a kernel's dense arrays (every chain), counted at
/// 64 bytes each as Frame.h counts local arrays: 8 KiB of the kernel's
/// frame (docs/abi.md, "Stack frames"); arrays past it keep their gathers.
constexpr int DenseVectorBudget = 128;
} // namespace

/// The uniform index of array access \p S (a splat of it: the batched
/// code broadcasts a uniform index), or -1.
int KernelEmitter::uniformIndex(const ir::Stmt &S) const {
  int T = S.Args[0];
  if (T >= 0 && F.VaryingTemp[T] && Def[T] && Def[T]->Opc == Op::Splat)
    T = Def[T]->Args[0];
  return T >= 0 && !F.VaryingTemp[T] ? T : -1;
}

/// The elements of \p Pa's type an example's array holds from its first:
/// its extent, or for a member of an array of records from the member in
/// its first record to the member in its last (nothing of the record after
/// it: the last example's last record may end the caller's memory).
int KernelEmitter::denseLen(const ir::Param &Pa) {
  if (Pa.Record < 0)
    return Pa.StaticLen;
  return Pa.Per >= 1 && Pa.StaticLen >= Pa.Per ? Pa.StaticLen - Pa.Per + 1 : 0;
}

/// Whether \p Pa may be read (or its shadow accumulated) whole.
bool KernelEmitter::denseEligible(const ir::Param &Pa) const {
  bool TyOk = Pa.Ty == Type::F32 || Pa.Ty == Type::I32 || Pa.Ty == Type::U32 ||
              (Sh.Wide && (Pa.Ty == Type::F64 || Pa.Ty == Type::I64 ||
                           Pa.Ty == Type::U64));
  bool Member = Pa.Record >= 0 && Pa.Per >= 1;
  int L = denseLen(Pa);
  return TyOk && (Pa.Kind == ir::ParamKind::User || Member) && Pa.IsArray &&
         !Pa.Uniform && !Pa.Writable && (Pa.Record < 0 || Member) &&
         Pa.Lay == ir::Layout::Strided && Pa.Declared && L >= 1 &&
         L <= DenseArrayMax && Pa.Narrow.empty() && Pa.NativeLayout &&
         !Pa.LaneLoads && !Pa.BoolBytes;
}

/// Which array parameters are read through one vector per element, and
/// (NAME_grad) whose shadows are accumulated in vectors.
void KernelEmitter::denseArrays() {
  DenseArr.assign(F.Params.size(), false);
  DenseSh.assign(F.Params.size(), false);
  if (indexedLanes(F))
    return; // lane offsets come from the wrapper, not a stride
  std::vector<bool> Uni(F.Params.size(), false);
  std::vector<int> Adds(F.Params.size(), 0), Other(F.Params.size(), 0);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K != ir::Stmt::Inst || S.IVal < 0 ||
        (size_t)S.IVal >= F.Params.size())
      return;
    if (S.Opc == Op::LoadArg && S.Dst >= 0 && F.VaryingTemp[S.Dst] &&
        uniformIndex(S) >= 0)
      Uni[S.IVal] = true;
    if (S.Opc == Op::ShadowAdd && S.Shadow == 0 && uniformIndex(S) >= 0)
      ++Adds[S.IVal];
    else if (S.Opc == Op::ShadowAdd || S.Opc == Op::ShadowLoad ||
             S.Opc == Op::ShadowStore)
      ++Other[S.IVal];
  });
  int Vectors = 0;
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    int L = denseLen(Pa) * (int)IL;
    if (!denseEligible(Pa))
      continue;
    if (Uni[I] && Vectors + L <= DenseVectorBudget) {
      DenseArr[I] = true;
      Vectors += L;
    }
    // Shadows: float elements, added to only here (the scatter-add's
    // element types), by NAME_grad.
    // Not a member of records: the members' rows overlap (each would
    // write the others' elements back).
    if (Fl == Flavor::Grad && Adds[I] && !Other[I] && Pa.Record < 0 &&
        (Pa.Ty == Type::F64 || Pa.Ty == Type::F32) &&
        Vectors + L <= DenseVectorBudget) {
      DenseSh[I] = true;
      Vectors += L;
    }
  }
  // Shadows may overlap each other (`f(u, u + 1)` differentiated into d_u
  // and d_u + 1): the kernel checks that the dense ones do not
  // (denseShadowFill), so every shadow it touches must be one of them.
  for (size_t I = 0; I < F.Params.size(); ++I)
    if ((Adds[I] || Other[I]) && !DenseSh[I]) {
      DenseSh.assign(F.Params.size(), false);
      break;
    }
}

/// The kernel's start: each dense array's L vectors per chain, element t of
/// chain c at __bd_d<I>[t * IL + c].
void KernelEmitter::denseFill() {
  for (size_t I = 0; I < DenseArr.size(); ++I) {
    if (!DenseArr[I])
      continue;
    const ir::Param &Pa = F.Params[I];
    std::string N = std::to_string(I), D = "__bd_d" + N;
    OS << "  " << Sh.vtype(Pa.Ty) << " " << D << "[" << denseLen(Pa) * IL
       << "];\n";
    denseRows("  ", Pa.Ty, denseLen(Pa), "__bd_p" + N,
              std::string("const ") + scalarType(Pa.Ty) + " *", "__bd_ps" + N,
              "__bd_po" + N, D, false);
  }
}

/// A read of a dense array at an index the same for every lane.
bool KernelEmitter::denseRead(const ir::Stmt &S) {
  int I = (int)S.IVal;
  if (S.Opc != Op::LoadArg || I < 0 || (size_t)I >= DenseArr.size() ||
      !DenseArr[I] || !F.VaryingTemp[S.Dst] || uniformIndex(S) < 0)
    return false;
  const ir::Param &Pa = F.Params[I];
  std::string Idx = temp(uniformIndex(S)), N = std::to_string(I);
  OS << line() << (Hoisted[S.Dst] ? "" : Sh.vtype(Pa.Ty) + " ") << temp(S.Dst)
     << " = (uint32_t)(" << Idx << ") < " << denseLen(Pa) << "u ? __bd_d" << N
     << "[(" << Idx << ") * " << IL << " + " << Ch << "] : bd_gather_"
     << Sh.sfx(Pa.Ty) << "(" << temp(S.Mask) << ", __bd_p" << N << ", "
     << addr(S, false) << ");\n";
  return true;
}

} // namespace kernel
} // namespace batchdiff

namespace batchdiff {
namespace kernel {

/// NAME_grad: a shadow whose rows do not overlap (|stride| >= L: stride 0
/// sums over the examples, in lane order, as the scatter-add does) starts
/// as the examples' elements in L vectors per chain, __bd_g<I>; each
/// addition at an index the same for every lane adds to vector t (under
/// its mask), and the kernel's end writes them back (rows and a transpose,
/// masked scatters in the last, partial step). The same additions in the
/// same order: bit for bit the scatter-add's sums. A NULL shadow keeps the
/// scatter-adds (__bd_gok<I> 0), and all do where rows overlap, within a
/// shadow or between two (the step's rows' address ranges).
void KernelEmitter::denseShadowFill() {
  std::vector<size_t> Dense;
  for (size_t I = 0; I < DenseSh.size(); ++I)
    if (DenseSh[I])
      Dense.push_back(I);
  if (Dense.empty())
    return;
  OS << "  int __bd_gok = 1;\n";
  for (size_t I : Dense) {
    const ir::Param &Pa = F.Params[I];
    std::string N = std::to_string(I), L = std::to_string(denseLen(Pa));
    std::string Q = "__bd_q" + N, Qs = "__bd_qs" + N;
    OS << "  ptrdiff_t __bd_gsp" << N << " = (ptrdiff_t)(" << IL << " * "
       << Sh.W() << " - 1) * " << Qs << ";\n"
       << "  uintptr_t __bd_glo" << N << " = (uintptr_t)" << Q
       << " + (uintptr_t)((__bd_gsp" << N << " < 0 ? __bd_gsp" << N
       << " : 0) * (ptrdiff_t)sizeof(*" << Q << "));\n"
       << "  uintptr_t __bd_ghi" << N << " = (uintptr_t)" << Q
       << " + (uintptr_t)(((__bd_gsp" << N << " > 0 ? __bd_gsp" << N
       << " : 0) + " << L << ") * (ptrdiff_t)sizeof(*" << Q << "));\n"
       << "  __bd_gok &= " << Q << " == 0 || " << Qs << " >= " << L << " || "
       << Qs << " <= -" << L << ";\n";
  }
  for (size_t A = 0; A < Dense.size(); ++A)
    for (size_t B = A + 1; B < Dense.size(); ++B) {
      std::string X = std::to_string(Dense[A]), Y = std::to_string(Dense[B]);
      OS << "  __bd_gok &= __bd_q" << X << " == 0 || __bd_q" << Y
         << " == 0 || __bd_ghi" << X << " <= __bd_glo" << Y << " || __bd_ghi"
         << Y << " <= __bd_glo" << X << ";\n";
    }
  for (size_t I = 0; I < DenseSh.size(); ++I) {
    if (!DenseSh[I])
      continue;
    const ir::Param &Pa = F.Params[I];
    std::string N = std::to_string(I), G = "__bd_g" + N, Q = "__bd_q" + N;
    OS << "  " << Sh.vtype(Pa.Ty) << " " << G << "[" << denseLen(Pa) * IL
       << "];\n"
       << "  int __bd_gok" << N << " = __bd_gok && " << Q << " != 0;\n"
       << "  if (__bd_gok" << N << ") {\n";
    denseRows("    ", Pa.Ty, denseLen(Pa), Q, "", "__bd_qs" + N, "__bd_qo" + N,
              G, false);
    OS << "  }\n";
  }
}

void KernelEmitter::denseShadowStore() {
  for (size_t I = 0; I < DenseSh.size(); ++I) {
    if (!DenseSh[I])
      continue;
    const ir::Param &Pa = F.Params[I];
    std::string N = std::to_string(I), G = "__bd_g" + N, Q = "__bd_q" + N;
    OS << "  if (__bd_gok" << N << ") {\n";
    denseRows("    ", Pa.Ty, denseLen(Pa), Q, "", "__bd_qs" + N, "__bd_qo" + N,
              G, true);
    OS << "  }\n";
  }
}

/// Per chain, \p Len elements of each lane's row at \p Base (rows \p Stride
/// apart, lane offsets \p Offs<chain>, read through a \p Cast pointer if
/// given) to (or, \p Store, from) vectors \p Vec: whole rows and a transpose
/// when all lanes are active, else masked gathers (scatters) per element.
void KernelEmitter::denseRows(const std::string &Ind, Type Ty, int Len,
                              const std::string &Base, const std::string &Cast,
                              const std::string &Stride,
                              const std::string &Offs, const std::string &Vec,
                              bool Store) {
  std::string Sfx = Sh.sfx(Ty), L = std::to_string(Len);
  for (unsigned C = 0; C < IL; ++C) {
    std::string Row = Base;
    if (C)
      Row += " + (ptrdiff_t)(" + std::to_string(C) + " * " + Sh.W() + ") * " +
             Stride;
    if (!Cast.empty())
      Row = "(" + Cast + ")(" + Row + ")";
    std::string Idx = "bd_add_" + idxSfx() + "(" + Offs + chain(C) +
                      ", bd_splat_" + idxSfx() + "(__bd_j))";
    std::string El = Vec + "[__bd_j * " + std::to_string(IL) + " + " +
                     std::to_string(C) + "]";
    std::string M = "__bd_m" + chain(C);
    OS << Ind << "if (bd_all_m" << Sh.S() << "(" << M << "))\n"
       << Ind << "  bd_rows_" << (Store ? "store_" : "load_") << Sfx << "("
       << Row << ", " << Stride << ", " << L << ", " << Vec << " + " << C
       << ", " << IL << ");\n"
       << Ind << "else\n"
       << Ind << "  for (int32_t __bd_j = 0; __bd_j < " << L << "; __bd_j++) ";
    if (Store)
      OS << "bd_scatter_" << Sfx << "(" << M << ", " << Base << ", " << Idx
         << ", " << El << ");\n";
    else
      OS << El << " = bd_gather_" << Sfx << "(" << M << ", " << Base << ", "
         << Idx << ");\n";
  }
}

/// An addition to a dense shadow at an index the same for every lane.
bool KernelEmitter::denseShadowAdd(const ir::Stmt &S) {
  int I = (int)S.IVal;
  if (S.Shadow != 0 || I < 0 || (size_t)I >= DenseSh.size() || !DenseSh[I] ||
      uniformIndex(S) < 0)
    return false;
  const ir::Param &Pa = F.Params[I];
  std::string Idx = temp(uniformIndex(S)), N = std::to_string(I);
  std::string Sfx = Sh.sfx(Pa.Ty), L = std::to_string(denseLen(Pa));
  std::string El = "__bd_g" + N + "[(" + Idx + ") * " + std::to_string(IL) +
                   " + " + std::to_string(Ch) + "]";
  OS << line() << "if (__bd_gok" << N << " && (uint32_t)(" << Idx << ") < " << L
     << "u) " << El << " = bd_select_" << Sfx << "(" << temp(S.Mask)
     << ", bd_add_" << Sfx << "(" << El << ", " << temp(S.Args[1]) << "), "
     << El << "); else bd_scatteradd_" << Sfx << "(" << temp(S.Mask)
     << ", __bd_q" << N << ", " << addr(S, true) << ", " << temp(S.Args[1])
     << ");\n";
  return true;
}

} // namespace kernel
} // namespace batchdiff
