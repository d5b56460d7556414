//===- Uniformity.cpp - which values differ per example -------------------===//
#include "analysis/Uniformity.h"
#include "analysis/LoopCounters.h"

#include <algorithm>
#include <deque>
#include <set>
#include <sstream>

namespace batchdiff {
namespace {

using ir::Op;

struct Planner {
  const ir::Function &F;
  Uniformity &P;
  bool Changed = false;
  /// Writes inside per-lane loops that every lane still running makes
  /// alike (loop counters): not varying for being under the loop's mask.
  std::set<const ir::Stmt *> Counters;
  /// Tape slots (tape, slot) some store fills with a varying value: a load
  /// from one is varying whichever store its Aux names (NAME_hvp's tangent
  /// slots name the last store, which can store a uniform 0).
  std::set<std::pair<int64_t, int>> VaryingSlots;

  void mark(std::vector<bool> &V, int I) {
    if (I >= 0 && !V[I]) {
      V[I] = true;
      Changed = true;
    }
  }

  void varying(const ir::Block &B, bool UnderVarying) {
    for (const auto &SP : B) {
      const ir::Stmt &S = *SP;
      if (S.K == ir::Stmt::Inst) {
        if (S.Opc == Op::Param) {
          if (!F.Params[S.IVal].Uniform)
            mark(P.VaryingTemp, S.Dst);
        } else if (S.Opc == Op::GetVar) {
          if (P.VaryingVar[S.Var])
            mark(P.VaryingTemp, S.Dst);
        } else if (S.Opc == Op::LoadArg || S.Opc == Op::ShadowLoad) {
          if (!F.Params[S.IVal].Uniform || P.VaryingTemp[S.Args[0]])
            mark(P.VaryingTemp, S.Dst);
        } else if (S.Opc == Op::TapeStore) {
          if (S.Args.size() > 1 && S.Args[1] >= 0 && P.VaryingTemp[S.Args[1]] &&
              VaryingSlots.insert({S.IVal, S.Var}).second)
            Changed = true;
        } else if (S.Opc == Op::TapeLoad) {
          if ((S.Aux >= 0 && P.VaryingTemp[S.Aux]) ||
              VaryingSlots.count({S.IVal, S.Var}))
            mark(P.VaryingTemp, S.Dst);
        } else if (S.Opc == Op::SetVar) {
          if ((UnderVarying && !Counters.count(&S)) || P.VaryingTemp[S.Args[0]])
            mark(P.VaryingVar, S.Var);
        } else if (S.Opc == Op::LoadElem) {
          if (P.VaryingVar[S.Var] || P.VaryingTemp[S.Args[0]])
            mark(P.VaryingTemp, S.Dst);
        } else if (S.Opc == Op::StoreElem) {
          // Different lanes writing different elements make the whole
          // array per-lane.
          if (UnderVarying || P.VaryingTemp[S.Args[0]] ||
              P.VaryingTemp[S.Args[1]])
            mark(P.VaryingVar, S.Var);
        } else if (S.Opc == Op::ZeroArr) {
          if (UnderVarying)
            mark(P.VaryingVar, S.Var);
        } else if (S.Opc == Op::Extern) {
          mark(P.VaryingTemp, S.Dst); // one call per lane
        } else {
          for (int A : S.Args)
            if (P.VaryingTemp[A])
              mark(P.VaryingTemp, S.Dst);
        }
        continue;
      }
      // A loop's condition is computed in its body: a varying condition
      // makes the whole body run under a mask on the next pass.
      bool V = S.K == ir::Stmt::RevLoop ? P.VaryingTemp[S.Args[1]]
                                        : S.Cond >= 0 && P.VaryingTemp[S.Cond];
      P.VaryingCond[&S] = V;
      varying(S.Then, UnderVarying || V);
      varying(S.Else, UnderVarying || V);
      varying(S.Body, UnderVarying || V);
    }
  }

  // Block paths: each statement's chain of enclosing (stmt, branch) pairs.
  // A variable's home, the longest path every access of it starts with, is
  // a node of the tree of paths: narrowed access by access, it only climbs
  // (a copy and compare of paths per access was quadratic in the depth of
  // a nest: 10,000 early returns nest 10,000 ifs).
  using Path = std::vector<std::pair<const ir::Stmt *, int>>;
  struct Home {
    std::pair<const ir::Stmt *, int> Last; // the path's last pair
    const Home *Parent;                    // null: the function's body
    size_t Len;
  };
  std::deque<Home> Homes;
  std::vector<const Home *> CurHome; // Cur's nodes
  std::vector<const Home *> VarHome; // null: the function's body
  std::vector<bool> VarSeen;

