//===- CText.cpp - C text of types, literals and vector names -------------===//
#include "emit/CText.h"

#include <cmath>
#include <cstdio>

namespace batchdiff {
namespace ctext {

using ir::Op;
using ir::Type;

const char *scalarType(Type T) {
  switch (T) {
  case Type::Void:
    return "void";
  case Type::Bool:
    return "_Bool";
  case Type::I32:
    return "int32_t";
  case Type::U32:
    return "uint32_t";
  case Type::I64:
    return "int64_t";
  case Type::U64:
    return "uint64_t";
  case Type::F32:
    return "float";
  case Type::F64:
    return "double";
  }
  return "void";
}

const char *unsignedOf(Type T) {
  return ir::bitWidth(T) == 64 ? "uint64_t" : "uint32_t";
}

std::string floatLiteral(Type T, double V) {
  const char *Suf = T == Type::F32 ? "f" : "";
  if (std::isnan(V))
    return std::string(std::signbit(V) ? "(-" : "(") + "__builtin_nan" + Suf +
           "(\"\"))";
  if (std::isinf(V))
    return std::string(V < 0 ? "(-" : "(") + "__builtin_inf" + Suf + "())";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%a%s", V, Suf);
  return std::string(V < 0 || std::signbit(V) ? "(" : "") + Buf +
         (V < 0 || std::signbit(V) ? ")" : "");
}

std::string intLiteral(Type T, int64_t V) {
  char Buf[64];
  switch (T) {
  case Type::I32:
    std::snprintf(Buf, sizeof Buf, "((int32_t)0x%xu)", (uint32_t)V);
    break;
  case Type::U32:
    std::snprintf(Buf, sizeof Buf, "0x%xu", (uint32_t)V);
    break;
  case Type::I64:
    std::snprintf(Buf, sizeof Buf, "((int64_t)0x%llxull)",
                  (unsigned long long)V);
    break;
  default:
    std::snprintf(Buf, sizeof Buf, "0x%llxull", (unsigned long long)V);
    break;
  }
  return Buf;
}

const char *vecOpName(Op O) {
  switch (O) {
  case Op::Add:
    return "add";
  case Op::Sub:
    return "sub";
  case Op::Mul:
    return "mul";
  case Op::Div:
    return "div";
  case Op::Rem:
    return "rem";
  case Op::Shl:
    return "shl";
  case Op::Shr:
    return "shr";
  case Op::BitAnd:
  case Op::And:
    return "and";
  case Op::BitOr:
  case Op::Or:
    return "or";
  case Op::BitXor:
    return "xor";
  case Op::Neg:
    return "neg";
  case Op::BitNot:
  case Op::Not:
    return "not";
  case Op::CmpEQ:
    return "cmpeq";
  case Op::CmpNE:
    return "cmpne";
  case Op::CmpLT:
    return "cmplt";
  case Op::CmpLE:
    return "cmple";
  case Op::CmpGT:
    return "cmpgt";
  case Op::CmpGE:
    return "cmpge";
  case Op::FMulAdd:
    return "fmuladd";
  case Op::Select:
    return "select";
  case Op::SExt8:
    return "sext8";
  case Op::ZExt8:
    return "zext8";
  case Op::SExt16:
    return "sext16";
  case Op::ZExt16:
    return "zext16";
  default:
    return "?";
  }
}

const char *scalarOp(Op O) {
  switch (O) {
  case Op::Add:
    return "+";
  case Op::Sub:
    return "-";
  case Op::Mul:
    return "*";
  case Op::Div:
    return "/";
  case Op::BitAnd:
    return "&";
  case Op::BitOr:
    return "|";
  case Op::BitXor:
    return "^";
  case Op::And:
    return "&&";
  case Op::Or:
    return "||";
  case Op::CmpEQ:
    return "==";
  case Op::CmpNE:
    return "!=";
  case Op::CmpLT:
    return "<";
  case Op::CmpLE:
    return "<=";
  case Op::CmpGT:
    return ">";
  case Op::CmpGE:
    return ">=";
  default:
    return "?";
  }
}

} // namespace ctext
} // namespace batchdiff
