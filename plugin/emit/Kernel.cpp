//===- Kernel.cpp - the per-chunk kernel of one function ------------------===//
// The driver: which temps are declared up front, the kernel's form (inline
// or not, math calls out of line), its signature and declarations; the
// body is printed by KernelStmt.cpp and KernelExpr.cpp.
#include "emit/Kernel.h"
#include "emit/Frame.h"
#include "emit/KernelEmitter.h"

#include <algorithm>
#include <cassert>
#include <functional>

namespace batchdiff {
namespace kernel {
namespace {

/// IR statements (times chains) above which the kernel is not inlined into
/// the chunk loop. At 2000, the 2-chain gradients of bs_call (1117
/// statements) and reproj (1327) were out of line, their ~20 vectors passed
/// through the stack: inline they ran 3-6% and 5-10% faster (min of 600
/// runs of 4096 examples, 256 and 512 bits, load 8.6) for +2.5% compile
/// of bench/models.c. 3000 keeps every 2-chain gradient (GradMaxStmts 1500
/// in Batch.cpp) inline.
constexpr size_t KernelInlineMax = 3000;
/// Calls of costly math functions (20-100 instructions each, inline) above
/// which the kernel calls one out-of-line copy of each instead: in a long
/// function their inline bodies were three quarters of the object code and
/// of the compile time (issue 8), and a call costs little next to each.
constexpr size_t MathInlineMax = 32;

} // namespace

/// A long kernel's reverse sweep is mostly `t1 = v; t2 = op(t1, x); v =
/// t2;`: a third of clang's time went into declaring, loading and storing
/// such locals. A temp read once, by the next statement, is printed in it
/// when it is a variable's value (no write comes between) or the value the
/// next statement writes to a variable (the same C expression either way,
/// so the same contraction and bits): `v = op(v, x);`.
void KernelEmitter::foldCopies(const ir::Block &B, const std::vector<int> &Uses,
                               const std::vector<int> &Defs) {
  for (size_t I = 0; I < B.size(); ++I) {
    const ir::Stmt &S = *B[I];
    foldCopies(S.Then, Uses, Defs);
    foldCopies(S.Else, Uses, Defs);
    foldCopies(S.Body, Uses, Defs);
    if (I + 1 == B.size() || S.K != ir::Stmt::Inst || S.Dst < 0 ||
        S.Mask >= 0 || ir::opInline(S.Opc))
      continue;
    const ir::Stmt &N = *B[I + 1];
    int T = S.Dst;
    if (Uses[T] != 1 || Defs[T] != 1 || Hoisted[T] || N.K != ir::Stmt::Inst ||
        ir::opInline(N.Opc) ||
        std::find(N.Args.begin(), N.Args.end(), T) == N.Args.end())
      continue;
    if (IL > 1 && F.VaryingTemp[T] != perChain(N))
      continue;
    bool Read = S.Opc == Op::GetVar;
    bool Written = N.Opc == Op::SetVar && N.Mask < 0 && N.Args[0] == T &&
                   F.VaryingVar[N.Var] == F.VaryingTemp[T] &&
                   F.Vars[N.Var].Ty == F.Temps[T] && S.Opc != Op::LoadArg &&
                   S.Opc != Op::ShadowLoad && S.Opc != Op::Discard;
    if (Read || Written)
      Folded[T] = true;
  }
}

/// Which temps are used outside the block that defines them (C scopes);
/// an inline op is used where its user is.
void KernelEmitter::scopes(const ir::Block &B,
                           std::vector<const ir::Block *> &Open) {
  Open.push_back(&B);
  std::function<void(int)> Use = [&](int T) {
    if (T < 0)
      return;
    if (isInline(T)) {
      for (int A : Def[T]->Args)
        Use(A);
      return;
    }
    if (std::find(Open.begin(), Open.end(), TempDef[T]) == Open.end())
      Hoisted[T] = true;
  };
  for (const auto &SP : B) {
    const ir::Stmt &S = *SP;
    if (S.K == ir::Stmt::Inst) {
      if (!ir::opInline(S.Opc)) {
        for (int A : S.Args)
          Use(A);
        Use(S.Mask);
      }
      if (S.Dst >= 0)
        TempDef[S.Dst] = &B;
      continue;
    }
    if (S.K == ir::Stmt::If)
      Use(S.Cond);
    for (int A : S.Args)
      Use(A);
    scopes(S.Then, Open);
    scopes(S.Else, Open);
    scopes(S.Body, Open);
    if (S.K == ir::Stmt::Loop)
      Use(S.Cond);
  }
  Open.pop_back();
}

/// Element offsets of each chain's lanes in the varying array parameters:
/// lane l's example starts l * stride elements after lane 0's.
void KernelEmitter::laneOffsets() {
  if (indexedLanes(F))
    return; // the wrapper passes them
  std::string IT = Sh.Wide ? "int64_t" : "int32_t";
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    if (!Pa.IsArray || Pa.Uniform || Pa.Kind != ir::ParamKind::User)
      continue;
    for (int Q = 0; Q <= numShadows(Pa); ++Q) {
      std::string Pre = Q ? shadowBase(Q - 1) : std::string("__bd_p");
      std::string N = Pre + std::to_string(I);
      std::string St = Pre + "s" + std::to_string(I);
      for (unsigned C = 0; C < IL; ++C) {
        // Chain C's lanes follow the C * W examples of the chains before.
        std::string L =
            C ? "(__bd_l + " + std::to_string(C) + " * (int)" + Sh.W() + ")"
              : "__bd_l";
        OS << "  " << IT << " " << N << "l" << chain(C) << "[" << Sh.W()
           << "];\n"
           << "  for (int __bd_l = 0; __bd_l < (int)" << Sh.W()
           << "; __bd_l++) " << N << "l" << chain(C) << "[__bd_l] = (" << IT
           << ")(" << L << " * " << St << ");\n"
           << "  bd_" << idxSfx() << " " << Pre << "o" << I << chain(C)
           << " = bd_load_" << idxSfx() << "(" << N << "l" << chain(C)
           << ");\n";
      }
    }
  }
}

/// The statement defining each temp, and which temps are declared up front
/// (used outside the block that defines them).
void KernelEmitter::indexTemps() {
  Def.assign(F.Temps.size(), nullptr);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Dst >= 0)
      Def[S.Dst] = &S;
  });
  Hoisted.assign(F.Temps.size(), false);
  TempDef.assign(F.Temps.size(), nullptr);
  std::vector<const ir::Block *> Open;
  scopes(F.Body, Open);
}

