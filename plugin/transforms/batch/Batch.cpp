//===- Batch.cpp - scalar IR to batched IR --------------------------------===//
#include "transforms/batch/Batch.h"

#include <algorithm>
#include <vector>

namespace batchdiff {
namespace {

using ir::Op;
using ir::Type;

/// All-lanes fast paths: at most this many nested levels (each doubles the
/// code of its branch), and only for branches with fewer statements.
constexpr int MaxFastDepth = 2;
constexpr size_t MaxFastSize = 300;

/// Branch-free per-lane branches: both sides are computed for every lane
/// and their writes blended, with no lane test, when together they cost at
/// most this many units (costOf) and cannot misbehave on lanes that do not
/// take them (safeSide). Above it, skipping an untaken side pays for the
/// test and the mispredicted jumps of mixed vectors.
} // namespace
const int BranchFreeMaxCost = 48;
namespace {

/// Cost units of one statement computed for all lanes: 1 for plain
/// arithmetic, more for divisions, gathers and math calls.
int costOf(const ir::Stmt &S) {
  switch (S.Opc) {
  case Op::Div:
  case Op::Rem:
  case Op::Recip:
  case Op::DivX: // (a product, two FMAs and a range test: as a division)
    return 4;
  case Op::LoadElem:
  case Op::StoreElem:
    return 4;
  case Op::Math:
    switch (S.Fn) {
    case ir::MathFn::Fabs:
    case ir::MathFn::Fmin:
    case ir::MathFn::Fmax:
    case ir::MathFn::Copysign:
    case ir::MathFn::Floor:
    case ir::MathFn::Ceil:
    case ir::MathFn::Trunc:
    case ir::MathFn::Rint:
    case ir::MathFn::Nearbyint:
    case ir::MathFn::Fma:
      return 1;
    case ir::MathFn::Sqrt:
      return 4;
    default:
      return 16;
    }
  default:
    return 1;
  }
}

/// Whether \p B may run for lanes that do not take it: ops whose Blend
/// (Ops.def) allows it (plain computation, writes of variables and local
/// arrays, blended under the side's mask; not accesses of array parameters
/// and shadows, integer division, tape operations), and nested ifs of the
/// same kind; no loops, no jn or yn (glibc's take O(|n|) steps, and a lane
/// that does not take the side may hold any order: under a mask it gets
/// order 0, calmArg). Also false once \p Cost passes BranchFreeMaxCost,
/// which every caller rejects: the walk stops there, not at the end of a
/// nest of ifs (10,000 early returns nest 10,000 ifs, each of them tested).
bool safeSide(const ir::Function &F, const ir::Block &B, int &Cost) {
  for (const auto &SP : B) {
    const ir::Stmt &S = *SP;
    if (S.K == ir::Stmt::Loop || S.K == ir::Stmt::RevLoop)
      return false;
    if (S.K == ir::Stmt::If) {
      if (!safeSide(F, S.Then, Cost) || !safeSide(F, S.Else, Cost))
        return false;
      continue;
    }
    if (S.Opc == Op::Math &&
        (S.Fn == ir::MathFn::Jn || S.Fn == ir::MathFn::Yn))
      return false;
    ir::OpBlend Blend = ir::opBlend(S.Opc);
    if (Blend == ir::OpBlend::No ||
        (Blend == ir::OpBlend::Float && !ir::isFloat(F.Temps[S.Dst])))
      return false;
    Cost += costOf(S);
    if (Cost > BranchFreeMaxCost)
      return false;
  }
  return true;
}

/// Whether \p B (nested statements too) holds at least \p Left statements
/// (counted down): stops there.
bool atLeast(const ir::Block &B, size_t &Left) {
  for (const auto &SP : B)
    if (--Left == 0 || atLeast(SP->Then, Left) || atLeast(SP->Else, Left) ||
        atLeast(SP->Body, Left))
      return true;
  return false;
}

/// Whether a statement of \p B from index \p From on (nested ones too)
/// reads temp \p T.
bool usesTemp(const ir::Block &B, size_t From, int T) {
  for (size_t I = From; I < B.size(); ++I) {
    const ir::Stmt &S = *B[I];
    bool Found = S.Mask == T || S.Cond == T;
    for (int A : S.Args)
      Found |= A == T;
    if (Found || usesTemp(S.Then, 0, T) || usesTemp(S.Else, 0, T) ||
        usesTemp(S.Body, 0, T))
      return true;
  }
  return false;
}

/// Independent chains (LaneLayout::Interleave): a loop's trips form one
/// dependency chain per vector of examples (each trip needs the last one's
/// result, and its exit test waits for it), so a kernel with a loop keeps
/// the core waiting on latency. Processing 2 vectors per step, each with
/// its own masks, gives it independent work to overlap; up to
/// ChainsMaxStmts batched statements (beyond, the code and its live
/// registers double for a body that has independent work of its own:
/// rnn_ragged_grad, 322 statements, ran 107 ns per example with 1 chain and
/// 125-149 with 2; ncbrt_grad, 248, 150 with 1 and 100 with 2). 4
/// chains once measured no faster than 2 on bench_chains' loops and made
/// the gradients 3-5x slower (spills); loops without arrays now gain from
/// them (LoopChains, below).
constexpr size_t ChainsMaxStmts = 300;
/// Without a loop, consecutive vectors overlap only while one vector's body
/// fits the core's out-of-order window. bs_call_batched's dependency chain
/// runs through sqrt, log, two erfc and exp (~160 cycles, ~290
/// instructions per vector): 2 chains took it from 4.13x to 4.79-5.35x the
/// scalar loop (bench_double, load 11); lognormal_nll (two logs) was the
/// same either way, and kernels with fewer calls were not measured. So a
/// loop-free primal kernel with at least ChainsMinMath costly math calls
/// gets StraightChains; gradients get GradChains (below) and tangents
/// (not measured with more, and with twice the live values) keep 1. With
/// 64-byte vectors (AVX-512, Zen 4) 2 chains stayed 10-16% ahead of 1 (CPU
/// time, A/B in one process, both orders).
constexpr size_t ChainsMinMath = 8;
/// A short loop-free kernel whose costly math calls feed each other (at least
/// ChainsMinDepth on one dependency path: logistic_loss's log1pf(expf(...)),
/// softplus) is one long chain per vector too: 2 chains ran softplus ~10%
/// and logistic_loss ~4% faster with 64-byte vectors, ~5% and ~7% with
/// 32-byte ones (Zen 4, CPU time, A/B in one process, both orders, load
/// 12). Kernels whose calls are side by side (lognormal_nll's two logs:
/// ~3% slower with 2) or on different paths (piecewise) keep 1.
constexpr size_t ChainsMinDepth = 2;
/// The chains of such loop-free kernels: 4. Their time is one vector's
/// latency, and 2 chains still left the core waiting: 4 chains against 2
/// (Zen 4, min of 2000 runs of 4096 examples, A/B alternating, load 11-16)
/// ran logistic_loss 16% and 20%, softplus 21% and 18%, bs_call 12% and
/// 12% faster with 32- and 64-byte vectors (docs/performance-kernels.md). 4
/// chains lost on lognormal_nll, whose two logs are side by side: it keeps 1.
constexpr unsigned StraightChains = 4;

/// Loop-free gradients (NAME_grad: a seed, no tangent) of up to
/// GradMaxStmts statements get GradChains. Their reverse sweep waits on
/// the forward values and on its own divisions, and one vector per step
/// left the core waiting: 2 chains against 1 (Zen 4, min of 1000 runs of
/// 4096 examples, A/B alternating, load 10-12) ran lognormal_nll_grad 7%
/// and 9%, logistic_loss_grad 7% and 12%, softplus_grad 7% and 8%,
/// gelu_grad 8% and 10%, piecewise_grad (541 statements) 5% and 13%,
/// ray_sphere_grad (591) 9-12% and 19%, bs_call_grad (1117) 4% and 8%,
/// reproj_grad (1327) 17% and 5% faster with 32- and 64-byte vectors;
/// larger ones were not measured. 4 made piecewise_grad 18-50% and
/// reproj_grad 6-9% slower than 2. Tangents (NAME_jvp, NAME_hvp) were not
/// measured and keep 1.
constexpr unsigned GradChains = 2;
constexpr size_t GradMaxStmts = 1500;
/// A primal loop kernel (NAME_batched) without array parameters whose
/// loops divide or call costly math (a Newton iteration) is all latency:
/// each trip's divide and multiplies wait for the last trip's. 4 chains
/// against 2 (Zen 4, min of 400 runs of 4096 examples, A/B in one process,
/// load 16-19) ran ncbrt 27-32% and 44%, implied_vol 15% and 15% faster
/// with 32- and 64-byte vectors. NAME_grad too when its tape rows stay
/// small (LoopGradMaxRow). A loop
/// that reads an array keeps 2 (rnn_ragged: its gathers and longest lane,
/// 4 chains measured slower, docs/loops.md), and so does a kernel with
/// more costly math outside its loops than long-latency work in them (the
/// code doubles again for work that is not the loop's: compile_time.sh's
/// functions; implied_vol's hoisted sqrt and log count as outside).
constexpr unsigned LoopChains = 4;
/// NAME_grad of such a kernel gets LoopChains as well when every tape row
/// holds at most LoopGradMaxRow slots with them (2 per chain): a row is
/// slots x chains, and the tape of a long loop grows with it (loops_tape
/// bounds a row of 8). ncbrt_grad (2 slots per chain: the reverse sweep
/// recomputes x*x, 3x and 3x*x) ran 33% (64-byte vectors) and 26%
/// (32-byte) faster with 4 chains than with 2 (min of 400 runs of 4096
/// examples, A/B in one process, load 10-11; docs/performance-kernels.md).
constexpr int LoopGradMaxRow = 8;

/// Costly math calls outside the loops of \p B (Out), and costly math
/// calls, square roots and divisions inside them (In).
void loopWork(const ir::Block &B, bool InLoop, size_t &Out, size_t &In) {
  for (const auto &S : B) {
    bool Loop = S->K == ir::Stmt::Loop || S->K == ir::Stmt::RevLoop;
    if (S->K == ir::Stmt::Inst && S->Opc == Op::Math)
      (InLoop ? In : Out) +=
          ir::mathCostly(S->Fn) || (InLoop && S->Fn == ir::MathFn::Sqrt);
    In += InLoop && S->K == ir::Stmt::Inst &&
          (S->Opc == Op::Div || S->Opc == Op::Recip || S->Opc == Op::DivX);
    loopWork(S->Then, InLoop, Out, In);
    loopWork(S->Else, InLoop, Out, In);
    loopWork(S->Body, InLoop || Loop, Out, In);
  }
}

/// The most costly math calls on one dependency path of loop-free \p F
/// (through temps and variables; statements in program order).
size_t mathDepth(const ir::Function &F) {
  std::vector<size_t> TD(F.Temps.size(), 0), VD(F.Vars.size(), 0);
  size_t Max = 0;
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K != ir::Stmt::Inst)
      return;
    size_t D = 0;
    for (int A : S.Args)
      if (A >= 0 && (size_t)A < TD.size())
        D = std::max(D, TD[A]);
    bool VarOK = S.Var >= 0 && (size_t)S.Var < VD.size();
    if (S.Opc == Op::GetVar && VarOK)
      D = std::max(D, VD[S.Var]);
    D += S.Opc == Op::Math && ir::mathCostly(S.Fn);
    if (S.Opc == Op::SetVar && VarOK)
      VD[S.Var] = std::max(VD[S.Var], D);
    if (S.Dst >= 0 && (size_t)S.Dst < TD.size())
      TD[S.Dst] = D;
    Max = std::max(Max, D);
  });
  return Max;
}

