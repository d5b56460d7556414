//===- KernelExpr.cpp - the kernel's expressions --------------------------===//
// The C expression of one instruction: a bd_ vector expression for a
// varying value, a C scalar expression for a uniform one.
#include "emit/KernelEmitter.h"

#include <utility>

namespace batchdiff {
namespace kernel {

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
  case Op::ExternOut: // the lanes the call left (emit/ExternCall.cpp)
    return temp(A[0]) + "_o" + std::to_string(S.IVal);
  case Op::Param:
    return "__bd_p" + std::to_string(S.IVal) + ch();
  case Op::GetVar:
    return var(S.Var);
  case Op::TapeLoad:
    return tapeAt(S, S.Dst);
  case Op::LoadElem: {
    std::string Len = arrLen(S.Var);
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
    // Named after the float type, which the result need not have (ilogb),
    // nor the first argument (jn's order).
    // (__bd_digamma, not in <math.h>, is bd_digamma_* in the runtime.)
    std::string MN = ir::mathName(S.Fn);
    if (MN.rfind("__bd_", 0) == 0)
      MN.erase(0, 5);
    std::string Fn =
        "bd_" + MN + "_" + Sh.sfx(F.Temps[A[ir::mathFloatArg(S.Fn)]]);
    if (Outline && ir::mathCostly(S.Fn))
      return Call("bd_ool" + Fn.substr(2), Args);
    if (Deferred && ir::mathDeferrable(S.Fn)) {
      Args.insert(Args.begin(), {"__bd_careful", "__bd_bad"});
      return Call("bd_dfr" + Fn.substr(2), Args);
    }
    if (MathOutOfLine && ir::mathCostly(S.Fn)) {
      // Each parameter of its argument's type (jn's order is an int).
      std::string Copy = Name + Fn.substr(2), Params, Pass;
      for (size_t I = 0; I < A.size(); ++I) {
        std::string P = I ? "__bd_y" : "__bd_x";
        Params += (I ? ", " : "") + Sh.vtype(F.Temps[A[I]]) + " " + P;
        Pass += (I ? ", " : "") + P;
      }
      std::string Def = "static __attribute__((noinline, unused)) " +
                        Sh.vtype(F.Temps[S.Dst]) + " " + Copy + "(" + Params +
                        ") {\n  return " + Fn + "(" + Pass + ");\n}\n";
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
  case Op::ExternOut: // (always varying: a call per lane)
    return temp(A[0]) + "_o" + std::to_string(S.IVal) + "[0]";
  case Op::Param:
    return "__bd_p" + std::to_string(S.IVal);
  case Op::GetVar:
    return var(S.Var);
  case Op::LoopIndex:
  case Op::LoopCount:
    return counter((int)S.IVal);
  case Op::LoadElem:
    return var(S.Var) + "[bd_sclamp_idx(" + X(0) + ", " + arrLen(S.Var) + ")]";
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
  case Op::Recip: // simd.h's bd_recip / bd_divr, for uniform values
    return std::string("bd_srecip_") + ir::typeName(Ty) + "(" + X(0) + ")";
  case Op::DivR:
  case Op::DivX:
    return std::string(S.Opc == Op::DivR ? "bd_sdivr_" : "bd_sdivx_") +
           ir::typeName(Ty) + "(" + X(0) + ", " + X(1) + ", " + X(2) + ")";
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
        std::string(ir::mathName(S.Fn)) +
        (F.Temps[A[ir::mathFloatArg(S.Fn)]] == Type::F32 ? "f" : "") + "(";
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

} // namespace kernel
} // namespace batchdiff
