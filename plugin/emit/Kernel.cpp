//===- Kernel.cpp - the per-chunk kernel of one function ------------------===//
#include "emit/Kernel.h"
#include "emit/CText.h"
#include "emit/ExternCall.h"
#include "emit/Frame.h"
#include "emit/VarScopes.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <map>
#include <sstream>

namespace batchdiff {
namespace {

using ir::Op;
using ir::Type;
using namespace ctext;

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

class KernelEmitter {
public:
  KernelEmitter(const ir::Function &F, std::string Name, Flavor Fl,
                bool Outline)
      : F(F), Sh{F.Lanes.LaneBits == 64}, Name(std::move(Name)), Fl(Fl),
        IL(F.Lanes.Interleave), Outline(Outline) {}

  std::string run();

private:
  bool isInline(int T) const {
    return Def[T] &&
           (ir::opInline(Def[T]->Opc) || (!Folded.empty() && Folded[T]));
  }
  /// Whether temp \p T prints as a name, a constant or a call (not as an
  /// operator expression folded into its use).
  bool plainOperand(int T) const {
    return !isInline(T) || ir::opInline(Def[T]->Opc);
  }
  /// A temp as an operand: its variable, or the expression of an inline op.
  std::string temp(int T) const {
    if (isInline(T))
      return inlineExpr(*Def[T]);
    return "__bd_t" + std::to_string(T) + (F.VaryingTemp[T] ? ch() : "");
  }
  /// The name suffix of the current chain's copy of a varying value.
  std::string ch() const { return chain(Ch); }
  std::string chain(unsigned C) const {
    return IL > 1 ? "_" + std::to_string(C) : "";
  }
  /// Whether \p S is printed once per chain (it computes or writes a
  /// varying value, or accesses memory under a mask).
  bool perChain(const ir::Stmt &S) const;
  std::string inlineExpr(const ir::Stmt &S) const;
  std::string var(int V) const {
    return varBase(V) + (F.VaryingVar[V] ? ch() : "");
  }
  std::string varBase(int V) const {
    std::string N = F.Vars[V].Name;
    while (!N.empty() && N[0] == '_')
      N.erase(0, 1);
    return "__bd_v" + std::to_string(V) + (N.empty() ? "" : "_" + N);
  }
  std::string line() const { return std::string(Ind * 2, ' '); }
  /// \p E is a vector already when \p IsVec, else a scalar to broadcast.
  std::string vecOfScalar(Type Ty, const std::string &E, bool IsVec) const {
    if (IsVec)
      return E;
    if (Ty == Type::Bool)
      return "(" + E + " ? bd_mtrue_" + Sh.S() + "() : bd_mfalse_" + Sh.S() +
             "())";
    return "bd_splat_" + Sh.sfx(Ty) + "(" + E + ")";
  }
  std::string vectorExpr(const ir::Stmt &S) const;
  std::string scalarExpr(const ir::Stmt &S) const;
  void inst(const ir::Stmt &S);
  void block(const ir::Block &B);
  void ifStmt(const ir::Stmt &S, bool ElseIf = false);
  bool scoped(int V) const { return !Scopes.empty() && Scopes[V].If; }
  void declareScoped(const ir::Stmt &If);
  void foldCopies(const ir::Block &B, const std::vector<int> &Uses,
                  const std::vector<int> &Defs);
  void loop(const ir::Stmt &S);
  void revLoop(const ir::Stmt &S);
  bool tapeOp(const ir::Stmt &S);
  bool memOp(const ir::Stmt &S);
  void scopes(const ir::Block &B, std::vector<const ir::Block *> &Open);
  void laneOffsets();
  std::string addr(const ir::Stmt &S, bool Shadow) const;
  /// Element offsets (in elements) of lane l: l * stride; index vectors.
  std::string idxSfx() const { return Sh.Wide ? "i64d" : "i32n"; }
  /// The arrays an array parameter has next to its values (Stmt::Shadow
  /// numbers them): none, its shadow, or in NAME_hvp gradient, tangent and
  /// H·v shadow.
  int numShadows(const ir::Param &Pa) const {
    return Pa.IsArray ? numShadowArrays(Fl, Pa) : 0;
  }
  /// Shadow array \p Q's pointer (then "s": its stride, "o": lane offsets).
  static std::string shadowBase(int Q) {
    static const char *const Names[] = {"__bd_q", "__bd_qt", "__bd_qh"};
    return Names[Q];
  }
  bool arrayOp(const ir::Stmt &S);
  std::string tapeAt(const ir::Stmt &S, int Value) const;
  std::string counter(int Id) const { return "__bd_k" + std::to_string(Id); }

