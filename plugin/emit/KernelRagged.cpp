//===- KernelRagged.cpp - ragged rows read in blocks of W trips ----------===//
// A varying input array read at its loop's counter, `x[i]` in `for (i = 0;
// i < n; i++)` with n per example (a ragged batch), was one masked gather
// per trip: W lanes' elements from W rows (Zen 4's zmm gathers are slow, a
// cheap loop body cost what the scalar loop does; docs/performance-arrays.md,
// "Ragged rows read in blocks"). The counter is the same on every lane
// still in the loop (analysis/LoopCounters.h), so the next W trips read
// elements i .. i + W - 1 of each lane's row: one read fills a block of W
// vectors per chain (bd_rblock_load, batchdiff/aos.h: a masked load per
// lane and a transpose in registers) and the reads of the next trips take
// vector i - i0 of it.
//
// Which elements are read: a block is filled only where each lane on at
// the read has W elements below its bound n_l of the loop (i < n_l; n the
// parameter the array's extent comes from): elements i .. i + W - 1 of its
// own extent, which the lane reads on its next trips unless it leaves the
// loop early. Lanes off read nothing. Elsewhere (near the bounds) the read
// is a gather as before. The block records the end e_l of what it holds
// per lane, and a read takes the block's vector only when every lane on at
// it has i - i0 < W and i < e_l; any other read (another index, a lane
// that was off at the fill) fills the block anew at its own index or
// gathers. So the values are the gather's, bit for bit, whatever the
// control flow (breaks, branches, loops around the loop, other loops
// reading the same array at their own counters).
#include "emit/KernelEmitter.h"

namespace batchdiff {
namespace kernel {

namespace {
/// The block vectors of all of a kernel's arrays (every chain), counted at
/// W = 16 (floats at 64 bytes) and 64 bytes each: 8 KiB of the frame, as
/// for the dense arrays (KernelDense.cpp); arrays past it keep gathers.
constexpr int RaggedVectorBudget = 128;
} // namespace

/// Whether \p Pa's reads may come from blocks: a varying input array of
/// 32- or 64-bit elements (64-bit in shape d only) in any layout.
bool KernelEmitter::raggedEligible(const ir::Param &Pa) const {
  bool TyOk = Pa.Ty == Type::F32 || Pa.Ty == Type::I32 || Pa.Ty == Type::U32 ||
              (Sh.Wide && (Pa.Ty == Type::F64 || Pa.Ty == Type::I64 ||
                           Pa.Ty == Type::U64));
  return TyOk && Pa.Kind == ir::ParamKind::User && Pa.IsArray && !Pa.Uniform &&
         !Pa.Writable && Pa.Record < 0 && Pa.Narrow.empty() &&
         Pa.NativeLayout && !Pa.LaneLoads && !Pa.BoolBytes;
}

/// Loop \p L's counter and per-lane bound: a uniform I32 variable V that
/// the body sets to `V + 1`, and a conjunct `splat(V + 1) < N` of the
/// repeat condition with N a varying I32 value from before the loop.
/// Returns V (and \p Bound = N), or -1.
int KernelEmitter::loopCounter(const ir::Stmt &L, int &Bound) const {
  std::unordered_set<int> Inside;
  ir::walk(L.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Dst >= 0)
      Inside.insert(S.Dst);
  });
  auto DefOf = [&](int T) -> const ir::Stmt * {
    return T >= 0 && (size_t)T < Def.size() ? Def[T] : nullptr;
  };
  std::vector<int> Todo{L.Cond};
  while (!Todo.empty()) {
    int T = Todo.back();
    Todo.pop_back();
    const ir::Stmt *D = DefOf(T);
    if (!D)
      continue;
    if (D->Opc == Op::Any || D->Opc == Op::And) {
      Todo.insert(Todo.end(), D->Args.begin(), D->Args.end());
      continue;
    }
    if (D->Opc != Op::CmpLT && D->Opc != Op::CmpGT)
      continue;
    int A = D->Args[0], N = D->Args[1];
    if (D->Opc == Op::CmpGT)
      std::swap(A, N);
    const ir::Stmt *Sp = DefOf(A);
    if (!Sp || Sp->Opc != Op::Splat || !F.VaryingTemp[N] ||
        F.Temps[N] != Type::I32 || Inside.count(N))
      continue;
    int U = Sp->Args[0];
    const ir::Stmt *Inc = DefOf(U);
    if (!Inc || F.VaryingTemp[U] || F.Temps[U] != Type::I32 ||
        Inc->Opc != Op::Add)
      continue;
    for (int K = 0; K < 2; ++K) {
      const ir::Stmt *G = DefOf(Inc->Args[K]), *One = DefOf(Inc->Args[1 - K]);
      if (!G || !One || G->Opc != Op::GetVar || One->Opc != Op::ConstI ||
          One->IVal != 1 || F.VaryingVar[G->Var])
        continue;
      bool Sets = false;
      ir::walk(L.Body, [&](const ir::Stmt &S, int) {
        Sets |= S.K == ir::Stmt::Inst && S.Opc == Op::SetVar &&
                S.Var == G->Var && S.Args[0] == U;
      });
      if (Sets) {
        Bound = N;
        return G->Var;
      }
    }
  }
  return -1;
}