/// The chain count for batched function \p F and why. \p Uncopied: the
/// statements of the guarded loops that no longer get a second, fast-path
/// copy (Batcher::fastPays), counted as before so that the limit keeps the
/// choices it was measured with (rnn_ragged_grad: 339 statements with the
/// copies, 216 without, and slower with 2 chains).
unsigned chooseChains(const ir::Function &F, std::string &Why,
                      size_t Uncopied) {
  size_t Stmts = Uncopied, Loops = 0, Vars = 0, Math = 0;
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    ++Stmts;
    Loops += S.K == ir::Stmt::Loop || S.K == ir::Stmt::RevLoop;
    Math +=
        S.K == ir::Stmt::Inst && S.Opc == ir::Op::Math && ir::mathCostly(S.Fn);
  });
  bool Seed = false, Tangent = false, TanArray = false;
  for (const ir::Param &P : F.Params) {
    Seed |= P.Kind == ir::ParamKind::Seed;
    Tangent |= P.Kind == ir::ParamKind::Tangent;
    // NAME_hvp's flags of tangent arrays (its second shadow)
    TanArray |= P.Kind == ir::ParamKind::Need && (P.Shadows & 2);
  }
  bool Primal = !Seed && !Tangent;
  bool Grad = Seed && !Tangent && !TanArray;
  for (size_t V = 0; V < F.Vars.size(); ++V)
    Vars += F.VaryingVar[V] && F.Vars[V].Len == 0;
  std::string Sz = std::to_string(Stmts) + " statements, " +
                   std::to_string(Vars) + " varying variables";
  bool Straight = Loops == 0 && Primal && Stmts <= ChainsMaxStmts;
  if (Straight && Math >= ChainsMinMath) {
    Why = "no loop, but a dependency chain through " + std::to_string(Math) +
          " costly math calls (" + Sz + ")";
    return StraightChains;
  }
  size_t Depth = Straight ? mathDepth(F) : 0;
  if (Depth >= ChainsMinDepth) {
    Why = "no loop, but " + std::to_string(Depth) +
          " costly math calls in a row on one dependency path (" + Sz + ")";
    return StraightChains;
  }
  if (Loops == 0 && Grad && Stmts <= GradMaxStmts) {
    Why = "no loop, a gradient: its reverse sweep waits (" + Sz + ")";
    return GradChains;
  }
  if (Loops == 0) {
    Why = "no loop: consecutive vectors already overlap";
    return 1;
  }
  if (Stmts > ChainsMaxStmts) {
    Why = "loop kernel of " + Sz + ", more than " +
          std::to_string(ChainsMaxStmts) + " statements";
    return 1;
  }
  bool Arrays = false;
  for (const ir::Param &P : F.Params)
    Arrays |= P.IsArray;
  size_t Out = 0, In = 0;
  loopWork(F.Body, false, Out, In);
  int Row = 0;
  for (int Slots : F.TapeSlots)
    Row = std::max(Row, Slots * (int)LoopChains);
  bool SmallTape = Grad && Row <= LoopGradMaxRow;
  if (!Arrays && (Primal || SmallTape) && In > 0 && Out <= In) {
    Why = "loop kernel of " + Sz +
          ", no array parameter, its loops divide or call costly math";
    if (Grad)
      Why += ", tape rows of at most " + std::to_string(Row) + " slots";
    return LoopChains;
  }
  Why = "loop kernel of " + Sz;
  return 2;
}

