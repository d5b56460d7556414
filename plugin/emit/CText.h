//===- CText.h - C text of types, literals and vector names ----*- C++ -*-===//
//
// Spelling shared by the kernel and wrapper emitters: scalar C types,
// literals that round-trip exactly, and the bd_ vector API's names for one
// lane shape.
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_EMIT_CTEXT_H
#define BATCHDIFF_EMIT_CTEXT_H

#include "ir/IR.h"

#include <string>

namespace batchdiff {

/// Which generated function a kernel or wrapper belongs to: NAME_batched,
/// NAME_grad (shadows are gradients), NAME_jvp (shadows are tangents) or
/// NAME_hvp (three arrays per array parameter: gradient, tangent, H·v).
enum class Flavor { Batched, Grad, Jvp, Hvp };

namespace ctext {

/// "float", "int32_t", "_Bool", ...
const char *scalarType(ir::Type T);
/// The unsigned integer type of T's width (wrapping integer arithmetic).
const char *unsignedOf(ir::Type T);
/// A C literal of exactly V (hex floats; NaN and Inf through builtins).
std::string floatLiteral(ir::Type T, double V);
std::string intLiteral(ir::Type T, int64_t V);

/// Naming and typing shared by kernels and wrappers of one function.
struct Shape {
  bool Wide;
  std::string S() const { return Wide ? "d" : "n"; }
  // Lane counts as constant expressions, not the runtime's BD_WN/BD_WD
  // macros: a preprocessed (-save-temps) file has no macros left.
  std::string W() const {
    return Wide ? "(sizeof(bd_md) / 8)" : "(sizeof(bd_mn) / 4)";
  }
  std::string mask() const { return "bd_m" + S(); }
  /// "f64d", "i32n", or "md" for Bool.
  std::string sfx(ir::Type T) const {
    if (T == ir::Type::Bool)
      return "m" + S();
    return std::string(ir::typeName(T)) + S();
  }
  std::string vtype(ir::Type T) const { return "bd_" + sfx(T); }
  std::string zero(ir::Type T) const {
    if (T == ir::Type::Bool)
      return "bd_mfalse_" + S() + "()";
    return "bd_splat_" + sfx(T) + "(0)";
  }
};

/// The sort key: the extent parameter of the first varying array whose
/// extent is a varying integer parameter (a ragged batch, in any layout);
/// -1: keep the caller's order.
inline int sortKeyParam(const ir::Function &F) {
  if (F.KeepOrder)
    return -1;
  for (const ir::Param &P : F.Params)
    if (P.Kind == ir::ParamKind::User && P.IsArray && !P.Uniform &&
        P.DimParam >= 0 && !F.Params[P.DimParam].Uniform &&
        !F.Params[P.DimParam].IsArray)
      return P.DimParam;
  return -1;
}

/// Whether any lane may hold any example: with a BD_PACKED or BD_POINTERS
/// parameter, or a ragged batch processed sorted by length. Then the
/// wrapper passes each varying array's lane offsets to the kernel instead
/// of a stride (docs/abi.md).
inline bool indexedLanes(const ir::Function &F) {
  for (const ir::Param &P : F.Params)
    if (P.Kind == ir::ParamKind::User && P.IsArray && !P.Uniform &&
        P.Lay != ir::Layout::Strided)
      return true;
  return sortKeyParam(F) >= 0;
}

/// The wrapper's reserved names for parameter \p I: its argument, shadow,
/// their strides, and a BD_PACKED array's offsets.
inline std::string argName(size_t I) { return "__bd_a" + std::to_string(I); }
inline std::string shadowName(size_t I) { return "__bd_d" + std::to_string(I); }
inline std::string strideName(size_t I) {
  return "__bd_as" + std::to_string(I);
}
inline std::string shadowStrideName(size_t I) {
  return "__bd_ds" + std::to_string(I);
}
inline std::string offsetsName(size_t I) {
  return "__bd_ao" + std::to_string(I);
}
/// The C element type of array parameter \p P as the kernel reads it: the
/// lane type, or the narrow integer type of a char/short table.
inline std::string elemType(const ir::Param &P) {
  if (P.Narrow.empty())
    return scalarType(P.Ty);
  return (P.Narrow[0] == 'u' ? "uint" : "int") + P.Narrow.substr(1) + "_t";
}

/// Array K next to parameter I's values: 0 its shadow (NAME_jvp: its
/// tangent), in NAME_hvp 1 the tangent and 2 the H·v shadow; and the
/// stride of a strided one.
inline std::string shadowArrayName(int K, size_t I) {
  return K == 0   ? shadowName(I)
         : K == 1 ? "__bd_tg" + std::to_string(I)
                  : "__bd_hv" + std::to_string(I);
}
inline std::string shadowArrayStride(int K, size_t I) {
  return K == 0   ? shadowStrideName(I)
         : K == 1 ? "__bd_tgs" + std::to_string(I)
                  : "__bd_hvs" + std::to_string(I);
}
/// A parameter with a shadow (gradient, tangent) in the generated ABI.
inline bool hasShadowParam(const ir::Param &P) {
  return P.Kind == ir::ParamKind::User && ir::isFloat(P.Ty) && !P.NoDiff;
}
/// How many arrays next to its values a parameter has in the ABI of flavor
/// \p Fl (the arrays shadowArrayName numbers).
inline int numShadowArrays(Flavor Fl, const ir::Param &P) {
  if (Fl == Flavor::Batched || !hasShadowParam(P))
    return 0;
  return Fl == Flavor::Hvp ? 3 : 1;
}
/// Whether array K of numShadowArrays is a tangent (read-only for an
/// input array).
inline bool isTangentArray(Flavor Fl, int K) {
  return Fl == Flavor::Hvp ? K == 1 : Fl == Flavor::Jvp;
}

} // namespace ctext
} // namespace batchdiff

#endif