/// Whether the kernel is long (a function of its own, with its variables
/// scoped and its copies folded); sets MathOutOfLine.
bool KernelEmitter::chooseForm() {
  // A long kernel stays a function of its own: inlined into the chunk
  // loop, its whole body became one loop body, and LLVM's loop passes
  // (rotation, unrolling, LICM) grew quadratic in it; the call costs
  // nothing next to such a body.
  size_t Stmts = 0, Costly = 0;
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    ++Stmts;
    Costly +=
        S.K == ir::Stmt::Inst && S.Opc == Op::Math && ir::mathCostly(S.Fn);
  });
  // Per call in the function, not per chain: chains are chosen for loops
  // whose speed the calls' latency sets.
  MathOutOfLine = Costly > MathInlineMax;
  bool Long = Stmts * IL > KernelInlineMax;
  if (Long) {
    Scopes = varScopes(F, DroppedWrites);
    for (size_t V = 0; V < Scopes.size(); ++V)
      if (Scopes[V].In)
        ScopedIn[Scopes[V].In].push_back((int)V);
    std::vector<int> Uses(F.Temps.size(), 0), Defs(F.Temps.size(), 0);
    ir::walk(F.Body, [&](const ir::Stmt &S, int) {
      for (int X : S.Args)
        if (X >= 0)
          ++Uses[X];
      for (int X : {S.Mask, S.Cond, S.Aux})
        if (X >= 0)
          ++Uses[X];
      if (S.K == ir::Stmt::Inst && S.Dst >= 0)
        ++Defs[S.Dst];
    });
    for (const ir::Output &O : F.Outputs)
      if (O.Temp >= 0)
        ++Uses[O.Temp];
    Folded.assign(F.Temps.size(), false);
    foldCopies(F.Body, Uses, Defs);
  }
  return Long;
}

/// Deferring the tests pays where a kernel makes at least DeferMinCalls
/// such calls (its statements, before chains). At 32 bytes (Zen 4, min of
/// 300-600 runs of 4096 examples, A/B in one process, load 11):
/// bs_call_grad (17 calls) 3% and piecewise_grad (4) 5% faster, but of the
/// kernels with 2, softplus_grad 9% faster and logistic_loss_grad 5% and
/// lognormal_nll_grad 0-3% slower (each step keeps its inputs live to its
/// end for the rerun; docs/performance-kernels.md).
constexpr size_t DeferMinCalls = 3;