class Batcher {
public:
  Batcher(const ir::Function &F, const Uniformity &U, BatchReport &R,
          unsigned Chains)
      : Src(F), U(U), R(R), Chains(Chains) {}
  ir::Function run();

private:
  /// The current execution mask. AllOn: no enclosing per-lane branch or
  /// loop, so lanes that are off are dead (past the batch's end) and writes
  /// need not keep their values.
  struct Mask {
    int Temp;
    bool AllOn;
    /// A side of a masked if (nested blocks too): lanes that are off may
    /// hold values meant for the other side (calmArg).
    bool Side = false;
  };

  int temp(Type T, bool Varying) {
    int D = Out.newTemp(T);
    Out.VaryingTemp[D] = Varying;
    return D;
  }
  ir::Stmt &push(ir::Block &B, Op O, int Dst, std::vector<int> Args) {
    auto S = std::make_unique<ir::Stmt>();
    S->Opc = O;
    S->Dst = Dst;
    S->Args = std::move(Args);
    B.push_back(std::move(S));
    return *B.back();
  }
  ir::Stmt &control(ir::Block &B, ir::Stmt::Kind K, int Cond) {
    auto S = std::make_unique<ir::Stmt>();
    S->K = K;
    S->Cond = Cond;
    B.push_back(std::move(S));
    return *B.back();
  }
  /// A new temp \p O(Args) of type \p T.
  int def(ir::Block &B, Op O, Type T, bool Varying, std::vector<int> Args) {
    int D = temp(T, Varying);
    push(B, O, D, std::move(Args));
    return D;
  }
  /// \p T as a vector: itself, or a broadcast of a uniform value.
  int vec(ir::Block &B, int T) {
    if (Out.VaryingTemp[T])
      return T;
    return def(B, Op::Splat, Out.Temps[T], true, {T});
  }
  bool blend(const ir::Stmt &S, const Mask &M) const {
    auto It = U.NeedsBlend.find(&S);
    return It != U.NeedsBlend.end() && It->second && !M.AllOn;
  }
  bool varyingCond(const ir::Stmt &S) const {
    auto It = U.VaryingCond.find(&S);
    return It != U.VaryingCond.end() && It->second;
  }
  bool fastPays(const ir::Block &B) const;
  void calmArg(ir::MathFn Fn, std::vector<int> &A, ir::Block &B, const Mask &M);

