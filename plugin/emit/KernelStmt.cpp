//===- KernelStmt.cpp - the kernel's statements ---------------------------===//
// Instructions, ifs and loops, once per chain where they compute or write a
// varying value; memory accesses under their masks.
#include "emit/BatchedCall.h"
#include "emit/ExternCall.h"
#include "emit/KernelEmitter.h"

#include <cassert>

namespace batchdiff {
namespace kernel {

/// Tape bookkeeping: uniform scalar code, the same for every lane.
bool KernelEmitter::tapeOp(const ir::Stmt &S) {
  std::string Tp = "&__bd_tp[" + std::to_string(S.IVal) + "]";
  switch (S.Opc) {
  case Op::TapeReserve:
    if (S.IVal >= 0)
      OS << line() << "bd_tape_reserve(__bd_ar, " << Tp << ", "
         << temp(S.Args[0]) << ");\n";
    return true;
  case Op::TapeStore:
    OS << line() << tapeAt(S, S.Args[1]) << " = " << temp(S.Args[1]) << ";\n";
    return true;
  case Op::TapeCommit:
  case Op::TapeRewind:
    if (S.IVal >= 0)
      OS << line() << "__bd_tp[" << S.IVal << "].top "
         << (S.Opc == Op::TapeCommit ? "+" : "-") << "= (size_t)"
         << temp(S.Args[0]) << ";\n";
    return true;
  default:
    return false;
  }
}

/// Stores into local arrays; see gen_support.h for the lane layout.
bool KernelEmitter::arrayOp(const ir::Stmt &S) {
  if (S.Opc != Op::StoreElem && S.Opc != Op::ZeroArr)
    return false;
  int V = S.Var;
  Type Ty = F.Vars[V].Ty;
  std::string Len = arrLen(V);
  auto Blend = [&](const std::string &New, const std::string &Old) {
    if (S.Mask < 0)
      return New;
    return "bd_select_" + Sh.sfx(Ty) + "(" + temp(S.Mask) + ", " + New + ", " +
           Old + ")";
  };
  if (S.Opc == Op::ZeroArr) {
    std::string El = var(V) + "[__bd_j]";
    OS << line() << "for (int32_t __bd_j = 0; __bd_j < " << Len
       << "; __bd_j++) " << El << " = "
       << Blend(F.VaryingVar[V] ? Sh.zero(Ty) : "0", El) << ";\n";
    return true;
  }
  int I = S.Args[0], X = S.Args[1];
  if (!F.VaryingVar[V] || !F.VaryingTemp[I]) {
    std::string El = var(V) + "[bd_sclamp_idx(" + temp(I) + ", " + Len + ")]";
    OS << line() << El << " = " << Blend(temp(X), El) << ";\n";
  } else {
    OS << line() << "bd_ascatter_" << Sh.sfx(Ty) << "(" << var(V) << ", " << Len
       << ", " << temp(I) << ", "
       << (S.Mask >= 0 ? temp(S.Mask) : "bd_mtrue_" + Sh.S() + "()") << ", "
       << temp(X) << ");\n";
  }
  return true;
}

std::string KernelEmitter::vlaElemType(int V) const {
  Type Ty = F.Vars[V].Ty;
  return F.VaryingVar[V] ? Sh.vtype(Ty) : std::string(scalarType(Ty));
}

void KernelEmitter::vlaBind(int V, const std::string &Need) {
  std::string Vb = "__bd_vb" + std::to_string(V), T = vlaElemType(V);
  unsigned Copies = F.VaryingVar[V] ? IL : 1;
  OS << line() << "bd_vla_reserve(__bd_ar, " << Vb << ", " << Need << ", "
     << Copies << " * sizeof(" << T << "));\n";
  OS << line() << arrLen(V) << " = " << Vb << "->cap;\n";
  for (unsigned C = 0; C < Copies; ++C)
    OS << line() << varBase(V) << (F.VaryingVar[V] ? chain(C) : "") << " = ("
       << T << " *)" << Vb << "->data"
       << (C ? " + " + std::to_string(C) + " * " + arrLen(V) : "") << ";\n";
}

/// C leaves the elements indeterminate; here they are zeroed up to the
/// largest size among the lanes that run the declaration, in every chain
/// and lane (plugin/lower/LowerVla.cpp).
void KernelEmitter::vlaZero(const ir::Stmt &S) {
  int V = S.Var, Cnt = S.Args[0];
  Type Ty = F.Vars[V].Ty;
  OS << line() << "{\n";
  ++Ind;
  OS << line() << "int32_t __bd_n = 0;\n";
  for (Ch = 0; Ch < (F.VaryingTemp[Cnt] ? IL : 1); ++Ch) {
    OS << line() << "{\n" << line() << "  int32_t __bd_c = ";
    if (F.VaryingTemp[Cnt])
      OS << "bd_vla_count_" << Sh.S() << "(" << temp(Cnt) << ", "
         << (S.Mask >= 0 ? temp(S.Mask) : "bd_mtrue_" + Sh.S() + "()") << ", "
         << F.Vars[V].Len << ");\n";
    else
      OS << "bd_sclamp_idx(" << temp(Cnt) << ", " << F.Vars[V].Len
         << " + 2);\n"; // above Len: Len + 1, reported by bd_vla_reserve
    OS << line() << "  __bd_n = __bd_c > __bd_n ? __bd_c : __bd_n;\n"
       << line() << "}\n";
  }
  Ch = 0;
  vlaBind(V, "__bd_n > 0 ? __bd_n : 1");
  // Every lane: the content is dead at a declaration for the lanes that
  // do not run it too (they are outside the array's scope, and a new block
  // drops it anyway), and zeroes keep masked-off lanes' indices defined.
  for (Ch = 0; Ch < (F.VaryingVar[V] ? IL : 1); ++Ch)
    OS << line() << "for (int32_t __bd_j = 0; __bd_j < __bd_n; __bd_j++) "
       << var(V) << "[__bd_j] = " << (F.VaryingVar[V] ? Sh.zero(Ty) : "0")
       << ";\n";
  Ch = 0;
  --Ind;
  OS << line() << "}\n";
}

/// The per-lane element index vector of an array-parameter access: lane
/// l's example starts l * stride elements after the chunk's first one.
std::string KernelEmitter::addr(const ir::Stmt &S, bool Shadow) const {
  int I = (int)S.IVal;
  std::string Idx = temp(S.Args[0]);
  if (Sh.Wide)
    Idx = "bd_cvt_i32d_i64d(" + Idx + ")";
  if (F.Params[I].Uniform)
    return Idx;
  return "bd_add_" + idxSfx() + "(" +
         (Shadow ? shadowBase(S.Shadow) + "o" : std::string("__bd_po")) +
         std::to_string(I) + ch() + ", " + Idx + ")";
}

/// A shared table whose every element may be read (a file-scope table of
/// its own, or a BD_UNIFORM array of declared extent) of at most 16
/// doubles in 64-bit lanes or 32 floats in 32-bit ones: read at per-lane
/// indices by bd_tgather, which (at 512 bits; AVX2: floats) holds the table
/// in registers and permutes instead of a gather, several times cheaper on
/// Zen 4 and Intel (a const table's registers fold to constants).
bool KernelEmitter::smallTable(const ir::Param &P) const {
  bool Whole = P.Kind == ir::ParamKind::Global
                   ? P.Addr.empty() && !P.LaneLoads
                   : P.Kind == ir::ParamKind::User && P.Declared &&
                         P.Per == 0 && P.Record < 0;
  return Whole && P.Uniform && P.IsArray && P.StaticLen > 0 &&
         P.Narrow.empty() &&
         ((P.Ty == Type::F64 && Sh.Wide && P.StaticLen <= 16) ||
          (P.Ty == Type::F32 && !Sh.Wide && P.StaticLen <= 32));
}

/// Loads and stores of array parameters and their shadows: a vector access
/// is a gather or scatter under its mask, so a lane that is off touches no
/// memory.
bool KernelEmitter::memOp(const ir::Stmt &S) {
  bool Shadow = S.Opc == Op::ShadowLoad || S.Opc == Op::ShadowStore ||
                S.Opc == Op::ShadowAdd;
  if (!Shadow && S.Opc != Op::LoadArg && S.Opc != Op::StoreArg)
    return false;
  int I = (int)S.IVal;
  Type Ty = F.Params[I].Ty;
  std::string Base = (Shadow ? shadowBase(S.Shadow) : std::string("__bd_p")) +
                     std::to_string(I);
  if (!Shadow && (denseRead(S) || raggedRead(S)))
    return true;
  if (S.Opc == Op::ShadowAdd && denseShadowAdd(S))
    return true;
  if (S.Opc == Op::LoadArg || S.Opc == Op::ShadowLoad) {
    OS << line();
    if (!F.VaryingTemp[S.Dst]) {
      OS << (Hoisted[S.Dst] ? "" : std::string(scalarType(Ty)) + " ")
         << temp(S.Dst) << " = " << Base << "[" << temp(S.Args[0]) << "];\n";
      return true;
    }
    // A char/short table: bd_gather_i32n_u8 and the like; a static table
    // that is not const: bd_lgather_ (plain loads, see ir::Param).
    std::string Nw = Shadow ? std::string() : F.Params[I].Narrow;
    bool Lanes = !Shadow && Nw.empty() && F.Params[I].LaneLoads;
    OS << (Hoisted[S.Dst] ? "" : Sh.vtype(Ty) + " ") << temp(S.Dst);
    if (!Shadow && smallTable(F.Params[I])) {
      OS << " = bd_tgather_" << Sh.sfx(Ty) << "(" << temp(S.Mask) << ", "
         << Base << ", " << F.Params[I].StaticLen << ", " << addr(S, Shadow)
         << ");\n";
      return true;
    }
    OS << (Lanes ? " = bd_lgather_" : " = bd_gather_") << Sh.sfx(Ty)
       << (Nw.empty() ? "" : "_" + Nw) << "(" << temp(S.Mask) << ", " << Base
       << ", " << addr(S, Shadow) << ");\n";
    return true;
  }
  // A char/short/_Bool output: bd_scatter_i32n_u8 and the like.
  std::string Nw = Shadow ? std::string() : F.Params[I].Narrow;
  std::string Mask = temp(S.Mask);
  if (S.Opc == Op::StoreArg && S.IfChanged) {
    // Only the lanes whose element's bits would change (ir::Stmt).
    std::string Was = "__bd_was" + std::to_string(IfChangedN++);
    OS << line() << Sh.vtype(Ty) << " " << Was << " = bd_gather_" << Sh.sfx(Ty)
       << (Nw.empty() ? "" : "_" + Nw) << "(" << Mask << ", " << Base << ", "
       << addr(S, Shadow) << ");\n";
    std::string A = Was, V = temp(S.Args[1]), Cmp = Sh.sfx(Ty);
    if (ir::isFloat(Ty)) {
      Type IT = Ty == Type::F64 ? Type::I64 : Type::I32;
      A = "__builtin_bit_cast(" + Sh.vtype(IT) + ", " + A + ")";
      V = "__builtin_bit_cast(" + Sh.vtype(IT) + ", " + V + ")";
      Cmp = Sh.sfx(IT);
    }
    Mask = "bd_andnot_m" + Sh.S() + "(" + Mask + ", bd_cmpeq_" + Cmp + "(" + A +
           ", " + V + "))";
  }
  OS << line() << (S.Opc == Op::ShadowAdd ? "bd_scatteradd_" : "bd_scatter_")
     << Sh.sfx(Ty) << (Nw.empty() ? "" : "_" + Nw) << "(" << Mask << ", "
     << Base << ", " << addr(S, Shadow) << ", " << temp(S.Args[1]) << ");\n";
  return true;
}

void KernelEmitter::inst(const ir::Stmt &S) {
  if (ir::opInline(S.Opc) || (S.Dst >= 0 && isInline(S.Dst)) || tapeOp(S) ||
      arrayOp(S) || memOp(S))
    return;
  if (S.Opc == Op::Extern && F.Externs[S.IVal].Batched) {
    if (!BatchedReads)
      BatchedReads = readPartials(F);
    OS << batchedCall(
        F, S, Sh.Wide, [this](int T) { return temp(T); }, temp(S.Dst),
        Hoisted[S.Dst], line(), temp(S.Dst) + "_o", ch(), *BatchedReads);
    return;
  }
  if (S.Opc == Op::Extern) {
    if (!BatchedReads)
      BatchedReads = readPartials(F);
    OS << externCall(
        F, S, Sh.Wide, [this](int T) { return temp(T); }, temp(S.Dst),
        Hoisted[S.Dst], line(), temp(S.Dst) + "_o", ch(), *BatchedReads);
    return;
  }
  if (S.Opc == Op::Discard) {
    OS << line() << "(void)" << temp(S.Args[0]) << ";\n";
    return;
  }
  if (S.Opc == Op::SetVar) {
    int V = S.Var;
    OS << line() << var(V) << " = ";
    if (S.Mask >= 0)
      OS << "bd_select_" << Sh.sfx(F.Vars[V].Ty) << "(" << temp(S.Mask) << ", "
         << temp(S.Args[0]) << ", " << var(V) << ");\n";
    else
      OS << temp(S.Args[0]) << ";\n";
    return;
  }
  bool Vary = F.VaryingTemp[S.Dst];
  Type Ty = F.Temps[S.Dst];
  OS << line();
  if (!Hoisted[S.Dst])
    OS << (Vary ? Sh.vtype(Ty) : std::string(scalarType(Ty))) << " ";
  OS << temp(S.Dst) << " = " << (Vary ? vectorExpr(S) : scalarExpr(S)) << ";\n";
}

/// An else block that holds only another if prints as "else if".
static const ir::Stmt *soleIf(const ir::Block &B) {
  const ir::Stmt *R = nullptr;
  for (const auto &SP : B) {
    if (SP->K == ir::Stmt::Inst && ir::opInline(SP->Opc))
      continue;
    if (R || SP->K != ir::Stmt::If)
      return nullptr;
    R = SP.get();
  }
  return R;
}

/// Clang stops at 256 levels of nested braces ("bracket nesting level
/// exceeded maximum of 256"), and C needs none for `if (b > 0) if (b > 0)
/// ...`: hundreds of nested ifs on a uniform value, each a block of the
/// kernel (and of its reverse sweep), passed the limit in the generated
/// code (tests/robust/found, seed 6406). An if or loop that would open a
/// block deeper than FlatDepth is printed without one: gotos and labels,
/// which C allows anywhere in a function (a kernel declares no variably
/// modified type). Its statements then share the enclosing block's scope,
/// so a temp defined in several exclusive copies of a block is declared up
/// front (Hoisted) rather than twice in one scope. Below FlatDepth the
/// code is as before.
constexpr unsigned FlatDepth = 128;

/// Marks the ifs and loops printed flat in \p B, whose statements are
/// inside \p Depth braces (1: the kernel's body), \p In a flat one;
/// \p Defs counts each temp's definitions.
void KernelEmitter::flatten(const ir::Block &B, unsigned Depth, bool In,
                            const std::vector<int> &Defs) {
  for (const auto &SP : B) {
    const ir::Stmt &S = *SP;
    if (S.K == ir::Stmt::Inst) {
      if (In && S.Dst >= 0 && Defs[S.Dst] > 1 && !isInline(S.Dst))
        Hoisted[S.Dst] = true;
      continue;
    }
    bool IsFlat = Depth >= FlatDepth;
    if (IsFlat)
      Flat.insert(&S);
    unsigned Inner = IsFlat ? Depth : Depth + 1;
    // An else block holding only an if prints as `else if`: that if's
    // blocks are as deep as the first one's (ifStmt).
    bool ElseIf = S.K == ir::Stmt::If && !IsFlat && soleIf(S.Else) &&
                  !ScopedIn.count(&S.Else);
    flatten(S.Then, Inner, In || IsFlat, Defs);
    flatten(S.Else, ElseIf ? Depth : Inner, In || IsFlat, Defs);
    flatten(S.Body, Inner, In || IsFlat, Defs);
  }
}

/// `if (c) { T } else { E }` without blocks.
void KernelEmitter::flatIf(const ir::Stmt &S) {
  std::string End = flatLabel();
  std::string Else = S.Else.empty() ? End : flatLabel();
  OS << line() << "if (!(" << temp(S.Cond) << ")) goto " << Else << ";\n";
  declareScoped(S.Then);
  block(S.Then);
  if (!S.Else.empty()) {
    OS << line() << "goto " << End << ";\n" << line() << Else << ":;\n";
    declareScoped(S.Else);
    block(S.Else);
  }
  OS << line() << End << ":;\n";
}

void KernelEmitter::ifStmt(const ir::Stmt &S, bool ElseIf) {
  if (Flat.count(&S)) {
    assert(!ElseIf && "flatten keeps an else if as deep as its first if");
    flatIf(S);
    return;
  }
  OS << (ElseIf ? "" : line()) << "if (" << temp(S.Cond) << ") {\n";
  ++Ind;
  declareScoped(S.Then);
  block(S.Then);
  --Ind;
  const ir::Stmt *Next = soleIf(S.Else);
  if (Next && !ScopedIn.count(&S.Else)) {
    OS << line() << "} else ";
    ifStmt(*Next, true);
    return;
  }
  if (!S.Else.empty()) {
    OS << line() << "} else {\n";
    ++Ind;
    declareScoped(S.Else);
    block(S.Else);
    --Ind;
  }
  OS << line() << "}\n";
}

/// Clang gives each local variable lifetime markers, cleanups on a stack
/// that it walks at every call it emits (EHScopeStack::requiresLandingPad):
/// quadratic in a long kernel's thousands of locals and calls. In C it emits
/// none for the variables declared after a label in the same scope (for the
/// function's outermost scope), or after a label that follows a variable
/// with markers (in a nested scope). The machine code is the same: the
/// locals are SSA values after SROA.
void KernelEmitter::noLifetimeMarkers() {
  OS << line() << "__bd_nolt" << NoLifetime++ << ": __attribute__((unused));\n";
}

/// The variables block \p B declares, with their value there.
void KernelEmitter::declareScoped(const ir::Block &B) {
  auto It = ScopedIn.find(&B);
  if (It == ScopedIn.end())
    return;
  bool First = true;
  for (int V : It->second) {
    Type Ty = F.Vars[V].Ty;
    int Init = Scopes[V].Init;
    const char *Unused = Scopes[V].Read ? "" : " __attribute__((unused))";
    for (Ch = 0; Ch < (F.VaryingVar[V] ? IL : 1); ++Ch) {
      OS << line()
         << (F.VaryingVar[V] ? Sh.vtype(Ty) : std::string(scalarType(Ty)))
         << Unused << " " << var(V) << " = "
         << (Init >= 0         ? temp(Init)
             : F.VaryingVar[V] ? Sh.zero(Ty)
                               : "0")
         << ";\n";
      if (First)
        noLifetimeMarkers();
      First = false;
    }
    Ch = 0;
  }
}

void KernelEmitter::loop(const ir::Stmt &S) {
  std::string Inc =
      S.Id >= 0 ? line() + "  " + counter(S.Id) + "++;\n" : std::string();
  if (S.Id >= 0)
    OS << line() << counter(S.Id) << " = 0;\n";
  if (Flat.count(&S)) {
    std::string Top = flatLabel();
    OS << line() << Top << ":;\n";
    block(S.Body);
    OS << Inc << line() << "if (" << temp(S.Cond) << ") goto " << Top << ";\n";
    return;
  }
  OS << line() << "do {\n";
  ++Ind;
  block(S.Body);
  --Ind;
  OS << Inc << line() << "} while (" << temp(S.Cond) << ");\n";
}

/// Iterations count-1 .. 0 of a forward loop.
void KernelEmitter::revLoop(const ir::Stmt &S) {
  std::string K = counter(S.Id);
  if (Flat.count(&S)) {
    std::string Top = flatLabel(), End = flatLabel();
    OS << line() << K << " = " << temp(S.Args[0]) << " - 1;\n"
       << line() << Top << ":;\n"
       << line() << "if (" << K << " < 0) goto " << End << ";\n";
    block(S.Body);
    OS << line() << "--" << K << ";\n"
       << line() << "goto " << Top << ";\n"
       << line() << End << ":;\n";
    return;
  }
  OS << line() << "for (" << K << " = " << temp(S.Args[0]) << " - 1; " << K
     << " >= 0; --" << K << ") {\n";
  ++Ind;
  block(S.Body);
  --Ind;
  OS << line() << "}\n";
}

bool KernelEmitter::perChain(const ir::Stmt &S) const {
  switch (S.Opc) {
  case Op::SetVar:
  case Op::StoreElem:
    return F.VaryingVar[S.Var];
  case Op::ZeroArr: // (with a count: vlaZero, once for all chains)
    return F.VaryingVar[S.Var];
  case Op::StoreArg:
  case Op::ShadowStore:
  case Op::ShadowAdd:
    return true;
  case Op::TapeStore:
    return F.VaryingTemp[S.Args[1]];
  case Op::Discard:
    return F.VaryingTemp[S.Args[0]];
  default:
    return S.Mask >= 0 || (S.Dst >= 0 && F.VaryingTemp[S.Dst]);
  }
}

void KernelEmitter::block(const ir::Block &B) {
  for (const auto &SP : B) {
    switch (SP->K) {
    case ir::Stmt::Inst:
      // Its value is where its block declares it.
      if (SP->Opc == Op::SetVar && DroppedWrites.count(SP.get()))
        break;
      if (SP->Opc == Op::ZeroArr && !SP->Args.empty()) {
        vlaZero(*SP);
        break;
      }
      if (IL > 1 && perChain(*SP)) {
        for (Ch = 0; Ch < IL; ++Ch)
          inst(*SP);
        Ch = 0;
        break;
      }
      inst(*SP);
      break;
    case ir::Stmt::If:
      ifStmt(*SP);
      break;
    case ir::Stmt::Loop:
      loop(*SP);
      break;
    case ir::Stmt::RevLoop:
      revLoop(*SP);
      break;
    }
  }
}

} // namespace kernel
} // namespace batchdiff