/// Whether the kernel calls exp, log, log1p and erfc without their tests of
/// rare lanes (bd_dfr_*, vmath_defer.h) and runs again as a whole when a
/// lane needs them: a loop-free gradient (NAME_grad: its two sweeps in one
/// step, many values live across them, where each test's branch and
/// out-of-line call cost spills) that makes DeferMinCalls of them inline
/// and has no effect but its outputs (no arrays, tapes, outside calls or
/// stores), so that running a step twice is running it once.
bool KernelEmitter::defers(bool Long) const {
  if (!DeferMath || Fl != Flavor::Grad || Long || Outline || MathOutOfLine ||
      !F.TapeSlots.empty())
    return false;
  for (const ir::Param &Pa : F.Params)
    if (Pa.IsArray)
      return false;
  bool Pure = true;
  size_t Calls = 0;
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Loop || S.K == ir::Stmt::RevLoop)
      Pure = false;
    if (S.K != ir::Stmt::Inst)
      return;
    // Writes of variables are done again by the step run again; writes of
    // arrays, the tape and outside calls are not undone.
    ir::OpEffect E = ir::opEffect(S.Opc);
    if (E != ir::OpEffect::None && E != ir::OpEffect::Var)
      Pure = false;
    if (S.Opc == Op::Math)
      Calls += S.Dst >= 0 && F.VaryingTemp[S.Dst] && ir::mathDeferrable(S.Fn);
  });
  return Pure && Calls >= DeferMinCalls;
}

/// NAME + "c": the step again with every math call testing its rare lanes,
/// out of line (the common step does not carry its code); \p Sig is the
/// kernel's signature, whose last two parameters are the mode and the flag.
std::string KernelEmitter::carefulCopy(const std::string &Sig) const {
  size_t Open = Sig.find(Name + "(") + Name.size() + 1;
  size_t Close = Sig.rfind(", int __bd_careful");
  std::string Params = Sig.substr(Open, Close - Open), Args;
  for (size_t At = 0; At < Params.size();) {
    size_t End = Params.find(", ", At);
    std::string P =
        Params.substr(At, End == std::string::npos ? End : End - At);
    size_t Start = P.find_last_of(" *") + 1;
    Args += P.substr(Start) + ", ";
    At = End == std::string::npos ? Params.size() : End + 2;
  }
  return "static __attribute__((noinline, cold, unused)) void " + Name + "c(" +
         Params + ") {\n  int __bd_bad = 0;\n  " + Name + "(" + Args +
         "1, &__bd_bad);\n}\n";
}

/// The kernel's name and parameters, up to its opening brace.
void KernelEmitter::signature(bool Long, const std::vector<int> &Arena) {
  OS << (Long ? "static __attribute__((noinline, unused)) void "
              : "static inline __attribute__((always_inline, unused)) void ")
     << Name << "(";
  // Per chain: its entry mask, varying arguments and outputs.
  auto Each = [&](const std::string &Decl, bool First = false) {
    for (unsigned C = 0; C < IL; ++C)
      OS << (First && !C ? "" : ", ") << Decl << chain(C);
  };
  Each(Sh.mask() + " __bd_m", true);
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    if (Pa.Kind == ir::ParamKind::Record)
      continue; // the wrapper passes its members
    if (Pa.IsArray) {
      // Lane offsets: from a stride, or given per chain (indexedLanes).
      bool Ix = !Pa.Uniform && indexedLanes(F);
      std::string Idx = "bd_" + idxSfx();
      OS << ", " << (Pa.Writable ? "" : "const ") << ctext::elemType(Pa)
         << " *__bd_p" << I;
      if (Ix)
        Each(Idx + " __bd_po" + std::to_string(I));
      else if (!Pa.Uniform)
        OS << ", ptrdiff_t __bd_ps" << I;
      for (int Q = 0; Q < numShadows(Pa); ++Q) {
        // A tangent array of an input is only read.
        bool Tangent = Fl == Flavor::Hvp ? Q == 1 : Fl == Flavor::Jvp;
        OS << ", " << (Tangent && !Pa.Writable ? "const " : "")
           << scalarType(Pa.Ty) << " *" << shadowBase(Q) << I;
        if (Ix)
          Each(Idx + " " + shadowBase(Q) + "o" + std::to_string(I));
        else if (!Pa.Uniform)
          OS << ", ptrdiff_t " << shadowBase(Q) << "s" << I;
      }
      continue;
    }
    if (Pa.Uniform)
      OS << ", " << scalarType(Pa.Ty) << " __bd_p" << I;
    else
      Each(Sh.vtype(Pa.Ty) + " __bd_p" + std::to_string(I));
  }
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    Each(Sh.vtype(F.Vars[F.Outputs[I].Var].Ty) + " *__bd_o" +
         std::to_string(I));
  if (!F.TapeSlots.empty())
    OS << ", bd_arena *__bd_ar, bd_tape *__bd_tp";
  // Variable-length arrays: the chunk function's, grown here.
  std::vector<int> Vla = vlaArrays(F);
  if (!Vla.empty() && F.TapeSlots.empty())
    OS << ", bd_arena *__bd_ar";
  for (int V : Vla)
    OS << ", bd_vla *__bd_vb" << V;
  // Large local arrays: the chunk function's arena memory.
  for (int V : Arena)
    OS << ", "
       << (F.VaryingVar[V] ? Sh.vtype(F.Vars[V].Ty)
                           : std::string(scalarType(F.Vars[V].Ty)))
       << " *" << varBase(V);
  for (const KeepArray &K : keepArrays())
    OS << ", " << K.CType << " *" << K.Name;
  if (Deferred)
    OS << ", int __bd_careful, int *__bd_bad";
  OS << ") {\n";
}