  void block(const ir::Block &In, ir::Block &B, const Mask &M);
  void inst(const ir::Stmt &S, ir::Block &B, const Mask &M);
  void ifStmt(const ir::Stmt &S, ir::Block &B, const Mask &M);
  void maskedIf(const ir::Stmt &S, ir::Block &B, const Mask &M);
  void branchFreeIf(const ir::Stmt &S, ir::Block &B, const Mask &M);
  void loop(const ir::Stmt &S, ir::Block &B, const Mask &M);
  void revLoop(const ir::Stmt &S, ir::Block &B, const Mask &M);

  const ir::Function &Src;
  const Uniformity &U;
  BatchReport &R;
  unsigned Chains;
  ir::Function Out;
  int FastDepth = 0;
  /// Statements of the guards given no fast path by fastPays alone.
  size_t Uncopied = 0;
};

void Batcher::inst(const ir::Stmt &S, ir::Block &B, const Mask &M) {
  std::unique_ptr<ir::Stmt> C = ir::cloneStmt(S);
  auto &A = C->Args;
  switch (S.Opc) {
  case Op::Param:
  case Op::GetVar:
  case Op::LoadElem: // a uniform index into a varying array stays scalar
  case Op::TapeLoad:
  case Op::TapeStore:
  case Op::TapeReserve:
  case Op::TapeCommit:
  case Op::TapeRewind:
  case Op::LoopIndex:
  case Op::LoopCount:
    break;
  case Op::LoadArg:
  case Op::ShadowLoad:
    // A gather under the mask; a uniform array at a uniform index is one
    // scalar load.
    if (Out.VaryingTemp[S.Dst]) {
      A[0] = vec(B, A[0]);
      C->Mask = M.Temp;
    }
    break;
  case Op::StoreArg:
  case Op::ShadowStore:
  case Op::ShadowAdd:
    A[0] = vec(B, A[0]);
    A[1] = vec(B, A[1]);
    C->Mask = M.Temp;
    break;
  case Op::SetVar:
    if (Out.VaryingVar[S.Var]) {
      A[0] = vec(B, A[0]);
      if (blend(S, M))
        C->Mask = M.Temp;
    }
    break;
  case Op::StoreElem:
    if (Out.VaryingVar[S.Var]) {
      A[1] = vec(B, A[1]);
      if (blend(S, M))
        C->Mask = M.Temp;
    }
    break;
  case Op::ZeroArr:
    // A variable-length array's count is taken over the lanes that are on
    // only (plugin/lower/LowerVla.cpp): it always carries the mask.
    if (blend(S, M) || !S.Args.empty())
      C->Mask = M.Temp;
    break;
  case Op::Extern: // made for the lanes that are on; scalar arguments stay
    C->Mask = M.Temp;
    break;
  default:
    if (S.Dst >= 0 && Out.VaryingTemp[S.Dst])
      for (int &X : A)
        X = vec(B, X);
    if (S.Opc == Op::Math && M.Side && Out.VaryingTemp[S.Dst])
      calmArg(S.Fn, A, B, M);
    break;
  }
  B.push_back(std::move(C));
}

