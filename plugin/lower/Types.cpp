//===- Types.cpp - C types to IR types ------------------------------------===//
#include "lower/Types.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

using namespace clang;

namespace batchdiff {

using ir::Type;

std::optional<Type> irType(QualType QT) {
  QT = QT.getCanonicalType();
  if (const auto *ET = QT->getAs<EnumType>())
    QT = ET->getDecl()->getIntegerType().getCanonicalType();
  const auto *BT = QT->getAs<BuiltinType>();
  if (!BT)
    return std::nullopt;
  switch (BT->getKind()) {
  case BuiltinType::Bool:
    return Type::Bool;
  case BuiltinType::Char_S:
  case BuiltinType::SChar:
  case BuiltinType::Short:
  case BuiltinType::Int:
  case BuiltinType::Char_U:
  case BuiltinType::UChar:
  case BuiltinType::UShort:
    return Type::I32;
  case BuiltinType::UInt:
    return Type::U32;
  case BuiltinType::Long:
  case BuiltinType::LongLong:
    return Type::I64;
  case BuiltinType::ULong:
  case BuiltinType::ULongLong:
    return Type::U64;
  case BuiltinType::Float:
    return Type::F32;
  case BuiltinType::Double:
    return Type::F64;
  default:
    return std::nullopt;
  }
}

bool nativeLayout(ASTContext &Ctx, QualType QT, Type T) {
  return T != Type::Bool && Ctx.getTypeSize(QT) == ir::bitWidth(T);
}

std::optional<std::pair<QualType, uint64_t>> flatArray(ASTContext &Ctx,
                                                       QualType QT) {
  const auto *CAT = Ctx.getAsConstantArrayType(QT);
  if (!CAT)
    return std::nullopt;
  uint64_t N = CAT->getSize().getZExtValue();
  QualType E = CAT->getElementType();
  if (irType(E))
    return std::make_pair(E, N);
  auto Inner = flatArray(Ctx, E);
  if (!Inner || (Inner->second && N > UINT64_MAX / Inner->second))
    return std::nullopt;
  return std::make_pair(Inner->first, N * Inner->second);
}

std::optional<QualType> arrayElement(ASTContext &Ctx, QualType QT) {
  const ArrayType *AT = Ctx.getAsArrayType(QT);
  if (!AT)
    return std::nullopt;
  QualType E = AT->getElementType();
  return irType(E) ? std::optional<QualType>(E) : arrayElement(Ctx, E);
}

std::optional<std::pair<Type, std::string>> tableElement(ASTContext &Ctx,
                                                         QualType ET) {
  auto IT = irType(ET);
  if (!IT)
    return std::nullopt;
  // A _Bool is a byte holding 0 or 1: read as uint8_t, compared with 0.
  if (*IT == Type::Bool)
    return Ctx.getTypeSize(ET) == 8
               ? std::optional(std::make_pair(Type::I32, std::string("u8")))
               : std::nullopt;
  if (nativeLayout(Ctx, ET, *IT))
    return std::make_pair(*IT, std::string());
  if (*IT != Type::I32)
    return std::nullopt;
  return std::make_pair(*IT,
                        (ET->isSignedIntegerOrEnumerationType() ? "i" : "u") +
                            std::to_string(Ctx.getTypeSize(ET)));
}

bool laneLoadsOnly(clang::ASTContext &Ctx, const clang::VarDecl *VD) {
  return !VD->hasExternalFormalLinkage() &&
         !Ctx.getBaseElementType(VD->getType()).isConstQualified();
}

} // namespace batchdiff