/// The reads served from blocks (BlockRead) and their arrays (BlockArr).
void KernelEmitter::raggedBlocks() {
  BlockRead.clear();
  BlockArr.assign(F.Params.size(), false);
  if (!RaggedOn)
    return;
  std::vector<bool> Want(F.Params.size(), false);
  ir::walk(F.Body, [&](const ir::Stmt &L, int) {
    if (L.K != ir::Stmt::Loop || L.Cond < 0)
      return;
    int Bound = -1, V = loopCounter(L, Bound);
    if (V < 0)
      return;
    ir::walk(L.Body, [&](const ir::Stmt &S, int) {
      if (S.K != ir::Stmt::Inst || S.Opc != Op::LoadArg || S.Dst < 0 ||
          !F.VaryingTemp[S.Dst] || S.Mask < 0 || S.IVal < 0 ||
          (size_t)S.IVal >= F.Params.size() ||
          !raggedEligible(F.Params[S.IVal]) ||
          (!DenseArr.empty() && DenseArr[S.IVal]))
        return;
      int T = uniformIndex(S);
      if (T < 0 || !Def[T] || Def[T]->Opc != Op::GetVar || Def[T]->Var != V ||
          F.Temps[T] != Type::I32)
        return;
      // The bound is the parameter the array's extent was inferred from or
      // declared with (not a static extent, which a guarded read such as
      // `if (i < 8) x[i]` under `i < n` may keep below the bound).
      const ir::Param &Pa = F.Params[S.IVal];
      if (Pa.StaticLen > 0 || Pa.DimParam < 0 || !Def[Bound] ||
          Def[Bound]->Opc != Op::Param || Def[Bound]->IVal != Pa.DimParam)
        return;
      BlockRead[&S] = Bound;
      Want[S.IVal] = true;
    });
  });
  int Vectors = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    if (Want[I] && Vectors + 16 * (int)IL <= RaggedVectorBudget) {
      BlockArr[I] = true;
      Vectors += 16 * (int)IL;
    }
}

/// The kernel's start: each block array's W vectors, first index and ends
/// per chain, holding nothing (ends below every index, the first index
/// INT32_MIN).
void KernelEmitter::raggedDecls() {
  std::string S = Sh.S(), I32 = Sh.sfx(Type::I32);
  for (size_t I = 0; I < BlockArr.size(); ++I) {
    if (!BlockArr[I])
      continue;
    std::string N = std::to_string(I);
    for (unsigned C = 0; C < IL; ++C) {
      std::string B = "__bd_rb" + N + chain(C);
      // Read before a fill only for an index within W of INT32_MIN (the
      // first index) and no lane on: a value nobody uses.
      OS << "  " << Sh.vtype(F.Params[I].Ty) << " " << B << "[" << Sh.W()
         << "];\n"
         << "  int32_t __bd_ri" << N << chain(C)
         << " = -2147483647 - 1, __bd_rf" << N << chain(C) << " = 2147483647;\n"
         << "  bd_" << I32 << " __bd_re" << N << chain(C) << " = bd_splat_"
         << I32 << "(-2147483647 - 1);\n";
    }
  }
}

/// A read at its loop's counter: from the array's block where it holds the
/// element for every lane on, else from a block filled at this index when
/// each lane on has W elements below its bound, else a gather as before.
/// After a fill fails at index f (a lane near its bound), later indices of
/// the same run of the loop gather without a test of the block (__bd_rf:
/// f; a loop run again from f or below tries again).
bool KernelEmitter::raggedRead(const ir::Stmt &S) {
  auto It = BlockRead.find(&S);
  if (It == BlockRead.end() || !BlockArr[S.IVal])
    return false;
  const ir::Param &Pa = F.Params[S.IVal];
  std::string N = std::to_string(S.IVal), Sx = Sh.S(), Ty = Sh.sfx(Pa.Ty);
  std::string I32 = Sh.sfx(Type::I32), Idx = temp(uniformIndex(S));
  std::string B = "__bd_rb" + N + ch(), I0 = "__bd_ri" + N + ch(),
              E = "__bd_re" + N + ch(), Fl = "__bd_rf" + N + ch(),
              M = temp(S.Mask), V = temp(S.Dst);
  std::string D = "(uint32_t)(" + Idx + ") - (uint32_t)" + I0;
  if (!Hoisted[S.Dst])
    OS << line() << Sh.vtype(Pa.Ty) << " " << V << ";\n";
  std::string Try = "(int32_t)(" + Idx + ") <= " + Fl;
  OS << line() << "if (" << Try << " && " << D << " < " << Sh.W()
     << " && bd_none_m" << Sx << "(bd_andnot_m" << Sx << "(" << M
     << ", bd_cmplt_" << I32 << "(bd_splat_" << I32 << "(" << Idx << "), " << E
     << "))))\n"
     << line() << "  " << V << " = " << B << "[" << D << "];\n"
     << line() << "else if (" << Try << " && bd_rblock_load_" << Ty << "(" << M
     << ", (const " << scalarType(Pa.Ty) << " *)__bd_p" << N << ", __bd_po" << N
     << ch() << ", " << temp(It->second) << ", " << Idx << ", " << B << ", &"
     << E << ")) {\n"
     << line() << "  " << I0 << " = " << Idx << ";\n"
     << line() << "  " << Fl << " = 2147483647;\n"
     << line() << "  " << V << " = " << B << "[0];\n"
     << line() << "} else {\n"
     << line() << "  " << Fl << " = " << Idx << ";\n"
     << line() << "  " << V << " = bd_gather_" << Ty << "(" << M << ", __bd_p"
     << N << ", " << addr(S, false) << ");\n"
     << line() << "}\n";
  return true;
}

} // namespace kernel
} // namespace batchdiff