  void homes(const ir::Block &B, Path &Cur) {
    for (const auto &SP : B) {
      const ir::Stmt &S = *SP;
      if (S.K == ir::Stmt::Inst) {
        if (S.Opc == Op::GetVar || S.Opc == Op::SetVar ||
            S.Opc == Op::LoadElem || S.Opc == Op::StoreElem ||
            S.Opc == Op::ZeroArr) {
          const Home *H = CurHome.empty() ? nullptr : CurHome.back();
          if (VarSeen[S.Var]) {
            // A path's last pair fixes the whole path (a tree).
            H = VarHome[S.Var];
            while (H && (H->Len > Cur.size() || Cur[H->Len - 1] != H->Last))
              H = H->Parent;
          }
          VarHome[S.Var] = H;
          VarSeen[S.Var] = true;
        }
        continue;
      }
      const Home *Up = CurHome.empty() ? nullptr : CurHome.back();
      Cur.push_back({&S, 0});
      const ir::Block *Kids[] = {&S.Then, &S.Else, &S.Body};
      for (int K = 0; K < 3; ++K) {
        Cur.back().second = K;
        Homes.push_back({Cur.back(), Up, Cur.size()});
        CurHome.push_back(&Homes.back());
        homes(*Kids[K], Cur);
        CurHome.pop_back();
      }
      Cur.pop_back();
    }
  }

  /// \p Varying[I]: how many of the first I statements of the current
  /// path have a varying condition.
  void blends(const ir::Block &B, std::vector<size_t> &Varying) {
    for (const auto &SP : B) {
      const ir::Stmt &S = *SP;
      if (S.K == ir::Stmt::Inst) {
        if (S.Opc == Op::SetVar || S.Opc == Op::StoreElem ||
            S.Opc == Op::ZeroArr) {
          const Home *H = VarHome[S.Var];
          bool Need = Varying.back() > Varying[H ? H->Len : 0];
          P.NeedsBlend[&S] = Need && P.VaryingVar[S.Var];
        }
        continue;
      }
      Varying.push_back(Varying.back() + P.VaryingCond[&S]);
      blends(S.Then, Varying);
      blends(S.Else, Varying);
      blends(S.Body, Varying);
      Varying.pop_back();
    }
  }

  void run() {
    P.VaryingTemp.assign(F.Temps.size(), false);
    P.VaryingVar.assign(F.Vars.size(), false);
    Counters = findLoopCounters(F);
    do {
      Changed = false;
      varying(F.Body, false);
    } while (Changed);
    VarHome.assign(F.Vars.size(), nullptr);
    VarSeen.assign(F.Vars.size(), false);
    Path Cur;
    homes(F.Body, Cur);
    // An output (the return value, a global the examples write) is read
    // after the body, at its top level: a write under a varying condition
    // keeps the off lanes' values even where the body reads it only
    // nearer (a global written in a loop whose trip count varies).
    for (const ir::Output &O : F.Outputs)
      if (O.Var >= 0 && (size_t)O.Var < F.Vars.size()) {
        VarHome[O.Var] = nullptr;
        VarSeen[O.Var] = true;
      }
    std::vector<size_t> Varying{0};
    blends(F.Body, Varying);
    for (ir::Type T : F.Temps)
      P.Wide |= ir::bitWidth(T) == 64;
    for (const ir::Param &Pa : F.Params)
      P.Wide |= ir::bitWidth(Pa.Ty) == 64;
  }
};

} // namespace

Uniformity analyzeUniformity(const ir::Function &F) {
  Uniformity P;
  Planner Pl{F, P, false, {}, {}, {}, {}, {}, {}};
  Pl.run();
  return P;
}

std::string Uniformity::print(const ir::Function &F) const {
  std::ostringstream OS;
  OS << "shape: " << (Wide ? "d (64-bit lanes)" : "n (32-bit lanes)")
     << "\nvarying vars:";
  for (size_t I = 0; I < VaryingVar.size(); ++I)
    if (VaryingVar[I])
      OS << " " << F.Vars[I].Name;
  OS << "\nuniform vars:";
  for (size_t I = 0; I < VaryingVar.size(); ++I)
    if (!VaryingVar[I])
      OS << " " << F.Vars[I].Name;
  unsigned Masked = 0, Blends = 0;
  for (const auto &KV : VaryingCond)
    Masked += KV.second;
  for (const auto &KV : NeedsBlend)
    Blends += KV.second;
  OS << "\nmasked branches/loops: " << Masked << ", blended writes: " << Blends
     << "\n";
  return OS.str();
}

} // namespace batchdiff
