//===- Kernel.cpp - the per-chunk kernel of one function ------------------===//
#include "emit/Kernel.h"
#include "emit/CText.h"

#include <sstream>

namespace batchdiff {
namespace {

using ir::Op;
using ir::Type;
using namespace ctext;

class KernelEmitter {
public:
  KernelEmitter(const ir::Function &F, const BatchPlan &P, std::string Name,
                bool Grad)
      : F(F), P(P), Sh{P.Wide}, Name(std::move(Name)), Grad(Grad) {}

  std::string run();

private:
  struct Mask {
    std::string Expr;
    bool AllOn;
  };

  std::string temp(int T) const {
    if (!Lit[T].empty())
      return Lit[T];
    return "__bd_t" + std::to_string(T);
  }
  std::string var(int V) const {
    std::string N = F.Vars[V].Name;
    while (!N.empty() && N[0] == '_')
      N.erase(0, 1);
    return "__bd_v" + std::to_string(V) + (N.empty() ? "" : "_" + N);
  }
  /// The temp as a vector of its shape, broadcasting uniform values.
  std::string vec(int T) const {
    if (P.VaryingTemp[T])
      return temp(T);
    Type Ty = F.Temps[T];
    if (Ty == Type::Bool && !Lit[T].empty())
      return std::string(Lit[T] == "1" ? "bd_mtrue_" : "bd_mfalse_") + Sh.S() +
             "()";
    if (Ty == Type::Bool)
      return "(" + temp(T) + " ? bd_mtrue_" + Sh.S() + "() : bd_mfalse_" +
             Sh.S() + "())";
    return "bd_splat_" + Sh.sfx(Ty) + "(" + temp(T) + ")";
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
  std::string vectorExpr(const ir::Stmt &S);
  std::string scalarExpr(const ir::Stmt &S);
  void inst(const ir::Stmt &S, const Mask &M);
  void block(const ir::Block &B, const Mask &M);
  void ifStmt(const ir::Stmt &S, const Mask &M);
  void maskedIf(const ir::Stmt &S, const Mask &M);
  void loop(const ir::Stmt &S, const Mask &M);
  void revLoop(const ir::Stmt &S, const Mask &M);
  bool tapeOp(const ir::Stmt &S);
  bool memOp(const ir::Stmt &S, const Mask &M);
  std::string addr(const ir::Stmt &S, bool Shadow) const;
  /// Element offsets (in elements) of lane l: l * stride; index vectors.
  std::string idxSfx() const { return Sh.Wide ? "i64d" : "i32n"; }
  bool hasShadow(const ir::Param &Pa) const {
    return Grad && Pa.IsArray && ir::isFloat(Pa.Ty) && !Pa.NoDiff &&
           Pa.Kind == ir::ParamKind::User;
  }
  bool arrayOp(const ir::Stmt &S, const Mask &M);
  std::string tapeAt(const ir::Stmt &S, int Value) const;
  std::string counter(int Id) const { return "__bd_k" + std::to_string(Id); }

  const ir::Function &F;
  const BatchPlan &P;
  Shape Sh;
  std::string Name;
  bool Grad;
  std::ostringstream OS;
  int Ind = 1;
  int MaskCount = 0;
  int FastDepth = 0;
  /// Constants are printed where they are used, not as temps.
  std::vector<std::string> Lit;
};

std::string KernelEmitter::vectorExpr(const ir::Stmt &S) {
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
    return "__bd_p" + std::to_string(S.IVal);
  case Op::GetVar:
    return var(S.Var);
  case Op::TapeLoad:
    return tapeAt(S, S.Dst);
  case Op::LoadElem: {
    std::string Len = std::to_string(F.Vars[S.Var].Len);
    if (!P.VaryingTemp[A[0]])
      return vecOfScalar(
          Ty, var(S.Var) + "[bd_sclamp_idx(" + temp(A[0]) + ", " + Len + ")]",
          P.VaryingVar[S.Var]);
    return Call(
        std::string(P.VaryingVar[S.Var] ? "bd_agather_" : "bd_sgather_") +
            Sh.sfx(Ty),
        {var(S.Var), Len, temp(A[0])});
  }
  case Op::Cast: {
    Type From = F.Temps[A[0]];
    if (From == Type::Bool)
      return Call("bd_cvt_m" + Sh.S() + "_" + Sh.sfx(Ty), {vec(A[0])});
    return Call("bd_cvt_" + Sh.sfx(From) + "_" + Sh.sfx(Ty), {vec(A[0])});
  }
  case Op::CmpEQ:
  case Op::CmpNE:
  case Op::CmpLT:
  case Op::CmpLE:
  case Op::CmpGT:
  case Op::CmpGE:
    if (F.Temps[A[0]] == Type::Bool) {
      std::string X = Call("bd_xor_m" + Sh.S(), {vec(A[0]), vec(A[1])});
      return S.Opc == Op::CmpNE ? X : Call("bd_not_m" + Sh.S(), {X});
    }
    return Call(std::string("bd_") + ir::opVecName(S.Opc) + "_" +
                    Sh.sfx(F.Temps[A[0]]),
                {vec(A[0]), vec(A[1])});
  case Op::Math: {
    std::vector<std::string> Args;
    for (int X : A)
      Args.push_back(vec(X));
    return Call(std::string("bd_") + ir::mathName(S.Fn) + "_" + Sh.sfx(Ty),
                Args);
  }
  case Op::FMulAdd:
    // The vector types are GCC vector extensions: one expression, contracted
    // by clang like the scalar original (see scalarExpr).
    return vec(A[0]) + " * " + vec(A[1]) + " + " + vec(A[2]);
  default: {
    std::vector<std::string> Args;
    for (int X : A)
      Args.push_back(vec(X));
    return Call(std::string("bd_") + ir::opVecName(S.Opc) + "_" + Sh.sfx(Ty),
                Args);
  }
  }
}

std::string KernelEmitter::scalarExpr(const ir::Stmt &S) {
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
    std::string R =
        std::string(ir::mathName(S.Fn)) + (Ty == Type::F32 ? "f" : "") + "(";
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
  std::string T = P.VaryingTemp[Value] ? Sh.vtype(Ty) : scalarType(Ty);
  // Row (top + k), slot `Var`, slots of the runtime's BD_TAPE_SLOT bytes.
  std::string Tp = "__bd_tp[" + std::to_string(S.IVal) + "]";
  return "(*(" + T + " *)(" + Tp + ".data + ((" + Tp + ".top + (size_t)" +
         temp(S.Args[0]) + ") * " + Tp + ".row + " + std::to_string(S.Var) +
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
bool KernelEmitter::arrayOp(const ir::Stmt &S, const Mask &M) {
  if (S.Opc != Op::StoreElem && S.Opc != Op::ZeroArr)
    return false;
  int V = S.Var;
  Type Ty = F.Vars[V].Ty;
  std::string Len = std::to_string(F.Vars[V].Len);
  bool Blend = P.NeedsBlend.count(&S) && P.NeedsBlend.at(&S) && !M.AllOn;
  if (S.Opc == Op::ZeroArr) {
    std::string Z = P.VaryingVar[V] ? Sh.zero(Ty) : "0";
    std::string El = var(V) + "[__bd_j]";
    if (Blend)
      Z = "bd_select_" + Sh.sfx(Ty) + "(" + M.Expr + ", " + Z + ", " + El + ")";
    OS << line() << "for (int32_t __bd_j = 0; __bd_j < " << Len
       << "; __bd_j++) " << El << " = " << Z << ";\n";
    return true;
  }
  int I = S.Args[0], X = S.Args[1];
  if (!P.VaryingVar[V]) {
    OS << line() << var(V) << "[bd_sclamp_idx(" << temp(I) << ", " << Len
       << ")] = " << temp(X) << ";\n";
  } else if (!P.VaryingTemp[I]) {
    std::string El = var(V) + "[bd_sclamp_idx(" + temp(I) + ", " + Len + ")]";
    std::string Val = vec(X);
    if (Blend)
      Val = "bd_select_" + Sh.sfx(Ty) + "(" + M.Expr + ", " + Val + ", " + El +
            ")";
    OS << line() << El << " = " << Val << ";\n";
  } else {
    OS << line() << "bd_ascatter_" << Sh.sfx(Ty) << "(" << var(V) << ", " << Len
       << ", " << temp(I) << ", "
       << (Blend ? M.Expr : "bd_mtrue_" + Sh.S() + "()") << ", " << vec(X)
       << ");\n";
  }
  return true;
}

/// The per-lane element index vector of an array-parameter access: lane
/// l's example starts l * stride elements after the chunk's first one.
std::string KernelEmitter::addr(const ir::Stmt &S, bool Shadow) const {
  int I = (int)S.IVal;
  std::string Idx = vec(S.Args[0]);
  if (Sh.Wide)
    Idx = "bd_cvt_i32d_i64d(" + Idx + ")";
  if (F.Params[I].Uniform)
    return Idx;
  return "bd_add_" + idxSfx() + "(" +
         std::string(Shadow ? "__bd_qo" : "__bd_po") + std::to_string(I) +
         ", " + Idx + ")";
}

/// Loads and stores of array parameters and their shadows: gathers and
/// scatters under the current mask, so a lane that is off (past the end of
/// the batch, or past its own extent in a ragged loop) touches no memory.
bool KernelEmitter::memOp(const ir::Stmt &S, const Mask &M) {
  bool Shadow = S.Opc == Op::ShadowLoad || S.Opc == Op::ShadowStore ||
                S.Opc == Op::ShadowAdd;
  if (!Shadow && S.Opc != Op::LoadArg && S.Opc != Op::StoreArg)
    return false;
  int I = (int)S.IVal;
  Type Ty = F.Params[I].Ty;
  std::string Base = (Shadow ? "__bd_q" : "__bd_p") + std::to_string(I);
  if (S.Opc == Op::LoadArg || S.Opc == Op::ShadowLoad) {
    OS << line();
    if (!P.VaryingTemp[S.Dst]) {
      OS << (P.Hoisted[S.Dst] ? "" : std::string(scalarType(Ty)) + " ")
         << temp(S.Dst) << " = " << Base << "[" << temp(S.Args[0]) << "];\n";
      return true;
    }
    OS << (P.Hoisted[S.Dst] ? "" : Sh.vtype(Ty) + " ") << temp(S.Dst)
       << " = bd_gather_" << Sh.sfx(Ty) << "(" << M.Expr << ", " << Base << ", "
       << addr(S, Shadow) << ");\n";
    return true;
  }
  OS << line() << (S.Opc == Op::ShadowAdd ? "bd_scatteradd_" : "bd_scatter_")
     << Sh.sfx(Ty) << "(" << M.Expr << ", " << Base << ", " << addr(S, Shadow)
     << ", " << vec(S.Args[1]) << ");\n";
  return true;
}

void KernelEmitter::inst(const ir::Stmt &S, const Mask &M) {
  if (tapeOp(S) || arrayOp(S, M) || memOp(S, M))
    return;
  if (S.Opc == Op::SetVar) {
    int V = S.Var, A = S.Args[0];
    Type Ty = F.Vars[V].Ty;
    if (!P.VaryingVar[V]) {
      OS << line() << var(V) << " = " << temp(A) << ";\n";
    } else if (P.NeedsBlend.count(&S) && P.NeedsBlend.at(&S) && !M.AllOn) {
      OS << line() << var(V) << " = bd_select_" << Sh.sfx(Ty) << "(" << M.Expr
         << ", " << vec(A) << ", " << var(V) << ");\n";
    } else {
      OS << line() << var(V) << " = " << vec(A) << ";\n";
    }
    return;
  }
  if (!Lit[S.Dst].empty())
    return;
  bool Vary = P.VaryingTemp[S.Dst];
  Type Ty = F.Temps[S.Dst];
  OS << line();
  if (!P.Hoisted[S.Dst])
    OS << (Vary ? Sh.vtype(Ty) : std::string(scalarType(Ty))) << " ";
  OS << temp(S.Dst) << " = " << (Vary ? vectorExpr(S) : scalarExpr(S)) << ";\n";
}

void KernelEmitter::ifStmt(const ir::Stmt &S, const Mask &M) {
  bool Vary = P.VaryingCond.count(&S) && P.VaryingCond.at(&S);
  if (!Vary) {
    OS << line() << "if (" << temp(S.Cond) << ") {\n";
    ++Ind;
    block(S.Then, M);
    --Ind;
    if (!S.Else.empty()) {
      OS << line() << "} else {\n";
      ++Ind;
      block(S.Else, M);
      --Ind;
    }
    OS << line() << "}\n";
    return;
  }
  // All-on fast path: where every lane takes the same side, that side runs
  // without blends. Each level doubles the code, so only shallow, small
  // branches get it.
  size_t Size = 0;
  ir::walk(S.Then, [&](const ir::Stmt &, int) { ++Size; });
  ir::walk(S.Else, [&](const ir::Stmt &, int) { ++Size; });
  if (M.AllOn && FastDepth < 2 && Size < 300) {
    ++FastDepth;
    OS << line() << "if (bd_all_m" << Sh.S() << "(" << temp(S.Cond) << ")) {\n";
    ++Ind;
    block(S.Then, M);
    --Ind;
    OS << line() << "} else if (bd_none_m" << Sh.S() << "(" << temp(S.Cond)
       << ")) {\n";
    ++Ind;
    if (S.Else.empty())
      OS << line() << "/* no lane takes the branch */\n";
    block(S.Else, M);
    --Ind;
    OS << line() << "} else {\n";
    ++Ind;
    maskedIf(S, M);
    --Ind;
    OS << line() << "}\n";
    --FastDepth;
    return;
  }
  maskedIf(S, M);
}

/// Each side runs under its own mask and is skipped when no lane takes it.
void KernelEmitter::maskedIf(const ir::Stmt &S, const Mask &M) {
  std::string MT = "__bd_m" + std::to_string(++MaskCount);
  std::string MK = Sh.mask();
  OS << line() << MK << " " << MT << " = bd_and_m" << Sh.S() << "(" << M.Expr
     << ", " << temp(S.Cond) << ");\n";
  OS << line() << "if (bd_any_m" << Sh.S() << "(" << MT << ")) {\n";
  ++Ind;
  block(S.Then, {MT, false});
  --Ind;
  OS << line() << "}\n";
  if (S.Else.empty())
    return;
  std::string ME = "__bd_m" + std::to_string(++MaskCount);
  OS << line() << MK << " " << ME << " = bd_andnot_m" << Sh.S() << "(" << M.Expr
     << ", " << temp(S.Cond) << ");\n";
  OS << line() << "if (bd_any_m" << Sh.S() << "(" << ME << ")) {\n";
  ++Ind;
  block(S.Else, {ME, false});
  --Ind;
  OS << line() << "}\n";
}

void KernelEmitter::loop(const ir::Stmt &S, const Mask &M) {
  bool Vary = P.VaryingCond.count(&S) && P.VaryingCond.at(&S);
  std::string Inc =
      S.Id >= 0 ? line() + "  " + counter(S.Id) + "++;\n" : std::string();
  if (S.Id >= 0)
    OS << line() << counter(S.Id) << " = 0;\n";
  if (!Vary) {
    OS << line() << "do {\n";
    ++Ind;
    block(S.Body, M);
    --Ind;
    OS << Inc << line() << "} while (" << temp(S.Cond) << ");\n";
    return;
  }
  // Lanes leave the loop one by one; it ends when none is left.
  std::string ML = "__bd_m" + std::to_string(++MaskCount);
  OS << line() << Sh.mask() << " " << ML << " = " << M.Expr << ";\n";
  OS << line() << "do {\n";
  ++Ind;
  block(S.Body, {ML, false});
  OS << line() << ML << " = bd_and_m" << Sh.S() << "(" << ML << ", "
     << vec(S.Cond) << ");\n";
  --Ind;
  OS << Inc << line() << "} while (bd_any_m" << Sh.S() << "(" << ML << "));\n";
}

/// Iterations count-1 .. 0 of a forward loop; an example takes part in
/// iteration k only if its own loop ran more than k times.
void KernelEmitter::revLoop(const ir::Stmt &S, const Mask &M) {
  std::string K = counter(S.Id);
  OS << line() << "for (" << K << " = " << temp(S.Args[0]) << " - 1; " << K
     << " >= 0; --" << K << ") {\n";
  ++Ind;
  bool Vary = P.VaryingTemp[S.Args[1]];
  if (!Vary) {
    // Every lane ran the loop the same number of times.
    OS << line() << "(void)" << temp(S.Args[1]) << ";\n";
    block(S.Body, M);
  } else {
    std::string MR = "__bd_m" + std::to_string(++MaskCount);
    OS << line() << Sh.mask() << " " << MR << " = bd_and_m" << Sh.S() << "("
       << M.Expr << ", bd_cmpgt_" << Sh.sfx(Type::I32) << "(" << temp(S.Args[1])
       << ", bd_splat_" << Sh.sfx(Type::I32) << "(" << K << ")));\n";
    OS << line() << "if (bd_any_m" << Sh.S() << "(" << MR << ")) {\n";
    ++Ind;
    block(S.Body, {MR, false});
    --Ind;
    OS << line() << "}\n";
  }
  --Ind;
  OS << line() << "}\n";
}

void KernelEmitter::block(const ir::Block &B, const Mask &M) {
  for (const auto &SP : B) {
    switch (SP->K) {
    case ir::Stmt::Inst:
      inst(*SP, M);
      break;
    case ir::Stmt::If:
      ifStmt(*SP, M);
      break;
    case ir::Stmt::Loop:
      loop(*SP, M);
      break;
    case ir::Stmt::RevLoop:
      revLoop(*SP, M);
      break;
    }
  }
}

std::string KernelEmitter::run() {
  Lit.assign(F.Temps.size(), "");
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst &&
        (S.Opc == Op::ConstF || S.Opc == Op::ConstI || S.Opc == Op::ConstB))
      Lit[S.Dst] = scalarExpr(S);
  });
  OS << "static inline __attribute__((always_inline, unused)) void " << Name
     << "(" << Sh.mask() << " __bd_m";
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    if (Pa.IsArray) {
      OS << ", " << (Pa.Writable ? "" : "const ") << scalarType(Pa.Ty)
         << " *__bd_p" << I;
      if (!Pa.Uniform)
        OS << ", ptrdiff_t __bd_ps" << I;
      if (hasShadow(Pa)) {
        OS << ", " << scalarType(Pa.Ty) << " *__bd_q" << I;
        if (!Pa.Uniform)
          OS << ", ptrdiff_t __bd_qs" << I;
      }
      continue;
    }
    OS << ", "
       << (Pa.Uniform ? std::string(scalarType(Pa.Ty)) : Sh.vtype(Pa.Ty))
       << " __bd_p" << I;
  }
  for (size_t I = 0; I < F.Outputs.size(); ++I)
    OS << ", " << Sh.vtype(F.Vars[F.Outputs[I].Var].Ty) << " *__bd_o" << I;
  if (!F.TapeSlots.empty())
    OS << ", bd_arena *__bd_ar, bd_tape *__bd_tp";
  OS << ") {\n";
  // A tape slot holds one vector (the mask type has the full width).
  if (!F.TapeSlots.empty())
    OS << "  __extension__ _Static_assert(sizeof(" << Sh.mask()
       << ") <= bd_tape_slot_bytes, \"a tape slot holds one vector\");\n";
  for (int L = 0; L < F.NumLoopIds; ++L)
    OS << "  int32_t " << counter(L) << " = 0;\n";
  // Lane l's example starts l * stride elements after lane 0's.
  std::string IT = Sh.Wide ? "int64_t" : "int32_t";
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const ir::Param &Pa = F.Params[I];
    if (!Pa.IsArray || Pa.Uniform)
      continue;
    for (int Q = 0; Q < (hasShadow(Pa) ? 2 : 1); ++Q) {
      std::string N = (Q ? "__bd_q" : "__bd_p") + std::to_string(I);
      std::string St = (Q ? "__bd_qs" : "__bd_ps") + std::to_string(I);
      OS << "  " << IT << " " << N << "l[" << Sh.W() << "];\n"
         << "  for (int __bd_l = 0; __bd_l < (int)" << Sh.W() << "; __bd_l++) "
         << N << "l[__bd_l] = (" << IT << ")(__bd_l * " << St << ");\n"
         << "  bd_" << idxSfx() << " " << (Q ? "__bd_qo" : "__bd_po") << I
         << " = bd_load_" << idxSfx() << "(" << N << "l);\n";
    }
  }
  // Each chunk starts its tapes afresh; the memory is reused.
  for (size_t T = 0; T < F.TapeSlots.size(); ++T)
    OS << "  __bd_tp[" << T << "].top = 0;\n";
  // Variables nothing reads or writes any more (a return flag once every
  // store to it was pruned) are not declared: -Wunused-variable.
  std::vector<bool> Used(F.Vars.size(), false);
  for (const ir::Output &O : F.Outputs)
    Used[O.Var] = true;
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    // (Tape ops use Var for their slot.)
    if (S.K == ir::Stmt::Inst && S.Var >= 0 &&
        (S.Opc == Op::GetVar || S.Opc == Op::SetVar || S.Opc == Op::LoadElem ||
         S.Opc == Op::StoreElem || S.Opc == Op::ZeroArr))
      Used[S.Var] = true;
  });
  for (size_t V = 0; V < F.Vars.size(); ++V) {
    Type Ty = F.Vars[V].Ty;
    if (!Used[V])
      continue;
    if (F.Vars[V].Len > 0) {
      OS << "  "
         << (P.VaryingVar[V] ? Sh.vtype(Ty) : std::string(scalarType(Ty)))
         << " " << var(V) << "[" << F.Vars[V].Len << "];\n";
      continue;
    }
    if (P.VaryingVar[V])
      OS << "  " << Sh.vtype(Ty) << " " << var(V) << " = " << Sh.zero(Ty)
         << ";\n";
    else
      OS << "  " << scalarType(Ty) << " " << var(V) << " = 0;\n";
  }
  for (size_t T = 0; T < F.Temps.size(); ++T) {
    if (!P.Hoisted[T] || !Lit[T].empty())
      continue;
    Type Ty = F.Temps[T];
    if (P.VaryingTemp[T])
      OS << "  " << Sh.vtype(Ty) << " " << temp(T) << " = " << Sh.zero(Ty)
         << ";\n";
    else
      OS << "  " << scalarType(Ty) << " " << temp(T) << " = 0;\n";
  }
  OS << "  (void)__bd_m;\n";
  // A parameter nothing reads (the need flag of a gradient that is always
  // 0) would be -Wunused-parameter.
  std::vector<bool> ParamRead(F.Params.size(), false);
  ir::walk(F.Body, [&](const ir::Stmt &S, int) {
    if (S.K == ir::Stmt::Inst && S.Opc == Op::Param && S.IVal >= 0 &&
        (size_t)S.IVal < F.Params.size())
      ParamRead[S.IVal] = true;
  });
  for (size_t I = 0; I < F.Params.size(); ++I)
    if (!ParamRead[I])
      OS << "  (void)__bd_p" << I << ";\n";
  block(F.Body, {"__bd_m", true});
  for (size_t I = 0; I < F.Outputs.size(); ++I) {
    int V = F.Outputs[I].Var;
    std::string Val = var(V);
    if (!P.VaryingVar[V]) {
      Type Ty = F.Vars[V].Ty;
      Val = Ty == Type::Bool ? "(" + Val + " ? bd_mtrue_" + Sh.S() +
                                   "() : bd_mfalse_" + Sh.S() + "())"
                             : "bd_splat_" + Sh.sfx(Ty) + "(" + Val + ")";
    }
    OS << "  *__bd_o" << I << " = " << Val << ";\n";
  }
  OS << "}\n";
  return OS.str();
}

} // namespace

std::string emitKernel(const ir::Function &F, const BatchPlan &P,
                       const std::string &Name, bool Grad) {
  return KernelEmitter(F, P, Name, Grad).run();
}

} // namespace batchdiff
