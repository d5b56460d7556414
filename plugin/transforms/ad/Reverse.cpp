//===- Reverse.cpp - reverse-mode differentiation of the IR ---------------===//
#include "transforms/ad/ReverseImpl.h"
#include "transforms/ad/Rules.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <iterator>
#include <map>
#include <set>

namespace batchdiff {
namespace reverse {

/// Adjoint work of at most this many cost units (1 per arithmetic
/// operation, 4 per division or cheap math function, 16 per costly one) runs
/// without a need flag test (Reverser::guardPays).
constexpr int GuardFreeMaxCost = 4;
/// Adjoint work of more than this many statements keeps its test even when
/// it serves every parameter: a long kernel declares the adjoints used only
/// in it at the start of its block (emit/VarScopes.h), which keeps LLVM's
/// SROA linear in the kernel's length, and one test is nothing next to it.
constexpr size_t GuardScopeMinStmts = 300;

ir::Block Reverser::fwd(const ir::Block &Src) {
  ir::Block Out;
  ir::Builder FB(G, &Out);
  for (const auto &SP : Src) {
    const ir::Stmt &S = *SP;
    if (S.K == ir::Stmt::Inst) {
      Out.push_back(ir::cloneStmt(S));
      continue;
    }
    if (S.K == ir::Stmt::If) {
      ir::Stmt &If = FB.ifStmt(S.Cond);
      If.Then = fwd(S.Then);
      If.Else = fwd(S.Else);
      continue;
    }
    int Idx = (int)Infos.size();
    Infos.emplace_back();
    LoopInfo &I = Infos.back();
    I.Id = G.NumLoopIds++;
    I.TripVar = G.newVar("__trip", Type::I32);
    FB.set(I.TripVar, FB.constI(Type::I32, 0));
    ir::Stmt &L = FB.loop();
    L.Id = I.Id;
    L.Cond = S.Cond;
    ir::Builder BB(G, &L.Body);
    I.KFwd = G.newTemp(Type::I32);
    BB.push(Op::LoopIndex, I.KFwd, {}).IVal = I.Id;
    I.Reserve = &BB.push(Op::TapeReserve, -1, {I.KFwd});
    I.Reserve->IVal = -1;
    // Nested loops append to Infos: refer to this loop by index from here.
    for (auto &St : fwd(S.Body))
      L.Body.push_back(std::move(St));
    LoopInfo &J = Infos[Idx];
    BB.set(J.TripVar, BB.bin(Op::Add, J.KFwd, BB.constI(Type::I32, 1)));
    J.Loop = &L;
    LoopOf[&L] = Idx;
    J.Cnt = G.newTemp(Type::I32);
    FB.push(Op::LoopCount, J.Cnt, {}).IVal = J.Id;
    J.Tr = FB.get(J.TripVar);
    J.Commit = &FB.push(Op::TapeCommit, -1, {J.Cnt});
    J.Commit->IVal = -1;
  }
  return Out;
}

void Reverser::defLoops(const ir::Block &Blk, int Cur) {
  for (const auto &SP : Blk) {
    if (SP->Dst >= 0 && SP->K == ir::Stmt::Inst) {
      DefLoop[SP->Dst] = Cur;
      Def[SP->Dst] = SP.get();
      DefPos[SP->Dst] = NextPos++;
      IsConst[SP->Dst] = SP->Opc == Op::ConstF || SP->Opc == Op::ConstI ||
                         SP->Opc == Op::ConstB;
    }
    defLoops(SP->Then, Cur);
    defLoops(SP->Else, Cur);
    if (SP->K == ir::Stmt::Loop)
      defLoops(SP->Body, LoopOf.at(SP.get()));
  }
}

/// Stores each taped temp right after its definition, at this iteration.
void Reverser::insertStores(ir::Block &Blk, int Idx) {
  const LoopInfo &I = Infos[Idx];
  ir::Block Out;
  for (auto &SP : Blk) {
    int D = SP->K == ir::Stmt::Inst ? SP->Dst : -1;
    insertStores(SP->Then, Idx);
    insertStores(SP->Else, Idx);
    Out.push_back(std::move(SP));
    auto It = D >= 0 ? I.Slot.find(D) : I.Slot.end();
    if (It == I.Slot.end())
      continue;
    auto St = std::make_unique<ir::Stmt>();
    St->Opc = Op::TapeStore;
    St->IVal = I.Tape;
    St->Var = It->second;
    St->Args = {I.KFwd, D};
    Out.push_back(std::move(St));
  }
  Blk = std::move(Out);
}

/// The value of primal temp \p T as the reverse sweep sees it: temps of a
/// loop body are reloaded from that loop's tape for the current iteration.
int Reverser::R(int T) {
  if (T < 0 || T >= (int)DefLoop.size() || DefLoop[T] < 0 || IsConst[T])
    return T;
  for (auto It = RevStack.rbegin(); It != RevStack.rend(); ++It) {
    if (It->Info != DefLoop[T])
      continue;
    for (auto &KV : It->Loaded)
      if (KV.first == T)
        return KV.second;
    int L = G.newTemp(G.Temps[T]);
    It->Loaded.push_back({T, L});
    return L;
  }
  return T;
}

/// Whether the reverse sweep of loop \p Info recomputes primal temp \p T
/// instead of reloading it from the tape: a multiply, add, subtract,
/// negation or fused multiply-add of floating values whose operands are
/// constants, values from before the loop, or values of the same loop the
/// sweep needs anyway (\p Needed), so no slot is added for them. The same
/// operation on the same operands gives the same bits; a row holds fewer
/// slots (ncbrt_grad: 5 per chain -> 2), for a few arithmetic operations
/// off the adjoint's dependency chain.
bool Reverser::recomputes(int T, int Info,
                          const std::vector<bool> &Needed) const {
  const ir::Stmt *D = Def[T];
  if (!D || DefLoop[T] != Info || !ir::isFloat(G.Temps[T]))
    return false;
  if (D->Opc != Op::Add && D->Opc != Op::Sub && D->Opc != Op::Mul &&
      D->Opc != Op::Neg && D->Opc != Op::FMulAdd)
    return false;
  for (int A : D->Args) {
    bool Outside = A >= 0 && A < (int)DefLoop.size() && DefLoop[A] < 0;
    bool Ok = A >= 0 && A < (int)Needed.size() &&
              (IsConst[A] || Outside || (Needed[A] && DefLoop[A] == Info));
    if (!Ok)
      return false;
  }
  return true;
}

/// for k = count-1 .. 0 (each example while k < its trip count): reload the
/// iteration's values, then run the reversed body.
void Reverser::reverseLoop(const ir::Stmt &S) {
  int Idx = LoopOf.at(&S);
  int Cnt = R(Infos[Idx].Cnt), Tr = R(Infos[Idx].Tr);
  ir::Stmt &Rew = B.push(Op::TapeRewind, -1, {Cnt});
  Rew.IVal = -1;
  auto RL = std::make_unique<ir::Stmt>();
  RL->K = ir::Stmt::RevLoop;
  RL->Id = G.NumLoopIds++;
  RL->Args = {Cnt, Tr};
  ir::Block *Saved = B.block();
  ir::Block Inner;
  B.setBlock(&Inner);
  RevStack.push_back({Idx, {}});
  reverseBlock(S.Body);
  RevCtx Done = std::move(RevStack.back());
  RevStack.pop_back();
  LoopInfo &I = Infos[Idx];
  ir::Builder HB(G, &RL->Body);
  int K = G.newTemp(Type::I32);
  HB.push(Op::LoopIndex, K, {}).IVal = RL->Id;
  // Cheap values whose operands the sweep reloads anyway are recomputed
  // from them instead of taped (after the loads, in forward order).
  std::vector<bool> Needed(G.Temps.size(), false);
  std::map<int, int> Copy; // primal temp -> its copy in the reverse body
  for (auto [T, L] : Done.Loaded) {
    Needed[T] = true;
    Copy[T] = L;
  }
  std::vector<std::pair<int, int>> Taped, Redo;
  for (auto TL : Done.Loaded)
    (recomputes(TL.first, Idx, Needed) ? Redo : Taped).push_back(TL);
  std::sort(Redo.begin(), Redo.end(), [&](const auto &A, const auto &B) {
    return DefPos[A.first] < DefPos[B.first];
  });
  if (!Taped.empty()) {
    I.Tape = (int)G.TapeSlots.size();
    G.TapeSlots.push_back((int)Taped.size());
    Rew.IVal = I.Tape;
    I.Reserve->IVal = I.Tape;
    I.Commit->IVal = I.Tape;
  }
  for (size_t Sl = 0; Sl < Taped.size(); ++Sl) {
    auto [T, L] = Taped[Sl];
    I.Slot[T] = (int)Sl;
    ir::Stmt &Ld = HB.push(Op::TapeLoad, L, {K});
    Ld.IVal = I.Tape;
    Ld.Var = (int)Sl;
    Ld.Aux = T;
  }
  for (auto [T, L] : Redo) {
    auto C = ir::cloneStmt(*Def[T]);
    C->Dst = L;
    for (int &A : C->Args)
      if (Needed[A])
        A = Copy.at(A);
    RL->Body.push_back(std::move(C));
  }
  for (auto &St : Inner)
    RL->Body.push_back(std::move(St));
  B.setBlock(Saved);
  Saved->push_back(std::move(RL));
}

void Reverser::computeDeps() {
  DepT.assign(P.Temps.size(), 0);
  DepV.assign(P.Vars.size(), 0);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    ir::walk(P.Body, [&](const ir::Stmt &S, int) {
      if (S.K != ir::Stmt::Inst)
        return;
      uint64_t D = 0;
      if (S.Opc == Op::Param || S.Opc == Op::LoadArg) {
        if (S.IVal < 64 && isDifferentiable(P.Params[S.IVal]))
          D = uint64_t(1) << S.IVal;
      } else if (S.Opc == Op::GetVar || S.Opc == Op::LoadElem) {
        D = DepV[S.Var];
      } else {
        for (int A : S.Args)
          D |= DepT[A];
      }
      if (S.Opc == Op::SetVar || S.Opc == Op::StoreElem) {
        if ((DepV[S.Var] | D) != DepV[S.Var]) {
          DepV[S.Var] |= D;
          Changed = true;
        }
        return;
      }
      if (S.Dst < 0)
        return;
      if ((DepT[S.Dst] | D) != DepT[S.Dst]) {
        DepT[S.Dst] |= D;
        Changed = true;
      }
    });
  }
}

uint64_t Reverser::instDeps(const ir::Stmt &S) const {
  if (S.Opc == Op::SetVar || S.Opc == Op::StoreElem || S.Opc == Op::ZeroArr)
    return S.Var < (int)DepV.size() ? DepV[S.Var] : 0;
  if (S.Opc == Op::StoreArg) // reads the output's shadow: needs it non-NULL
    return S.IVal < 64 ? uint64_t(1) << S.IVal : 0;
  return S.Dst >= 0 && S.Dst < (int)DepT.size() ? DepT[S.Dst] : 0;
}

/// The open guard's statements go under `if (need...)` where the test
/// pays, else straight into the enclosing block.
void Reverser::closeGuard() {
  if (!GuardOuter)
    return;
  ++GuardEpoch;
  B.setBlock(GuardOuter);
  if (!GuardBody.empty() && guardPays(GuardBody, GuardMask)) {
    int C = needCond(GuardMask);
    B.ifStmt(C).Then = std::move(GuardBody);
  } else {
    for (auto &St : GuardBody)
      GuardOuter->push_back(std::move(St));
  }
  GuardBody.clear();
  GuardOuter = nullptr;
  GuardMask = 0;
}

/// Whether adjoint work \p Body, needed only for the parameters in \p Mask,
/// is worth a test of their need flags. Not when it serves every
/// differentiable parameter (the test fails only in a call that asks for no
/// gradient at all) or is a few operations (about what the test and its
/// jump cost): then it runs for every call, with the same results (nothing
/// reads what it computes for a parameter whose shadow is NULL), and
/// clang and LLVM get one block and one branch fewer to compile (issue 8,
/// docs/compile-time.md). Work that touches an array parameter or a shadow
/// keeps its guard (the pointer may be NULL), and so does a long block
/// (GuardScopeMinStmts).
bool Reverser::guardPays(const ir::Block &Body, uint64_t Mask) const {
  uint64_t All = 0;
  for (size_t I = 0; I < NeedParam.size(); ++I)
    if (NeedParam[I] >= 0)
      All |= uint64_t(1) << I;
  bool Memory = false;
  int Cost = 0;
  size_t Stmts = 0;
  ir::walk(Body, [&](const ir::Stmt &S, int) {
    ++Stmts;
    switch (S.Opc) {
    case Op::LoadArg:
    case Op::StoreArg:
    case Op::ShadowLoad:
    case Op::ShadowStore:
    case Op::ShadowAdd:
      Memory = true;
      break;
    case Op::Div:
    case Op::Rem:
      Cost += 4;
      break;
    case Op::Math:
      Cost += ir::mathCostly(S.Fn) ? 16 : 4;
      break;
    case Op::GetVar:
    case Op::SetVar:
    case Op::Param:
    case Op::ConstF:
    case Op::ConstI:
    case Op::ConstB:
      break;
    default:
      Cost += 1;
      break;
    }
    Memory |= S.K != ir::Stmt::Inst;
  });
  if (Memory || Stmts > GuardScopeMinStmts)
    return true;
  return (Mask & All) != All && Cost > GuardFreeMaxCost;
}

/// `need_a || need_b || ...` for the parameters in \p Mask, computed once
/// before the reverse sweep.
int Reverser::needCond(uint64_t Mask) {
  auto It = NeedTemp.find(Mask);
  if (It != NeedTemp.end())
    return It->second;
  ir::Block *Saved = B.block();
  B.setBlock(&Needs);
  int Acc = -1;
  for (size_t I = 0; I < NeedParam.size(); ++I)
    if (NeedParam[I] >= 0 && (Mask >> I & 1)) {
      int N = B.param(NeedParam[I]);
      Acc = Acc < 0 ? N : B.bin(Op::Or, Acc, N);
    }
  NeedTemp[Mask] = Acc;
  B.setBlock(Saved);
  return Acc;
}

/// Adjoint work for values that only feed some parameters runs under
/// `if (need_a || need_b)` (where it pays, closeGuard); a NULL shadow
/// switches its work off.
void Reverser::guard(uint64_t Mask) {
  if (Mask == GuardMask && GuardOuter)
    return;
  closeGuard();
  if (!Mask || NeedParam.empty())
    return;
  ++GuardEpoch;
  GuardOuter = B.block();
  GuardMask = Mask;
  GuardBody.clear();
  B.setBlock(&GuardBody);
}

/// Numbers the forward sweep's blocks outside loops by when a walk enters and
/// leaves them, and lists their math calls.
void Reverser::placeCalls(const ir::Block &Blk, int &Clock) {
  int Id = (int)Span.size();
  Span.push_back({Clock++, 0});
  for (const auto &SP : Blk) {
    if (SP->K == ir::Stmt::Loop)
      continue;
    BlockOf[SP.get()] = Id;
    if (SP->K == ir::Stmt::Inst && SP->Opc == Op::Math && SP->Dst >= 0)
      Calls.push_back(SP.get());
    placeCalls(SP->Then, Clock);
    placeCalls(SP->Else, Clock);
  }
  Span[Id].second = Clock++;
}

/// A primal call of \p Fn on \p Args that ran wherever \p S did (in S's
/// block or one enclosing it, loops aside: returns are lowered to nested
/// blocks), so the rule of S can read its result instead of calling again:
/// sin's rule needs the cos the function computed next to it (reproj), a
/// pow's the log of its base. Same function, same operands: the same bits.
int Reverser::primalMath(const ir::Stmt &S, ir::MathFn Fn,
                         const std::vector<int> &Args) const {
  auto At = BlockOf.find(&S);
  if (!RevStack.empty() || At == BlockOf.end())
    return -1;
  auto [In, Out] = Span[At->second];
  for (const ir::Stmt *C : Calls) {
    auto [CIn, COut] = Span[BlockOf.at(C)];
    if (C->Fn == Fn && C->Args == Args && CIn <= In && Out <= COut)
      return C->Dst;
  }
  return -1;
}

/// Makes the math calls of a derivative rule that reads only primal values
/// (erf's and erfc's exp(-x*x), asin's sqrt(1 - x*x), sin's cos(x) where
/// the function computes no cos(x) itself) in the forward sweep, right after
/// the primal call, instead of in the reverse sweep: there they overlap the
/// forward's long dependency chains (bs_call: a log, two divisions, two
/// erfc), in the reverse they lengthen the adjoint's chain, which waits for
/// them. The same call on the same operands, so the same bits. Outside loops
/// only (in a loop each would take a tape slot), and only for calls whose
/// adjoint every gradient needs (the reverse sweep runs their rules without
/// a need-flag test; under one, the rule may not run at all).
void Reverser::hoistRuleMath(ir::Block &Blk, uint64_t All) {
  for (size_t I = 0; I < Blk.size(); ++I) {
    ir::Stmt &S = *Blk[I];
    if (S.K == ir::Stmt::If) {
      hoistRuleMath(S.Then, All);
      hoistRuleMath(S.Else, All);
      continue;
    }
    if (S.K != ir::Stmt::Inst || S.Opc != Op::Math || !act(S.Dst) || !All ||
        (instDeps(S) & All) != All)
      continue;
    ir::Block Scratch;
    ir::Builder SB(G, &Scratch);
    // Stands for the adjoint while the rule is built here; nothing that
    // reads it is kept. The temps of what is not kept are given back.
    size_t T0 = G.Temps.size(), V0 = G.Vars.size();
    int Gt = G.newTemp(G.Temps[S.Dst]);
    std::vector<int> Made;
    for (unsigned K = 0; K < S.Args.size(); ++K) {
      if (!act(S.Args[K]))
        continue;
      std::vector<int> Got;
      derivativeRule(
          SB, S, K, Gt, G.Temps[S.Args[K]], [](int T) { return T; },
          [&](ir::MathFn Fn, const std::vector<int> &Args) {
            int T = primalMath(S, Fn, Args);
            if (T < 0) {
              T = SB.math(Fn, Args);
              Made.push_back(T);
            }
            Got.push_back(T);
            return T;
          });
      Early[{&S, K}] = std::move(Got);
    }
    // The new calls and what their operands need, in order.
    std::set<int> Need(Made.begin(), Made.end());
    std::vector<std::unique_ptr<ir::Stmt>> Keep;
    bool ReadsG = false;
    for (auto It = Scratch.rbegin(); It != Scratch.rend(); ++It) {
      if ((*It)->Dst < 0 || !Need.count((*It)->Dst))
        continue;
      for (int A : (*It)->Args) {
        Need.insert(A);
        ReadsG |= A == Gt;
      }
      Keep.push_back(std::move(*It));
    }
    if (ReadsG || Keep.empty()) { // nothing to make here (a rule of the
      // adjoint: MATH(Ldexp, G, X1)): the rule is built in the reverse
      for (unsigned K = 0; K < S.Args.size(); ++K)
        Early.erase({&S, K});
      G.Temps.resize(T0);
      G.Vars.resize(V0);
      continue;
    }
    // The kept statements' results numbered from T0, in order; the other
    // temps of the scratch block given back.
    std::map<int, int> Renum;
    std::vector<ir::Type> Ty;
    for (auto It = Keep.rbegin(); It != Keep.rend(); ++It) {
      int New = (int)(T0 + Ty.size());
      Renum[(*It)->Dst] = New;
      Ty.push_back(G.Temps[(*It)->Dst]);
    }
    G.Temps.resize(T0);
    G.Temps.insert(G.Temps.end(), Ty.begin(), Ty.end());
    G.Vars.resize(V0); // (a RARE rule's variable: in the scratch block)
    auto Map = [&](int T) {
      auto R = Renum.find(T);
      return R == Renum.end() ? T : R->second;
    };
    for (auto &St : Keep) {
      St->Dst = Map(St->Dst);
      for (int &A : St->Args)
        A = Map(A);
      Hoisted.insert(St.get());
    }
    for (unsigned K = 0; K < S.Args.size(); ++K) {
      auto E = Early.find({&S, K});
      if (E != Early.end())
        for (int &T : E->second)
          T = Map(T);
    }
    Blk.insert(Blk.begin() + I + 1, std::make_move_iterator(Keep.rbegin()),
               std::make_move_iterator(Keep.rend()));
    I += Keep.size();
  }
}

int Reverser::rule(const ir::Stmt &S, unsigned K, int Gt) {
  // A math call of the rule made in the forward sweep (hoistRuleMath), else
  // one the primal made, else a new one here. The adjoint flows back into
  // the argument: converted to its type.
  auto E = RevStack.empty() ? Early.find({&S, K}) : Early.end();
  size_t Next = 0;
  ir::Block *Into = B.block();
  size_t First = Into->size();
  int T = derivativeRule(
      B, S, K, Gt, G.Temps[S.Args[K]], [this](int T) { return R(T); },
      [&](ir::MathFn Fn, const std::vector<int> &Args) {
        if (E != Early.end() && Next < E->second.size())
          return E->second[Next++];
        return primalMath(S, Fn, Args);
      });
  // Its divisions are an adjoint's: ShareReciprocals.h may turn those by
  // one divisor into products by its reciprocal.
  for (size_t I = First; B.block() == Into && I < Into->size(); ++I)
    if ((*Into)[I]->K == ir::Stmt::Inst && (*Into)[I]->Opc == Op::Div)
      (*Into)[I]->IVal = 2;
  return T;
}

void Reverser::reverseInst(const ir::Stmt &S) {
  switch (S.Opc) {
  case Op::SetVar: {
    if (!actV(S.Var))
      return;
    int DVv = adjVar(S.Var);
    int Arg = S.Args[0];
    if (act(Arg))
      accumVar(adjTemp(Arg), B.get(DVv));
    B.set(DVv, adjZero(G.Vars[S.Var].Ty));
    return;
  }
  case Op::GetVar:
    if (act(S.Dst)) {
      accumVar(adjVar(S.Var),
               masked(B.get(adjTemp(S.Dst)), guardOf(S.Dst), {}));
    }
    return;
  case Op::LoadElem:
    if (act(S.Dst)) {
      int DA = adjVar(S.Var), I = R(S.Args[0]);
      int C = masked(B.get(adjTemp(S.Dst)), guardOf(S.Dst), {});
      B.storeElem(DA, I, B.add(B.loadElem(DA, I), C));
    }
    return;
  case Op::StoreElem:
    if (actV(S.Var)) {
      // The stored value gets the element's adjoint; what was there before
      // was overwritten, so the element's adjoint starts again from zero.
      int DA = adjVar(S.Var), I = R(S.Args[0]);
      if (act(S.Args[1]))
        accumVar(adjTemp(S.Args[1]), B.loadElem(DA, I));
      B.storeElem(DA, I, adjZero(G.Vars[S.Var].Ty));
    }
    return;
  case Op::ZeroArr:
    if (actV(S.Var))
      B.zeroArr(adjVar(S.Var), S.Args.empty() ? -1 : R(S.Args[0]));
    return;
  case Op::LoadArg:
    if (act(S.Dst)) {
      int C = masked(B.get(adjTemp(S.Dst)), guardOf(S.Dst), {});
      if (auto It = OutShadow.find((int)S.IVal); It != OutShadow.end())
        accumVar(It->second, C); // (ReverseScale.cpp: index 0)
      else
        B.push(Op::ShadowAdd, -1, {R(S.Args[0]), C}).IVal = S.IVal;
    }
    return;
  case Op::StoreArg:
    // The stored value gets the element's cotangent; the element held
    // something else before, so its cotangent restarts from zero.
    // This holds whether or not the stored value is active: writing a
    // constant still cuts the element's initial value off from the result.
    if (auto It = OutShadow.find((int)S.IVal); It != OutShadow.end()) {
      if (act(S.Args[1])) // (ReverseScale.cpp: index 0)
        accumVar(adjTemp(S.Args[1]), B.get(It->second));
      B.set(It->second, B.constF(P.Params[S.IVal].Ty, 0.0));
    } else if (isDifferentiable(P.Params[S.IVal])) {
      int I = R(S.Args[0]);
      if (act(S.Args[1])) {
        int D = G.newTemp(P.Params[S.IVal].Ty);
        B.push(Op::ShadowLoad, D, {I}).IVal = S.IVal;
        accumVar(adjTemp(S.Args[1]), D);
      }
      B.push(Op::ShadowStore, -1, {I, B.constF(P.Params[S.IVal].Ty, 0.0)})
          .IVal = S.IVal;
    }
    return;
  case Op::Param:
    if (act(S.Dst) && DP[S.IVal] >= 0)
      accumVar(DP[S.IVal], masked(B.get(adjTemp(S.Dst)), guardOf(S.Dst), {}));
    return;
  default:
    break;
  }
  if (S.Dst < 0 || !act(S.Dst))
    return;
  if (S.Opc == Op::Select && Chains.Long.count(&S)) {
    selectChain(S);
    return;
  }
  int Gt = -1;
  for (unsigned K = 0; K < S.Args.size(); ++K) {
    if (!act(S.Args[K]))
      continue;
    if (Gt < 0)
      Gt = B.get(adjTemp(S.Dst));
    int C = rule(S, K, Gt);
    if (C >= 0)
      accumVar(adjTemp(S.Args[K]),
               masked(C, guardOf(S.Dst), guardOf(S.Args[K])));
  }
}

void Reverser::reverseBlock(const ir::Block &Blk) {
  // A temp's uses sit in its defining block or deeper, so its adjoint can
  // start at zero where the reverse of that block starts: writes to it in
  // this block then need no mask blend.
  for (const auto &SP : Blk)
    if (SP->K == ir::Stmt::Inst && act(SP->Dst))
      B.set(adjTemp(SP->Dst), adjZero(G.Temps[SP->Dst]));
  computeGuards(Blk);
  MaskScopes.push_back({B.block(), {}});
  for (auto It = Blk.rbegin(); It != Blk.rend(); ++It) {
    const ir::Stmt &S = **It;
    if (Hoisted.count(&S))
      continue; // a rule's call (hoistRuleMath): no adjoint of its own
    if (S.K != ir::Stmt::Inst)
      closeGuard();
    switch (S.K) {
    case ir::Stmt::Inst:
      guard(instDeps(S));
      reverseInst(S);
      break;
    case ir::Stmt::If: {
      // Reverse both sides first: an if with nothing to undo is dropped, and
      // then its condition is never reloaded from a tape.
      ir::Block *Saved = B.block();
      ir::Block Then, Else;
      B.setBlock(&Then);
      reverseBlock(S.Then);
      B.setBlock(&Else);
      reverseBlock(S.Else);
      B.setBlock(Saved);
      if (Then.empty() && Else.empty())
        break;
      ir::Stmt &If = B.ifStmt(R(S.Cond));
      If.Then = std::move(Then);
      If.Else = std::move(Else);
      break;
    }
    case ir::Stmt::Loop:
      reverseLoop(S);
      break;
    case ir::Stmt::RevLoop:
      assert(false && "the primal has no reverse loops");
      break;
    }
  }
  closeGuard();
  MaskScopes.pop_back();
}

void Reverser::run() {
  G.Name = P.Name;
  G.Params = P.Params;
  G.Temps = P.Temps;
  G.Vars = P.Vars;
  G.RetTy = P.RetTy;
  G.RetCType = P.RetCType;
  G.RetNativeLayout = P.RetNativeLayout;
  G.RetDense = P.RetDense;
  G.Externs = P.Externs;
  ir::Block Fwd = fwd(P.Body);
  DefLoop.assign(G.Temps.size(), -1);
  IsConst.assign(G.Temps.size(), false);
  Def.assign(G.Temps.size(), nullptr);
  DefPos.assign(G.Temps.size(), 0);
  defLoops(Fwd, -1);
  int Clock = 0;
  placeCalls(Fwd, Clock);
  DT.assign(P.Temps.size(), -1);
  DV.assign(P.Vars.size(), -1);
  DP.assign(P.Params.size(), -1);

  // One seed per floating member of the return value (one for a scalar).
  std::vector<std::pair<int, int>> Rets; // (variable, seed parameter)
  for (const ir::Output &O : P.Outputs) {
    if (O.Kind != ir::OutKind::Ret)
      continue;
    int Seed = -1;
    if (ir::isFloat(O.Member.empty() ? P.RetTy : P.Vars[O.Var].Ty)) {
      ir::Param SP;
      SP.Name = "d_ret" + (O.Member.empty() ? "" : "_" + O.Member.substr(1));
      SP.Ty = O.Member.empty() ? P.RetTy : P.Vars[O.Var].Ty;
      SP.Kind = ir::ParamKind::Seed;
      SP.CType = O.Member.empty() ? P.RetCType : O.CType;
      SP.NativeLayout = O.Member.empty() && P.RetNativeLayout;
      SP.Member = O.Member;
      G.Params.push_back(SP);
      Seed = (int)G.Params.size() - 1;
    }
    Rets.push_back({O.Var, Seed});
  }
  computeDeps();
  NeedParam.assign(P.Params.size(), -1);
  bool Guards = P.Params.size() <= 64;
  for (size_t I = 0; Guards && I < P.Params.size(); ++I)
    if (isDifferentiable(P.Params[I])) {
      ir::Param NP;
      NP.Name = "need_" + P.Params[I].Name;
      NP.Ty = Type::Bool;
      NP.Kind = ir::ParamKind::Need;
      NP.Uniform = true;
      NP.Of = (int)I;
      G.Params.push_back(NP);
      NeedParam[I] = (int)G.Params.size() - 1;
    }
  if (!Guards)
    NeedParam.clear();
  uint64_t All = 0;
  for (size_t I = 0; I < P.Params.size() && I < 64; ++I)
    if (isDifferentiable(P.Params[I]))
      All |= uint64_t(1) << I;
  hoistRuleMath(Fwd, All);
  Chains = findSelectChains(Fwd, G.Temps, [this](int T) { return act(T); });
  // Adjoints start at zero; the return value's adjoint starts at the seed.
  for (size_t I = 0; I < P.Params.size(); ++I)
    if (isDifferentiable(P.Params[I]) && !P.Params[I].IsArray) {
      DP[I] = G.newVar("d_" + P.Params[I].Name, P.Params[I].Ty);
      B.set(DP[I], adjZero(P.Params[I].Ty));
    }
  for (size_t V = 0; V < P.Vars.size(); ++V) {
    if (!actV(V))
      continue;
    if (P.Vars[V].CountVar >= 0) // as far as any declaration used it
      B.zeroArr(adjVar(V), B.get(P.Vars[V].CountVar));
    else if (P.Vars[V].Len > 0)
      B.zeroArr(adjVar(V));
    else
      B.set(adjVar(V), adjZero(P.Vars[V].Ty));
  }
  for (auto [RetVar, Seed] : Rets)
    if (Seed >= 0 && actV(RetVar))
      B.set(adjVar(RetVar), scalesSeed(RetVar, Seed) ? scaledSeed(RetVar, Seed)
                                                     : B.param(Seed));
  if (Unscale < 0 && scalesOuts(ScaledOuts))
    scaleOutSeeds();

  ir::Block Sweep;
  B.setBlock(&Sweep);
  nestedUses(Fwd);
  reverseBlock(Fwd);
  for (size_t I = 0; I < Infos.size(); ++I)
    if (Infos[I].Tape >= 0)
      insertStores(Infos[I].Loop->Body, (int)I);
  // Forward sweep, adjoint initialisation, need flags, reverse sweep.
  for (auto &St : G.Body)
    Fwd.push_back(std::move(St));
  for (auto &St : Needs)
    Fwd.push_back(std::move(St));
  for (auto &St : Sweep)
    Fwd.push_back(std::move(St));
  G.Body = std::move(Fwd);
  B.setBlock(&G.Body);
  unscaleAdjoints();
  unscaleOuts();

  for (const ir::Output &O : P.Outputs)
    if (O.Kind == ir::OutKind::Ret)
      G.Outputs.push_back(O);
  for (size_t I = 0; I < P.Params.size(); ++I)
    if (DP[I] >= 0)
      G.Outputs.push_back({ir::OutKind::ParamAdjoint, (int)I, DP[I]});
  // Globals the examples write: the forward sweep computes them as the
  // primal does (NAME_grad leaves them as NAME_batched does), and which
  // examples wrote those written on some paths only.
  for (const ir::Output &O : P.Outputs)
    if (O.Kind == ir::OutKind::Global || O.Kind == ir::OutKind::GlobalWritten)
      G.Outputs.push_back(O);
}

} // namespace reverse

ir::Function differentiate(const ir::Function &Primal, const Activity &A) {
  ir::Function G;
  reverse::Reverser R(Primal, A, G);
  R.run();
  return G;
}

} // namespace batchdiff