/// Per-chain arena arrays, loop counters, lane offsets and tape tops.
void KernelEmitter::prologue(bool Long, const std::vector<int> &Arena) {
  if (Long)
    noLifetimeMarkers();
  // A varying arena array holds every chain's copy, one after the other.
  for (int V : Arena)
    if (F.VaryingVar[V] && IL > 1)
      for (unsigned C = 0; C < IL; ++C)
        OS << "  " << Sh.vtype(F.Vars[V].Ty) << " *" << varBase(V) << chain(C)
           << " = " << varBase(V) << " + " << C * F.Vars[V].Len << ";\n";
  // A tape slot holds one vector (the mask type has the full width).
  if (!F.TapeSlots.empty())
    OS << "  __extension__ _Static_assert(sizeof(" << Sh.mask()
       << ") <= bd_tape_slot_bytes, \"a tape slot holds one vector\");\n";
  for (int L = 0; L < F.NumLoopIds; ++L)
    OS << "  int32_t " << counter(L) << " = 0;\n";
  laneOffsets();
  denseFill();
  raggedDecls();
  denseShadowFill();
  // Each chunk starts its tapes afresh; the memory is reused.
  for (size_t T = 0; T < F.TapeSlots.size(); ++T)
    OS << "  __bd_tp[" << T << "].top = 0;\n";
}

/// The variables declared at the top, zeroed.
void KernelEmitter::declareVars(const std::vector<int> &Arena) {
  // Variables nothing reads or writes any more (a return flag once every
  // store to it was pruned) are not declared: -Wunused-variable. Ones only
  // written (the value of a dead '?:') are marked unused:
  // -Wunused-but-set-variable.
  std::vector<bool> Used(F.Vars.size(), false), Read(F.Vars.size(), false);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    // (Tape ops use Var for their slot.)
    if (S.K == ir::Stmt::Inst && S.Var >= 0 &&
        (S.Opc == Op::GetVar || S.Opc == Op::SetVar || S.Opc == Op::LoadElem ||
         S.Opc == Op::StoreElem || S.Opc == Op::ZeroArr))
      Used[S.Var] = true;
    if (S.K == ir::Stmt::Inst && S.Var >= 0 &&
        (S.Opc == Op::GetVar || S.Opc == Op::LoadElem))
      Read[S.Var] = true;
  });
  for (size_t V = 0; V < F.Vars.size(); ++V) {
    // A variable-length array: room for one element until a declaration
    // runs (every index is clamped into it).
    if (Used[V] && F.Vars[V].CountVar >= 0) {
      OS << "  int32_t __attribute__((unused)) " << arrLen((int)V) << " = 0;\n";
      for (Ch = 0; Ch < (F.VaryingVar[V] ? IL : 1); ++Ch)
        OS << "  " << vlaElemType((int)V) << " *__attribute__((unused)) "
           << var((int)V) << " = 0;\n";
      Ch = 0;
      vlaBind((int)V, "1");
      continue;
    }
    for (Ch = 0; Ch < (F.VaryingVar[V] ? IL : 1); ++Ch) {
      Type Ty = F.Vars[V].Ty;
      if (!Used[V] || scoped((int)V))
        continue;
      if (F.Vars[V].Len > 0) {
        if (std::find(Arena.begin(), Arena.end(), (int)V) != Arena.end())
          continue;
        OS << "  "
           << (F.VaryingVar[V] ? Sh.vtype(Ty) : std::string(scalarType(Ty)))
           << " " << var(V) << "[" << F.Vars[V].Len << "];\n";
        continue;
      }
      const char *Unused = Read[V] ? "" : " __attribute__((unused))";
      if (F.VaryingVar[V])
        OS << "  " << Sh.vtype(Ty) << Unused << " " << var(V) << " = "
           << Sh.zero(Ty) << ";\n";
      else
        OS << "  " << scalarType(Ty) << Unused << " " << var(V) << " = 0;\n";
    }
  }
}

