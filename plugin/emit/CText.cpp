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

} // namespace ctext
} // namespace batchdiff