  const ir::Function &F;
  Shape Sh;
  std::string Name;
  Flavor Fl;
  /// Independent chains of lanes and the one being printed.
  unsigned IL;
  mutable unsigned Ch = 0;
  std::ostringstream OS;
  int Ind = 1;
  /// The statement defining each temp (one of them, for a temp defined in
  /// exclusive copies of a block).
  std::vector<const ir::Stmt *> Def;
  /// Temps used outside the block that defines them: declared up front.
  std::vector<bool> Hoisted;
  std::vector<const ir::Block *> TempDef;
  /// Costly math is called through out-of-line copies (MathInlineMax):
  /// each copy's name and definition.
  bool MathOutOfLine = false;
  mutable std::map<std::string, std::string> MathCopies;
  /// math=outline: the runtime's bd_ool_* copies, one per file.
  bool Outline;
  /// A long kernel's variables declared in a top-level if (VarScopes.h).
  std::vector<VarScope> Scopes;
  /// A long kernel's temps printed in their one use (foldCopies).
  std::vector<bool> Folded;
  /// Labels that turn off clang's lifetime markers (noLifetimeMarkers).
  unsigned NoLifetime = 0;
  void noLifetimeMarkers();
};

std::string KernelEmitter::inlineExpr(const ir::Stmt &S) const {
  switch (S.Opc) {
  case Op::EntryMask:
    return "__bd_m" + ch();
  case Op::Splat: {
    int X = S.Args[0];
    if (F.Temps[X] != Type::Bool)
      return "bd_splat_" + Sh.sfx(F.Temps[X]) + "(" + temp(X) + ")";
    if (Def[X] && Def[X]->Opc == Op::ConstB)
      return std::string(Def[X]->IVal ? "bd_mtrue_" : "bd_mfalse_") + Sh.S() +
             "()";
    return "(" + temp(X) + " ? bd_mtrue_" + Sh.S() + "() : bd_mfalse_" +
           Sh.S() + "())";
  }
  case Op::Any:
  case Op::All:
  case Op::None: {
    // A lane test covers every chain, as if they were one vector.
    auto One = [&](unsigned C) {
      unsigned Saved = Ch;
      Ch = C;
      std::string R = std::string("bd_") + ir::opVecName(S.Opc) + "_m" +
                      Sh.S() + "(" + temp(S.Args[0]) + ")";
      Ch = Saved;
      return R;
    };
    if (IL == 1)
      return One(0);
    std::string R = "(";
    for (unsigned C = 0; C < IL; ++C)
      R += (C ? (S.Opc == Op::Any ? " || " : " && ") : "") + One(C);
    return R + ")";
  }
  default:
    if (S.Dst >= 0 && F.VaryingTemp[S.Dst])
      return vectorExpr(S); // a folded copy (foldCopies)
    return scalarExpr(S);
  }
}

std::string KernelEmitter::vectorExpr(const ir::Stmt &S) const {
  const auto &A = S.Args;
  auto Call = [&](const std::string &Fn, std::vector<std::string> Args) {
    std::string R = Fn + "(";
    for (size_t I = 0; I < Args.size(); ++I)
      R += (I ? ", " : "") + Args[I];
    return R + ")";
  };
  Type Ty = F.Temps[S.Dst];
  switch (S.Opc) {
  case Op::Param:
    return "__bd_p" + std::to_string(S.IVal) + ch();
  case Op::GetVar:
    return var(S.Var);
  case Op::TapeLoad:
    return tapeAt(S, S.Dst);
  case Op::LoadElem: {
    std::string Len = std::to_string(F.Vars[S.Var].Len);
    if (!F.VaryingTemp[A[0]])
      return vecOfScalar(
          Ty, var(S.Var) + "[bd_sclamp_idx(" + temp(A[0]) + ", " + Len + ")]",
          F.VaryingVar[S.Var]);
    return Call(
        std::string(F.VaryingVar[S.Var] ? "bd_agather_" : "bd_sgather_") +
            Sh.sfx(Ty),
        {var(S.Var), Len, temp(A[0])});
  }
  case Op::Bitcast:
    return "__builtin_bit_cast(" + Sh.vtype(Ty) + ", " + temp(A[0]) + ")";
  case Op::Cast: {
    Type From = F.Temps[A[0]];
    if (From == Type::Bool)
      return Call("bd_cvt_m" + Sh.S() + "_" + Sh.sfx(Ty), {temp(A[0])});
    return Call("bd_cvt_" + Sh.sfx(From) + "_" + Sh.sfx(Ty), {temp(A[0])});
  }
  case Op::CmpEQ:
  case Op::CmpNE:
  case Op::CmpLT:
  case Op::CmpLE:
  case Op::CmpGT:
  case Op::CmpGE:
    if (F.Temps[A[0]] == Type::Bool) {
      std::string X = Call("bd_xor_m" + Sh.S(), {temp(A[0]), temp(A[1])});
      return S.Opc == Op::CmpNE ? X : Call("bd_not_m" + Sh.S(), {X});
    }
    return Call(std::string("bd_") + ir::opVecName(S.Opc) + "_" +
                    Sh.sfx(F.Temps[A[0]]),
                {temp(A[0]), temp(A[1])});
  case Op::Math: {
    std::vector<std::string> Args;
    for (int X : A)
      Args.push_back(temp(X));
    // bd_fmin/bd_fmax return the first operand on a tie of zeros; the
    // scalar code returns the second here (transforms/simplify/MinMaxTies).
    if ((S.Fn == ir::MathFn::Fmin || S.Fn == ir::MathFn::Fmax) && S.IVal == 1)
      std::swap(Args[0], Args[1]);
    // Named after the float type, which the result need not have (ilogb).
    // (__bd_digamma, not in <math.h>, is bd_digamma_* in the runtime.)
    std::string MN = ir::mathName(S.Fn);
    if (MN.rfind("__bd_", 0) == 0)
      MN.erase(0, 5);
    std::string Fn = "bd_" + MN + "_" + Sh.sfx(F.Temps[A[0]]);
    if (Outline && ir::mathCostly(S.Fn))
      return Call("bd_ool" + Fn.substr(2), Args);
    if (MathOutOfLine && ir::mathCostly(S.Fn)) {
      std::string V = Sh.vtype(F.Temps[A[0]]), Copy = Name + Fn.substr(2);
      std::string Def = "static __attribute__((noinline, unused)) " + V + " " +
                        Copy + "(" + V + " __bd_x";
      Def += A.size() > 1 ? ", " + V + " __bd_y) {\n  return " + Fn +
                                "(__bd_x, __bd_y);\n}\n"
                          : ") {\n  return " + Fn + "(__bd_x);\n}\n";
      MathCopies.emplace(Copy, Def);
      Fn = Copy;
    }
    return Call(Fn, Args);
  }
  case Op::FMulAdd:
    // The vector types are GCC vector extensions: one expression, contracted
    // by clang like the scalar original (see scalarExpr).
    return temp(A[0]) + " * " + temp(A[1]) + " + " + temp(A[2]);
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Neg:
    // Float arithmetic as C operators: what bd_add_f64d etc. compute, but
    // without a call for clang to emit and LLVM to inline (compile time,
    // issue 8). Only as a statement of its own with plain operands: an
    // operator expression in another one could be contracted with it.
    if (ir::isFloat(Ty) && !isInline(S.Dst) && plainOperand(A[0]) &&
        (A.size() < 2 || plainOperand(A[1])))
      return A.size() < 2
                 ? "-(" + temp(A[0]) + ")"
                 : temp(A[0]) + " " + ir::opCOperator(S.Opc) + " " + temp(A[1]);
    [[fallthrough]];
  default: {
    std::vector<std::string> Args;
    for (int X : A)
      Args.push_back(temp(X));
    return Call(std::string("bd_") + ir::opVecName(S.Opc) + "_" + Sh.sfx(Ty),
                Args);
  }
  }
}

std::string KernelEmitter::scalarExpr(const ir::Stmt &S) const {
  const auto &A = S.Args;
  Type Ty = F.Temps[S.Dst];
  std::string T = scalarType(Ty);
  auto X = [&](int I) { return temp(A[I]); };
  bool Int = ir::isInt(Ty);
  switch (S.Opc) {
  case Op::ConstF:
    return floatLiteral(Ty, S.FVal);
  case Op::ConstI:
    return intLiteral(Ty, S.IVal);
  case Op::ConstB:
    return S.IVal ? "1" : "0";
  case Op::Param:
    return "__bd_p" + std::to_string(S.IVal);
  case Op::GetVar:
    return var(S.Var);
  case Op::LoopIndex:
  case Op::LoopCount:
    return counter((int)S.IVal);
  case Op::LoadElem:
    return var(S.Var) + "[bd_sclamp_idx(" + X(0) + ", " +
           std::to_string(F.Vars[S.Var].Len) + ")]";
  case Op::TapeLoad:
    return tapeAt(S, S.Dst);
  case Op::Neg:
    if (Int)
      return "(" + T + ")(0u - (" + unsignedOf(Ty) + ")" + X(0) + ")";
    return "-" + X(0);
  case Op::Not:
    return "!" + X(0);
  case Op::BitNot:
    return "~" + X(0);
  case Op::Cast:
    return "(" + T + ")" + X(0);
  case Op::Bitcast:
    return "__builtin_bit_cast(" + T + ", " + X(0) + ")";
  case Op::SExt8:
    return "(" + T + ")(int8_t)" + X(0);
  case Op::ZExt8:
    return "(" + T + ")(uint8_t)" + X(0);
  case Op::SExt16:
    return "(" + T + ")(int16_t)" + X(0);
  case Op::ZExt16:
    return "(" + T + ")(uint16_t)" + X(0);
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
    if (Int)
      return "(" + T + ")((" + unsignedOf(Ty) + ")" + X(0) + " " +
             ir::opCOperator(S.Opc) + " (" + unsignedOf(Ty) + ")" + X(1) + ")";
    return X(0) + " " + ir::opCOperator(S.Opc) + " " + X(1);
  case Op::Div:
  case Op::Rem:
    if (Int)
      return std::string("bd_s") + (S.Opc == Op::Div ? "div" : "rem") + "_" +
             ir::typeName(Ty) + "(" + X(0) + ", " + X(1) + ")";
    return X(0) + " / " + X(1);
  case Op::Shl:
  case Op::Shr: {
    std::string Cnt =
        "(" + X(1) + " & " + (ir::bitWidth(Ty) == 64 ? "63" : "31") + ")";
    if (S.Opc == Op::Shl)
      return "(" + T + ")((" + unsignedOf(Ty) + ")" + X(0) + " << " + Cnt + ")";
    return X(0) + " >> " + Cnt;
  }
  case Op::FMulAdd:
    // Written as one expression so clang turns it into llvm.fmuladd exactly
    // as it did for the user's `a*b + c`: LLVM then fuses it, or folds a
    // product of constants first, the same way in both.
    return X(0) + " * " + X(1) + " + " + X(2);
  case Op::Select:
    return X(0) + " ? " + X(1) + " : " + X(2);
  case Op::Math: {
    std::string R = std::string(ir::mathName(S.Fn)) +
                    (F.Temps[A[0]] == Type::F32 ? "f" : "") + "(";
    for (size_t I = 0; I < A.size(); ++I)
      R += (I ? ", " : "") + X(I);
    return R + ")";
  }
  default:
    return X(0) + " " + ir::opCOperator(S.Opc) + " " + X(1);
  }
}

std::string KernelEmitter::tapeAt(const ir::Stmt &S, int Value) const {
  Type Ty = F.Temps[Value];
  std::string T = F.VaryingTemp[Value] ? Sh.vtype(Ty) : scalarType(Ty);
  // Row (top + k), slot `Var` (of each chain: rows hold IL slots per
  // value), slots of the runtime's BD_TAPE_SLOT bytes.
  std::string Tp = "__bd_tp[" + std::to_string(S.IVal) + "]";
  int Slot = S.Var * (int)IL + (F.VaryingTemp[Value] ? (int)Ch : 0);
  return "(*(" + T + " *)(" + Tp + ".data + ((" + Tp + ".top + (size_t)" +
         temp(S.Args[0]) + ") * " + Tp + ".row + " + std::to_string(Slot) +
         ") * bd_tape_slot_bytes))";
}

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
  std::string Len = std::to_string(F.Vars[V].Len);
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
    OS << (Hoisted[S.Dst] ? "" : Sh.vtype(Ty) + " ") << temp(S.Dst)
       << (Lanes ? " = bd_lgather_" : " = bd_gather_") << Sh.sfx(Ty)
       << (Nw.empty() ? "" : "_" + Nw) << "(" << temp(S.Mask) << ", " << Base
       << ", " << addr(S, Shadow) << ");\n";
    return true;
  }
  // A char/short/_Bool output: bd_scatter_i32n_u8 and the like.
  std::string Nw = Shadow ? std::string() : F.Params[I].Narrow;
  OS << line() << (S.Opc == Op::ShadowAdd ? "bd_scatteradd_" : "bd_scatter_")
     << Sh.sfx(Ty) << (Nw.empty() ? "" : "_" + Nw) << "(" << temp(S.Mask)
     << ", " << Base << ", " << addr(S, Shadow) << ", " << temp(S.Args[1])
     << ");\n";
  return true;
}