/// A long kernel's hoisted temps (values a block computes for blocks after
/// it: a gradient's forward sweep for its reverse sweep) live in an array
/// per type. As locals, each was stored at the kernel's start (its zero)
/// and in its block, and LLVM's mem2reg placed its phis by walking the
/// dominator tree from the entry block: the whole kernel once per temp
/// (more than 30 minutes for R's pbeta with toms708.c under `diff`, 15,600
/// such temps). The arrays are the chunk function's, from the arena once
/// per chunk call (KeepArray): memory SROA leaves alone, and not the
/// kernel's frame (docs/abi.md, "Stack frames"); a store where the value is
/// computed, loads where it is used, as the spills of so many values live
/// across the kernel were.
/// The arrays of masks, integers and uniform values start zeroed, as the
/// temps did (a mask of a block that did not run is false, a uniform value
/// may choose a branch or a loop count); the vector float ones do not (a
/// few hundred bytes per temp and step): only the lanes that ran the block
/// computing it reach a result from it (the others are blended away, as the
/// lanes a block computes for its inactive examples are), so its initial
/// zero was never observed.
void KernelEmitter::keepTemps() {
  KeepSlot.assign(F.Temps.size(), -1);
  for (size_t T = 0; T < F.Temps.size(); ++T) {
    if (!Hoisted[T] || isInline(T) || !Def[T] || Def[T]->Opc == Op::Extern)
      continue;
    KeepSlot[T] = KeepCount[{F.Temps[T], F.VaryingTemp[T]}]++;
  }
}

std::vector<KeepArray> KernelEmitter::keepArrays() const {
  std::vector<KeepArray> R;
  for (const auto &[Key, N] : KeepCount) {
    auto [Ty, Vary] = Key;
    R.push_back({keepArray(Ty, Vary),
                 Vary ? Sh.vtype(Ty) : std::string(scalarType(Ty)),
                 Vary ? N * IL : (unsigned)N});
  }
  return R;
}

/// The temps declared up front (Hoisted), zeroed.
void KernelEmitter::declareTemps() {
  for (const KeepArray &K : keepArrays()) {
    auto It =
        std::find_if(KeepCount.begin(), KeepCount.end(), [&](const auto &KC) {
          return keepArray(KC.first.first, KC.first.second) == K.Name;
        });
    auto [Ty, Vary] = It->first;
    if (!Vary || (Ty != Type::F64 && Ty != Type::F32))
      OS << "  for (int __bd_j = 0; __bd_j < " << K.Len << "; __bd_j++) "
         << K.Name << "[__bd_j] = " << (Vary ? Sh.zero(Ty) : "0") << ";\n";
  }
  for (size_t T = 0; T < F.Temps.size(); ++T)
    for (Ch = 0; Ch < (F.VaryingTemp[T] ? IL : 1); ++Ch) {
      if (!Hoisted[T] || isInline(T) || (!KeepSlot.empty() && KeepSlot[T] >= 0))
        continue;
      Type Ty = F.Temps[T];
      if (F.VaryingTemp[T])
        OS << "  " << Sh.vtype(Ty) << " " << temp(T) << " = " << Sh.zero(Ty)
           << ";\n";
      else
        OS << "  " << scalarType(Ty) << " " << temp(T) << " = 0;\n";
    }
  Ch = 0;
}