/// The value calmArg gives lanes that are off, for the math functions
/// whose vector code leaves its fast path for some arguments (exp: |x| >
/// 708; log: x <= 0, subnormals, infinities, NaN; erfc: x > 8; sin, cos:
/// large |x|), or NaN for the others.
double calmValue(ir::MathFn Fn) {
  switch (Fn) {
  case ir::MathFn::Exp:
  case ir::MathFn::Expm1:
  case ir::MathFn::Log1p:
  case ir::MathFn::Log1pexp:
  case ir::MathFn::Erf:
  case ir::MathFn::Erfc:
  case ir::MathFn::Sin:
  case ir::MathFn::Cos:
    return 0.0;
  case ir::MathFn::Log:
    return 1.0;
  default:
    return __builtin_nan("");
  }
}

/// On a side of a masked if, the lanes that are off compute values nobody
/// reads, from inputs meant for the other side: sqrt of a negative, a
/// quotient far out of range. Where such a lane sends a math call off its
/// fast path (out of line, with the spills around the call), the whole
/// vector pays: bs_call_grad's erfc of x > 8 for examples with d1 < -9 cost
/// 4.5% at 32 bytes (docs/performance-history-2.md, "Lanes that are off give
/// math calls a harmless argument"). So the call's argument is the side's
/// mask's select of it and calmValue: one blend. The lanes that are on see
/// the same argument, and compute the same bits.
void Batcher::calmArg(ir::MathFn Fn, std::vector<int> &A, ir::Block &B,
                      const Mask &M) {
  // jn, yn: glibc's recurrences take O(|n|) steps, and a lane that is off
  // may hold an order meant for the other side (`n < 50 ? jn(n, x) : ...`
  // with n = 1e9): order 0 there.
  if ((Fn == ir::MathFn::Jn || Fn == ir::MathFn::Yn) && Out.VaryingTemp[A[0]]) {
    int K = def(B, Op::ConstI, Type::I32, false, {});
    B.back()->IVal = 0;
    A[0] = def(B, Op::Select, Type::I32, true, {M.Temp, A[0], vec(B, K)});
    return;
  }
  double V = calmValue(Fn);
  if (A.size() != 1 || V != V || !Out.VaryingTemp[A[0]])
    return;
  Type T = Out.Temps[A[0]];
  int K = def(B, Op::ConstF, T, false, {});
  B.back()->FVal = V;
  A[0] = def(B, Op::Select, T, true, {M.Temp, A[0], vec(B, K)});
}