void KernelEmitter::inst(const ir::Stmt &S) {
  if (ir::opInline(S.Opc) || (S.Dst >= 0 && isInline(S.Dst)) || tapeOp(S) ||
      arrayOp(S) || memOp(S))
    return;
  if (S.Opc == Op::Extern) {
    OS << externCall(
        F, S, Sh.Wide, [this](int T) { return temp(T); }, temp(S.Dst),
        Hoisted[S.Dst], line());
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

void KernelEmitter::ifStmt(const ir::Stmt &S, bool ElseIf) {
  OS << (ElseIf ? "" : line()) << "if (" << temp(S.Cond) << ") {\n";
  ++Ind;
  declareScoped(S);
  block(S.Then);
  --Ind;
  if (const ir::Stmt *Next = soleIf(S.Else)) {
    OS << line() << "} else ";
    ifStmt(*Next, true);
    return;
  }
  if (!S.Else.empty()) {
    OS << line() << "} else {\n";
    ++Ind;
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

/// The variables \p If's then block declares, with their value there.
void KernelEmitter::declareScoped(const ir::Stmt &If) {
  bool First = true;
  for (size_t V = 0; V < Scopes.size(); ++V) {
    if (Scopes[V].If != &If)
      continue;
    Type Ty = F.Vars[V].Ty;
    int Init = Scopes[V].Init;
    for (Ch = 0; Ch < (F.VaryingVar[V] ? IL : 1); ++Ch) {
      OS << line()
         << (F.VaryingVar[V] ? Sh.vtype(Ty) : std::string(scalarType(Ty)))
         << " " << var(V) << " = "
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
  OS << line() << "do {\n";
  ++Ind;
  block(S.Body);
  --Ind;
  OS << Inc << line() << "} while (" << temp(S.Cond) << ");\n";
}

/// Iterations count-1 .. 0 of a forward loop.
void KernelEmitter::revLoop(const ir::Stmt &S) {
  std::string K = counter(S.Id);
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
  case Op::ZeroArr:
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
      // Its value is where its if's block declares it.
      if (&B == &F.Body && SP->Opc == Op::SetVar && scoped(SP->Var))
        break;
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

std::string KernelEmitter::run() {
  assert(F.batched() && F.Lanes.VectorBits == 0 && IL >= 1 &&
         "the printer knows the target's own width");
  Def.assign(F.Temps.size(), nullptr);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Dst >= 0)
      Def[S.Dst] = &S;
  });
  Hoisted.assign(F.Temps.size(), false);
  TempDef.assign(F.Temps.size(), nullptr);
  std::vector<const ir::Block *> Open;
  scopes(F.Body, Open);
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
    Scopes = varScopes(F);
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
  // Large local arrays: the chunk function's arena memory.
  std::vector<int> Arena = arenaArrays(F);
  for (int V : Arena)
    OS << ", "
       << (F.VaryingVar[V] ? Sh.vtype(F.Vars[V].Ty)
                           : std::string(scalarType(F.Vars[V].Ty)))
       << " *" << varBase(V);
  OS << ") {\n";
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
  // Each chunk starts its tapes afresh; the memory is reused.
  for (size_t T = 0; T < F.TapeSlots.size(); ++T)
    OS << "  __bd_tp[" << T << "].top = 0;\n";
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
  for (size_t V = 0; V < F.Vars.size(); ++V)
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
  for (size_t T = 0; T < F.Temps.size(); ++T)
    for (Ch = 0; Ch < (F.VaryingTemp[T] ? IL : 1); ++Ch) {
      if (!Hoisted[T] || isInline(T))
        continue;
      Type Ty = F.Temps[T];
      if (F.VaryingTemp[T])
        OS << "  " << Sh.vtype(Ty) << " " << temp(T) << " = " << Sh.zero(Ty)
           << ";\n";
      else
        OS << "  " << scalarType(Ty) << " " << temp(T) << " = 0;\n";
    }
  Ch = 0;
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
  block(F.Body);
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    for (Ch = 0; Ch < IL; ++Ch)
      OS << "  *__bd_o" << I << ch() << " = " << temp(F.Outputs[I].Temp)
         << ";\n";
  Ch = 0;
  OS << "}\n";
  std::string Copies;
  for (const auto &[CopyName, Def] : MathCopies)
    Copies += Def;
  return Copies + OS.str();
}

} // namespace

std::string emitKernel(const ir::Function &F, const std::string &Name,
                       Flavor Fl, bool MathOutline) {
  return KernelEmitter(F, Name, Fl, MathOutline).run();
}

} // namespace batchdiff