/// (void) for the masks and for the parameters nothing reads.
void KernelEmitter::unusedParams() {
  for (unsigned C = 0; C < IL; ++C)
    OS << "  (void)__bd_m" << chain(C) << ";\n";
  // A parameter nothing reads (the need flag of a gradient that is always
  // 0) would be -Wunused-parameter.
  std::vector<bool> ParamRead(F.Params.size(), false);
  auto Once = [](const ir::Param &Pa) { return Pa.Uniform || Pa.IsArray; };
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Opc == Op::Param && S.IVal >= 0 &&
        (size_t)S.IVal < F.Params.size())
      ParamRead[S.IVal] = true;
  });
  for (size_t I = 0; I < F.Params.size(); ++I)
    if (!ParamRead[I] && F.Params[I].Kind != ir::ParamKind::Record)
      for (unsigned C = 0; C < (Once(F.Params[I]) ? 1 : IL); ++C)
        OS << "  (void)__bd_p" << I << (Once(F.Params[I]) ? "" : chain(C))
           << ";\n";
}

/// (void) for the arrays, shadows, strides and lane offsets nothing
/// accesses.
void KernelEmitter::unusedArrays() {
  // A member of an array of records the function never accesses, or an
  // array or shadow nothing touches (read only in comparisons, or in code
  // that was deleted): its array, shadows, strides and lane offsets are
  // passed all the same.
  std::vector<bool> Accessed(F.Params.size(), false);
  std::vector<unsigned> Shadowed(F.Params.size(), 0);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K != ir::Stmt::Inst || S.IVal < 0 ||
        (size_t)S.IVal >= F.Params.size())
      return;
    bool Shadow = S.Opc == Op::ShadowLoad || S.Opc == Op::ShadowStore ||
                  S.Opc == Op::ShadowAdd;
    if (Shadow || S.Opc == Op::LoadArg || S.Opc == Op::StoreArg)
      Accessed[S.IVal] = true;
    if (Shadow)
      Shadowed[S.IVal] |= 1u << S.Shadow;
  });
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    if (!Pa.IsArray || (Pa.Record < 0 && Pa.Kind != ir::ParamKind::User))
      continue;
    for (int Q = 0; Q <= numShadows(Pa); ++Q) {
      if (Q ? (Shadowed[I] >> (Q - 1)) & 1 : Accessed[I])
        continue;
      std::string Pre = Q ? shadowBase(Q - 1) : std::string("__bd_p");
      OS << "  (void)" << Pre << I << ";\n";
      if (Pa.Uniform)
        continue;
      if (!indexedLanes(F))
        OS << "  (void)" << Pre << "s" << I << ";\n";
      for (unsigned C = 0; C < IL; ++C)
        OS << "  (void)" << Pre << "o" << I << chain(C) << ";\n";
    }
  }
}

std::string KernelEmitter::run() {
  assert(F.batched() && F.Lanes.VectorBits == 0 && IL >= 1 &&
         "the printer knows the target's own width");
  indexTemps();
  bool Long = chooseForm();
  std::vector<int> Defs(F.Temps.size(), 0);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Dst >= 0)
      ++Defs[S.Dst];
  });
  flatten(F.Body, 1, false, Defs);
  if (Long)
    keepTemps();
  Deferred = defers(Long);
  denseArrays();
  raggedBlocks();
  std::vector<int> Arena = arenaArrays(F);
  size_t SigAt = OS.str().size();
  signature(Long, Arena);
  std::string Sig = OS.str().substr(SigAt);
  prologue(Long, Arena);
  declareVars(Arena);
  declareTemps();
  unusedParams();
  unusedArrays();
  block(F.Body);
  denseShadowStore();
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    for (Ch = 0; Ch < IL; ++Ch)
      OS << "  *__bd_o" << I << ch() << " = " << temp(F.Outputs[I].Temp)
         << ";\n";
  Ch = 0;
  OS << "}\n";
  if (Deferred)
    OS << carefulCopy(Sig);
  std::string Copies;
  for (const auto &[CopyName, Def] : MathCopies)
    Copies += Def;
  return Copies + OS.str();
}

} // namespace kernel

std::string emitKernel(const ir::Function &F, const std::string &Name,
                       Flavor Fl, bool MathOutline, bool DeferMath,
                       bool *Deferred, std::vector<KeepArray> *Keeps,
                       bool RaggedBlocks) {
  kernel::KernelEmitter KE(F, Name, Fl, MathOutline, DeferMath, RaggedBlocks);
  std::string Code = KE.run();
  if (Deferred)
    *Deferred = KE.deferred();
  if (Keeps)
    *Keeps = KE.keepArrays();
  return Code;
}

} // namespace batchdiff