/// A per-lane branch: where the mask is all on and the branch is small,
/// first test whether every lane goes the same way (then that side runs as
/// it is); otherwise each side runs under its own mask.
void Batcher::ifStmt(const ir::Stmt &S, ir::Block &B, const Mask &M) {
  if (!varyingCond(S)) {
    ir::Stmt &C = control(B, ir::Stmt::If, S.Cond);
    block(S.Then, C.Then, M);
    block(S.Else, C.Else, M);
    return;
  }
  if (S.Rare) { // (nor in the remarks' counts)
    maskedIf(S, B, M);
    return;
  }
  int Cost = 0;
  if (safeSide(Src, S.Then, Cost) && safeSide(Src, S.Else, Cost) &&
      Cost <= BranchFreeMaxCost) {
    R.BranchFree.insert(&S);
    branchFreeIf(S, B, M);
    return;
  }
  R.Masked.insert(&S);
  size_t Left = MaxFastSize;
  if (!M.AllOn || FastDepth >= MaxFastDepth || atLeast(S.Then, Left) ||
      atLeast(S.Else, Left)) {
    maskedIf(S, B, M);
    return;
  }
  if (!fastPays(S.Then) && !fastPays(S.Else)) {
    size_t At = B.size();
    maskedIf(S, B, M);
    for (size_t I = At; I < B.size(); ++I) {
      ++Uncopied;
      for (const ir::Block *Sub : {&B[I]->Then, &B[I]->Else, &B[I]->Body})
        ir::walk(*Sub, [&](const ir::Stmt &, int) { ++Uncopied; });
    }
    return;
  }
  ++FastDepth;
  int All = def(B, Op::All, Type::Bool, false, {S.Cond});
  ir::Stmt &C = control(B, ir::Stmt::If, All);
  block(S.Then, C.Then, M);
  if (S.Else.empty()) {
    int Any = def(C.Else, Op::Any, Type::Bool, false, {S.Cond});
    ir::Stmt &Some = control(C.Else, ir::Stmt::If, Any);
    maskedIf(S, Some.Then, M);
  } else {
    int None = def(C.Else, Op::None, Type::Bool, false, {S.Cond});
    ir::Stmt &No = control(C.Else, ir::Stmt::If, None);
    block(S.Else, No.Then, M);
    maskedIf(S, No.Else, M);
  }
  --FastDepth;
}

