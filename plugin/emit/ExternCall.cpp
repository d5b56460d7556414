//===- ExternCall.cpp - per-lane calls of outside functions ---------------===//
#include "emit/ExternCall.h"
#include "emit/BatchedCall.h"
#include "emit/CText.h"

#include <set>
#include <sstream>

namespace batchdiff {

using namespace ctext;

namespace {

/// The outputs (Out::GradOf) whose partials are read: one NAME_grad call
/// per lane for each (LaneGrad, lower/LaneGrad.cpp).
std::set<int> gradSeeds(const ir::Stmt &S, const ir::ExternCall &X,
                        const std::map<int, std::vector<bool>> &Reads) {
  std::set<int> Seeds;
  auto It = Reads.find(S.Dst);
  if (!X.Grad || It == Reads.end())
    return Seeds;
  for (size_t K = 0; K < X.Outs.size() && K < It->second.size(); ++K)
    if (It->second[K] && X.Outs[K].GradOf != -2)
      Seeds.insert(X.Outs[K].GradOf);
  return Seeds;
}

/// For an in-place call (lower/LaneGradInPlace.cpp), references to the
/// promises of the callee's file (a link error where one is missing) and
/// the check, at run time, of the promises of other files they rely on.
std::string inPlaceRefs(const ir::ExternCall &X, const std::string &In) {
  std::string S;
  for (const auto &[I, J] : X.Grad->InPlace) {
    std::string Key =
        X.Name + ":" + std::to_string(I) + ":" + std::to_string(J);
    std::string Id = inPlaceIdent(Key);
    S += In + "extern const void *const " + Id +
         "[] __asm__(\"batchdiff.inplace:" + Key + "\");\n" + In +
         "static const void *const " + Id +
         "_ref __attribute__((used)) = " + Id + ";\n" + In +
         "bd_inplace_check(" + Id + ", \"the in-place call of '" + X.Name +
         "' (parameters " + std::to_string(I) + " and " + std::to_string(J) +
         ", one array) needs its file and those of the functions it calls to "
         "promise batchdiff.inplace:" +
         Key +
         " and what it relies on (docs/calls-in-place.md): one does not\");\n";
  }
  return S;
}

/// The prototype of the callee's NAME_grad, and references to the symbols
/// of its file that name its ABI (a header that differs from the definition
/// is a link error, as for batched calls) and say that its generated
/// functions write no global another file can name (the call made for the
/// partials then changes nothing the function or its callees read).
std::string gradDecl(const ir::ExternCall &X, const std::string &In) {
  const ir::ExternCall::LaneGrad &G = *X.Grad;
  std::string P = "extern void " + X.Name + "_grad(size_t";
  for (const ir::ExternCall::LaneGrad::Param &Pa : G.Params)
    P += Pa.Struct >= 0 ? std::string(", ") + (Pa.Const ? "const " : "") +
                              Pa.CType + " *, ptrdiff_t"
                        : ", const " + Pa.CType + " *";
  if (X.Ty != "void")
    P += ", " + X.Ty + " *";
  if (G.FloatRet)
    P += ", const " + X.Ty + " *";
  for (const ir::ExternCall::LaneGrad::Param &Pa : G.Params)
    if (Pa.Shadow)
      P += ", " + Pa.CType + (Pa.Struct >= 0 ? " *, ptrdiff_t" : " *");
  std::string Abi = "__bd_lgabi_" + X.Name;
  return In + P + ");\n" + In + "extern const char " + Abi +
         "[] __asm__(\"batchdiff.abi:" + G.Abi + "\");\n" + In +
         "static const void *const " + Abi +
         "_ref __attribute__((used)) = " + Abi + ";\n" + inPlaceRefs(X, In);
}

/// The reference to the symbol of the callee's file saying that its
/// generated functions write no global another file can name: nor does its
/// scalar function, the same code, which every lane calls (so the caller's
/// own file can say it too, lower/GlobalCalls.cpp).
std::string setsNoGlobalRef(const ir::ExternCall &X, const std::string &In) {
  std::string No = "__bd_lgsng_" + X.Name;
  return In + "extern const char " + No +
         "[] __asm__(\"batchdiff.sets-no-global:" + X.Name + "\");\n" + In +
         "static const void *const " + No +
         "_ref __attribute__((used)) = " + No + ";\n";
}

/// Lane __bd_l's call of NAME_grad seeded 1 in output \p Seed (the result,
/// -1, or the member that Out Seed is), with the lane's arguments and the
/// members' values from before the call; the partials it gives go into
/// their Outs' lanes.
std::string gradCall(const ir::Function &F, const ir::Stmt &S,
                     const ir::ExternCall &X,
                     const std::vector<std::string> &Lane,
                     const std::map<int, std::vector<bool>> &Reads, int Seed,
                     const std::string &Outs, const std::string &In) {
  const ir::ExternCall::LaneGrad &G = *X.Grad;
  std::ostringstream OS;
  std::string I2 = In + "  ";
  OS << In << "{\n";
  std::string Call = X.Name + "_grad(1", Shadows;
  for (size_t I = 0; I < G.Params.size(); ++I) {
    const ir::ExternCall::LaneGrad::Param &Pa = G.Params[I];
    std::string N = std::to_string(I);
    if (Pa.Struct < 0) {
      OS << I2 << Pa.CType << " __bd_ga" << N << " = (" << Pa.CType << ")"
         << Lane[Pa.Arg] << ";\n";
      Call += ", &__bd_ga" + N;
      if (Pa.Shadow) {
        OS << I2 << Pa.CType << " __bd_gx" << N << " = 0;\n";
        Shadows += ", &__bd_gx" + N;
      }
      continue;
    }
    const ir::ExternCall::Struct &St = X.Structs[Pa.Struct];
    // A struct, or an array (a local array's copy: at the argument's
    // offset, the examples Len apart).
    std::string Len = Pa.Len ? "[" + std::to_string(Pa.Len) + "]" : "";
    std::string At = Pa.Off >= 0 ? " + " + Lane[Pa.Off] : "";
    std::string Stride = Pa.Len ? std::to_string(Pa.Len) : "1";
    OS << I2 << Pa.CType << " __bd_gs" << N << Len << ";\n"
       << I2 << "__builtin_memset(&__bd_gs" << N << ", 0, sizeof __bd_gs" << N
       << ");\n";
    for (const auto &[Path, O] : St.Members)
      OS << I2 << "__bd_gs" << N << Path << " = (" << X.Outs[O].CType << ")"
         << Lane[X.Outs[O].Arg] << ";\n";
    Call += std::string(", ") + (Pa.Len ? "" : "&") + "__bd_gs" + N + At +
            ", " + Stride;
    if (!Pa.Shadow)
      continue;
    OS << I2 << Pa.CType << " __bd_gd" << N << Len << ";\n"
       << I2 << "__builtin_memset(&__bd_gd" << N << ", 0, sizeof __bd_gd" << N
       << ");\n";
    for (const auto &[Path, O] : St.Members)
      if (O == Seed && !Pa.Aliased) // (in place: the written one's)
        OS << I2 << "__bd_gd" << N << Path << " = 1;\n";
    Shadows += std::string(", ") + (Pa.Len ? "" : "&") + "__bd_gd" + N + At +
               ", " + Stride;
  }
  if (X.Ty != "void") {
    OS << I2 << X.Ty << " __bd_gr;\n";
    Call += ", &__bd_gr";
  }
  if (G.FloatRet) {
    OS << I2 << "const " << X.Ty << " __bd_gt = " << (Seed < 0 ? "1" : "0")
       << ";\n";
    Call += ", &__bd_gt";
  }
  OS << I2 << Call << Shadows << ");\n";
  const std::vector<bool> &Read = Reads.find(S.Dst)->second;
  for (size_t K = 0; K < X.Outs.size() && K < Read.size(); ++K)
    if (Read[K] && X.Outs[K].GradOf == Seed)
      OS << I2 << Outs << K << "[__bd_l] = ("
         << scalarType(F.Temps[S.Args[X.Outs[K].Arg]]) << ")"
         << X.Outs[K].GradFrom << ";\n";
  OS << In << "}\n";
  return OS.str();
}

} // namespace

std::string externCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                       const std::function<std::string(int)> &Operand,
                       const std::string &Result, bool Declared,
                       const std::string &Pad, const std::string &Outs,
                       const std::string &Chain,
                       const std::map<int, std::vector<bool>> &Reads) {
  Shape Sh{Wide};
  const ir::ExternCall &X = F.Externs[S.IVal];
  ir::Type Ty = F.Temps[S.Dst];
  std::ostringstream OS;
  // The result lanes of lanes that are off (and of a void call) are 0.
  OS << Pad << (Declared ? "" : Sh.vtype(Ty) + " ") << Result
     << (Declared ? "" : " __attribute__((unused))") << " = " << Sh.zero(Ty)
     << ";\n";
  // What the out-pointer arguments hold after the call: before it, their
  // values (lanes that make no call keep them).
  // (A partial from NAME_grad, Out::GradOf: 0 where no call is made.)
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    int A = S.Args[X.Outs[K].Arg];
    ir::Type OT = F.Temps[A];
    OS << Pad << Sh.vtype(OT) << " " << Outs << K
       << " __attribute__((unused)) = "
       << (X.Outs[K].GradOf != -2 ? Sh.zero(OT)
           : F.VaryingTemp[A]
               ? Operand(A)
               : "bd_splat_" + Sh.sfx(OT) + "(" + Operand(A) + ")")
       << ";\n";
  }
  OS << Pad << "{\n";
  std::string In = Pad + "  ";
  if (!X.Decl.empty())
    OS << In << X.Decl << ";\n";
  std::set<int> Seeds = gradSeeds(S, X, Reads);
  if (!Seeds.empty())
    OS << gradDecl(X, In);
  if (X.Grad)
    OS << setsNoGlobalRef(X, In);
  // A static local table the call reads: a copy here (the generated code
  // cannot name the function's static).
  for (size_t K = 0; K < X.Tables.size(); ++K) {
    const ir::ExternCall::Table &T = X.Tables[K];
    OS << In << "static const " << T.CType << " __bd_tb" << K << "[" << T.Len
       << "] = " << T.Init << ";\n";
  }
  // Vectors are copied into locals so that lanes can be indexed.
  OS << In << Sh.mask() << " __bd_xm = " << Operand(S.Mask) << ";\n";
  std::vector<std::string> Lane;
  for (size_t I = 0; I < S.Args.size(); ++I) {
    int A = S.Args[I];
    if (!F.VaryingTemp[A]) {
      Lane.push_back(Operand(A));
      continue;
    }
    std::string V = "__bd_x" + std::to_string(I);
    OS << In << Sh.vtype(F.Temps[A]) << " " << V << " = " << Operand(A)
       << ";\n";
    Lane.push_back(F.Temps[A] == ir::Type::Bool ? "(" + V + "[__bd_l] != 0)"
                                                : V + "[__bd_l]");
  }
  // "\x01k\x02": argument k's lane; "\x03k\x02": the address of out-pointer
  // k's scalar; "\x04k\x02": table k's copy; "\x05k\x02": the array of
  // BD_UNIFORM parameter k (the kernel's pointer, one for the batch);
  // "\x06k\x02": local array k's copy of the lane's elements; "\x07k\x02":
  // the lane's example's array of parameter k (the kernel's pointer plus
  // the lane's offset in elements); "\x08k\x02": the address of struct k
  // (of a local array's, its first element's).
  std::string Call;
  for (size_t I = 0; I < X.Call.size(); ++I) {
    char C = X.Call[I];
    if (C < '\x01' || C > '\x08' || C == '\x02') {
      Call += C;
      continue;
    }
    size_t End = X.Call.find('\x02', I);
    std::string K = X.Call.substr(I + 1, End - I - 1);
    Call += C == '\x01'   ? Lane[std::stoul(K)]
            : C == '\x03' ? "&__bd_o" + K
            : C == '\x04' ? "__bd_tb" + K
            : C == '\x05' ? "__bd_p" + K
            : C == '\x06' ? "__bd_la" + K
            : C == '\x08'
                ? (X.Structs[std::stoul(K)].Len ? "__bd_s" : "&__bd_s") + K
                : "(__bd_p" + K + " + __bd_po" + K + Chain + "[__bd_l])";
    I = End;
  }
  std::string Made =
      X.Ty == "void" ? Call
                     : Result + "[__bd_l] = (" + scalarType(Ty) + ")" + Call;
  OS << In << "for (int __bd_l = 0; __bd_l < (int)" << Sh.W()
     << "; __bd_l++)\n";
  if (X.Outs.empty() && X.Arrays.empty()) {
    OS << In << "  if (__bd_xm[__bd_l])\n" << In << "    " << Made << ";\n";
    OS << Pad << "}\n";
    return OS.str();
  }
  // Each out-pointer gets the address of a scalar of its C type holding the
  // lane's value; what the callee leaves there goes back into the lane.
  // Each local array, an array of the lane's elements.
  OS << In << "  if (__bd_xm[__bd_l]) {\n";
  for (size_t K = 0; K < X.Outs.size(); ++K)
    if (X.Outs[K].GradOf == -2)
      OS << In << "    " << X.Outs[K].CType << " __bd_o" << K << " = ("
         << X.Outs[K].CType << ")" << Lane[X.Outs[K].Arg] << ";\n";
  for (size_t K = 0; K < X.Arrays.size(); ++K) {
    const ir::ExternCall::Array &A = X.Arrays[K];
    OS << In << "    " << A.CType << " __bd_la" << K << "[" << A.Len << "] = {";
    for (int E = 0; E < A.Len; ++E)
      OS << (E ? ", " : "") << "(" << A.CType << ")" << Lane[A.First + E];
    OS << "};\n";
  }
  // Each struct, zeroed (its padding and members batchdiff does not
  // know), its members the lane's values.
  for (size_t K = 0; K < X.Structs.size(); ++K) {
    const ir::ExternCall::Struct &St = X.Structs[K];
    OS << In << "    " << St.CType << " __bd_s" << K;
    if (St.Len) // (a local array passed whole)
      OS << "[" << St.Len << "]";
    OS << ";\n"
       << In << "    __builtin_memset(&__bd_s" << K << ", 0, sizeof __bd_s" << K
       << ");\n";
    for (const auto &[Path, O] : St.Members)
      OS << In << "    __bd_s" << K << Path << " = __bd_o" << O << ";\n";
  }
  // A global the function writes: the lane's value in it for the call,
  // what the call left read back, and its value from before put back
  // (only where the example has written it, with a Cond).
  auto If = [&](const ir::ExternCall::Out &O) {
    return O.Cond < 0 ? std::string() : "if (" + Lane[O.Cond] + ") ";
  };
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    if (O.Before)
      OS << In << "    " << O.CType << " __bd_gs" << K << " = " << O.After
         << ";\n"
         << In << "    " << If(O) << O.After << " = __bd_o" << K << ";\n";
  }
  OS << In << "    " << Made << ";\n";
  for (int Seed : Seeds)
    OS << gradCall(F, S, X, Lane, Reads, Seed, Outs, In + "    ");
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    if (O.Before)
      OS << In << "    " << If(O) << "{\n"
         << In << "      __bd_o" << K << " = " << O.After << ";\n"
         << In << "      " << O.After << " = __bd_gs" << K << ";\n"
         << In << "    }\n";
    else if (!O.After.empty())
      OS << In << "    __bd_o" << K << " = " << O.After << ";\n";
  }
  for (size_t K = 0; K < X.Structs.size(); ++K)
    for (const auto &[Path, O] : X.Structs[K].Members)
      OS << In << "    __bd_o" << O << " = __bd_s" << K << Path << ";\n";
  for (size_t K = 0; K < X.Outs.size(); ++K)
    if (X.Outs[K].GradOf == -2)
      OS << In << "    " << Outs << K << "[__bd_l] = __bd_o" << K << ";\n";
  OS << In << "  }\n";
  OS << Pad << "}\n";
  return OS.str();
}

} // namespace batchdiff