/// Whether \p B runs faster under the all-on mask of a fast path than
/// under its side's mask: a write that is blended only under a partial mask,
/// or a branch that gets a fast path of its own. The body of a per-lane loop
/// runs under the loop's mask either way: a side that is only such a loop
/// (the guard `if (0 < k)` of `for (j = 0; j < k; j++)`) gains one `and` from
/// a fast path and would double the loop's code for it (issue 8).
bool Batcher::fastPays(const ir::Block &B) const {
  for (const auto &SP : B) {
    const ir::Stmt &S = *SP;
    switch (S.K) {
    case ir::Stmt::Inst: {
      auto It = U.NeedsBlend.find(&S);
      if (It != U.NeedsBlend.end() && It->second)
        return true;
      break;
    }
    case ir::Stmt::If: {
      int Cost = 0;
      if (!varyingCond(S)) {
        if (fastPays(S.Then) || fastPays(S.Else))
          return true;
      } else if (!safeSide(Src, S.Then, Cost) || !safeSide(Src, S.Else, Cost) ||
                 Cost > BranchFreeMaxCost) {
        return true;
      }
      break;
    }
    case ir::Stmt::Loop:
    case ir::Stmt::RevLoop:
      if (!varyingCond(S) && fastPays(S.Body))
        return true;
      break;
    }
  }
  return false;
}

/// Both sides run for every lane, each under its own mask for its writes.
/// Under an all-on mask, lanes that are off are dead, so the condition
/// itself is the then-side's mask.
void Batcher::branchFreeIf(const ir::Stmt &S, ir::Block &B, const Mask &M) {
  size_t At = B.size();
  int MT =
      M.AllOn ? S.Cond : def(B, Op::And, Type::Bool, true, {M.Temp, S.Cond});
  block(S.Then, B, {MT, false, M.Side});
  // A side with only uniform writes (a loop counter's step) needs no mask.
  if (!M.AllOn && !usesTemp(B, At + 1, MT))
    B.erase(B.begin() + At);
  if (S.Else.empty())
    return;
  At = B.size();
  int ME = M.AllOn ? def(B, Op::Not, Type::Bool, true, {S.Cond})
                   : def(B, Op::AndNot, Type::Bool, true, {M.Temp, S.Cond});
  block(S.Else, B, {ME, false, M.Side});
  if (!usesTemp(B, At + 1, ME))
    B.erase(B.begin() + At);
}

/// Each side runs under its own mask and is skipped when no lane takes it.
void Batcher::maskedIf(const ir::Stmt &S, ir::Block &B, const Mask &M) {
  int MT = def(B, Op::And, Type::Bool, true, {M.Temp, S.Cond});
  ir::Stmt &T =
      control(B, ir::Stmt::If, def(B, Op::Any, Type::Bool, false, {MT}));
  block(S.Then, T.Then, {MT, false, true});
  if (S.Else.empty())
    return;
  int ME = def(B, Op::AndNot, Type::Bool, true, {M.Temp, S.Cond});
  ir::Stmt &E =
      control(B, ir::Stmt::If, def(B, Op::Any, Type::Bool, false, {ME}));
  block(S.Else, E.Then, {ME, false, true});
}

/// A per-lane loop: lanes leave one by one (their mask bit cleared when
/// their condition fails); it ends when none is left.
void Batcher::loop(const ir::Stmt &S, ir::Block &B, const Mask &M) {
  if (!varyingCond(S)) {
    ir::Stmt &C = control(B, ir::Stmt::Loop, S.Cond);
    C.Id = S.Id;
    block(S.Body, C.Body, M);
    return;
  }
  int Lanes = Out.newVar("__lanes", Type::Bool);
  Out.VaryingVar[Lanes] = true;
  push(B, Op::SetVar, -1, {M.Temp}).Var = Lanes;
  ir::Stmt &C = control(B, ir::Stmt::Loop, -1);
  C.Id = S.Id;
  int ML = temp(Type::Bool, true);
  push(C.Body, Op::GetVar, ML, {}).Var = Lanes;
  block(S.Body, C.Body, {ML, false});
  int Next = def(C.Body, Op::And, Type::Bool, true, {ML, S.Cond});
  push(C.Body, Op::SetVar, -1, {Next}).Var = Lanes;
  C.Cond = def(C.Body, Op::Any, Type::Bool, false, {Next});
}

/// Iterations count-1 .. 0 of a forward loop; an example takes part in
/// iteration k only if its own loop ran more than k times.
void Batcher::revLoop(const ir::Stmt &S, ir::Block &B, const Mask &M) {
  ir::Stmt &C = control(B, ir::Stmt::RevLoop, -1);
  C.Id = S.Id;
  C.Args = {S.Args[0]};
  if (!varyingCond(S)) {
    // Every lane ran the loop the same number of times.
    push(C.Body, Op::Discard, -1, {S.Args[1]});
    block(S.Body, C.Body, M);
    return;
  }
  int K = def(C.Body, Op::LoopIndex, Type::I32, false, {});
  C.Body.back()->IVal = S.Id;
  int Ran =
      def(C.Body, Op::CmpGT, Type::Bool, true, {S.Args[1], vec(C.Body, K)});
  int MR = def(C.Body, Op::And, Type::Bool, true, {M.Temp, Ran});
  ir::Stmt &If = control(C.Body, ir::Stmt::If,
                         def(C.Body, Op::Any, Type::Bool, false, {MR}));
  block(S.Body, If.Then, {MR, false});
}

void Batcher::block(const ir::Block &In, ir::Block &B, const Mask &M) {
  for (const auto &SP : In) {
    switch (SP->K) {
    case ir::Stmt::Inst:
      inst(*SP, B, M);
      break;
    case ir::Stmt::If:
      ifStmt(*SP, B, M);
      break;
    case ir::Stmt::Loop:
      loop(*SP, B, M);
      break;
    case ir::Stmt::RevLoop:
      revLoop(*SP, B, M);
      break;
    }
  }
}

ir::Function Batcher::run() {
  Out.Name = Src.Name;
  Out.Params = Src.Params;
  Out.Temps = Src.Temps;
  Out.Vars = Src.Vars;
  Out.Outputs = Src.Outputs;
  Out.TapeSlots = Src.TapeSlots;
  Out.NumLoopIds = Src.NumLoopIds;
  Out.Externs = Src.Externs;
  Out.RetTy = Src.RetTy;
  Out.RetCType = Src.RetCType;
  Out.RetNativeLayout = Src.RetNativeLayout;
  Out.RetDense = Src.RetDense;
  Out.Lanes.LaneBits = U.Wide ? 64 : 32;
  Out.VaryingTemp = U.VaryingTemp;
  Out.VaryingVar = U.VaryingVar;
  int Entry = def(Out.Body, Op::EntryMask, Type::Bool, true, {});
  block(Src.Body, Out.Body, {Entry, true});
  // The kernel hands every output back as a vector.
  for (ir::Output &O : Out.Outputs) {
    int V = O.Var;
    int G = def(Out.Body, Op::GetVar, Out.Vars[V].Ty, Out.VaryingVar[V], {});
    Out.Body.back()->Var = V;
    O.Temp = vec(Out.Body, G);
  }
  Out.Lanes.Interleave = chooseChains(Out, R.ChainsWhy, Uncopied);
  if (Chains) {
    Out.Lanes.Interleave = Chains;
    R.ChainsWhy = "chains=" + std::to_string(Chains) + " option";
  }
  return std::move(Out);
}

} // namespace

ir::Function batchFunction(const ir::Function &F, const Uniformity &U,
                           BatchReport *R, unsigned Chains) {
  BatchReport Local;
  return Batcher(F, U, R ? *R : Local, Chains).run();
}

} // namespace batchdiff
