//===- BatchedCall.cpp - calls of other files' batch functions ------------===//
#include "emit/BatchedCall.h"
#include "emit/CText.h"

#include <sstream>

namespace batchdiff {

using namespace ctext;

namespace {

/// Whether C type \p CType is the lanes' type \p T (arrays of it and
/// vectors of T hold the same bytes).
bool sameBits(ir::Type T, const std::string &CType) {
  return (T == ir::Type::F64 && CType == "double") ||
         (T == ir::Type::F32 && CType == "float");
}

/// The prototype of the callee's NAME_batched (\p Grad false) or NAME_grad.
std::string prototype(const ir::ExternCall &X, bool Grad) {
  const ir::ExternCall::Callee &C = *X.Batched;
  std::string P =
      "extern void " + X.Name + (Grad ? "_grad" : "_batched") + "(size_t";
  for (const ir::ExternCall::CalleeParam &Pa : C.Params)
    P += Pa.Array
             ? ", const " + Pa.CType + " *" + (Pa.Uniform ? "" : ", ptrdiff_t")
         : Pa.Uniform ? ", " + Pa.CType
                      : ", const " + Pa.CType + " *";
  P += ", " + X.Ty + " *";
  if (Grad) {
    P += ", const " + X.Ty + " *";
    for (const ir::ExternCall::CalleeParam &Pa : C.Params)
      if (Pa.Shadow || Pa.ArrayShadow)
        P += ", " + Pa.CType + " *" +
             (Pa.ArrayShadow && !Pa.Uniform ? ", ptrdiff_t" : "");
  }
  return P + ")";
}

/// How a batched call is made (batchedCall).
struct Plan {
  /// The partials (Outs) read; the arrays one pointer for all lanes.
  std::vector<bool> Read, Fixed;
  /// Through NAME_grad; a call per lane; whole where the lanes' arrays of
  /// the caller's are equally spaced.
  bool Grad = false, Uniform = false, Dyn = false;
};

Plan plan(const ir::Function &F, const ir::Stmt &S,
          const std::map<int, std::vector<bool>> &Partials) {
  const ir::ExternCall &X = F.Externs[S.IVal];
  const ir::ExternCall::Callee &C = *X.Batched;
  Plan P;
  P.Read.assign(X.Outs.size(), false);
  if (auto It = Partials.find(S.Dst); It != Partials.end())
    for (size_t K = 0; K < It->second.size() && K < P.Read.size(); ++K)
      P.Read[K] = It->second[K];
  for (size_t K = 0; K < X.Outs.size(); ++K)
    P.Grad = P.Grad || (P.Read[K] && X.Outs[K].Partial >= 0);
  // A BD_UNIFORM parameter takes one value per call, and its shadow sums
  // over the call's lanes: the lanes call together only where its argument
  // is one value for all of them and its partial is not read. An array
  // one pointer for all lanes (Fixed) is passed as it is; an array per
  // lane, to a BD_UNIFORM parameter or at a per-lane offset from a table,
  // makes a call per lane, and one per example of the caller's (Dyn) a
  // call for the whole vector where the lanes' arrays are equally spaced.
  P.Fixed.assign(C.Params.size(), false);
  for (size_t I = 0, K = 0; I < C.Params.size(); ++I) {
    const ir::ExternCall::CalleeParam &Pa = C.Params[I];
    bool Partial = K < X.Outs.size() && X.Outs[K].Partial == (int)I;
    bool Varying = F.VaryingTemp[S.Args[I]];
    P.Fixed[I] = Pa.Array && Pa.Caller < 0 && !Varying;
    P.Uniform |= Pa.Uniform && !Pa.Array && (Varying || (Partial && P.Read[K]));
    P.Uniform |= Pa.Array && !P.Fixed[I] && (Pa.Uniform || Pa.Caller < 0);
    P.Dyn |= Pa.Array && Pa.Caller >= 0 && !Pa.Uniform;
    K += Partial;
  }
  P.Dyn &= !P.Uniform;
  P.Grad |= !C.HasBatched; // (NAME_grad with no shadows: the value only)
  return P;
}

/// The call of the packed lanes (\p One false), or of lane __bd_ci.
std::string callText(const ir::ExternCall &X, const Plan &P, bool One) {
  const ir::ExternCall::Callee &C = *X.Batched;
  const std::vector<bool> &Read = P.Read, &Fixed = P.Fixed;
  bool Grad = P.Grad;
  std::string At = One ? "[__bd_ci]" : "";
  std::string Ref = One ? "&" : "";
  std::string T = X.Name + (Grad ? "_grad(" : "_batched(") +
                  (One ? "1" : "(size_t)__bd_cn");
  for (size_t I = 0; I < C.Params.size(); ++I) {
    const ir::ExternCall::CalleeParam &Pa = C.Params[I];
    std::string A = "__bd_ca" + std::to_string(I);
    if (Pa.Array)
      T += ", " +
           (Fixed[I] ? A
            : One    ? A + At
                     : A + "[0], __bd_cs" + std::to_string(I)) +
           (Pa.Uniform || (!Fixed[I] && !One) ? "" : ", 0");
    else
      T += !Pa.Uniform ? ", " + Ref + A + At
           : One       ? ", " + A + At
                       : ", __bd_x" + std::to_string(I);
  }
  T += ", " + Ref + "__bd_cr" + At;
  if (Grad) {
    T += ", 0";
    size_t K = 0;
    for (size_t I = 0; I < C.Params.size(); ++I) {
      // (No derivative flows to an array: NULL.)
      if (C.Params[I].ArrayShadow)
        T += C.Params[I].Uniform ? ", 0" : ", 0, 0";
      if (!C.Params[I].Shadow)
        continue;
      // The Outs are the shadowed parameters', in order, when partials
      // are made at all (LowerBatchedCall.cpp).
      bool Has = K < X.Outs.size() && X.Outs[K].Partial == (int)I && Read[K];
      T += Has ? ", " + Ref + "__bd_cd" + std::to_string(K) + At : ", 0";
      K += K < X.Outs.size() && X.Outs[K].Partial == (int)I;
    }
  }
  return T + ")";
}

/// A result (or partial) copied back into its lanes: whole vectors where
/// every lane called and the C type is the lanes'.
struct Copy {
  std::string To, From, Cast;
  bool Whole;
};

void copyBack(std::ostringstream &OS, const std::string &In,
              const std::string &W, const std::vector<Copy> &Back) {
  OS << In << "if (__bd_cf) {\n";
  for (const Copy &B : Back)
    if (B.Whole)
      OS << In << "  __builtin_memcpy(&" << B.To << ", " << B.From
         << ", sizeof " << B.From << ");\n";
    else
      OS << In << "  for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n"
         << In << "    " << B.To << "[__bd_l] = " << B.Cast << B.From
         << "[__bd_l];\n";
  OS << In << "} else\n";
  OS << In << "  for (int __bd_ci = 0; __bd_ci < __bd_cn; __bd_ci++) {\n";
  for (const Copy &B : Back)
    OS << In << "    " << B.To << "[__bd_cl[__bd_ci]] = " << B.Cast << B.From
       << "[__bd_ci];\n";
}

/// Globals read back after the call (Outs with After: lower/GlobalCalls.cpp):
/// the weak reference to the symbol saying the callee's generated functions
/// leave such globals alone (promiseDecl), each Out's lanes set to the
/// argument's (what they are where the call leaves the global alone), and
/// the arguments' lanes for syncedCalls.
std::string syncPrologue(const ir::Function &F, const ir::Stmt &S,
                         const std::function<std::string(int)> &Operand,
                         const Shape &Sh, const std::string &Outs,
                         const std::string &In) {
  const ir::ExternCall &X = F.Externs[S.IVal];
  std::ostringstream OS;
  if (!X.Batched->SameFile)
    OS << promiseDecl(X, In);
  std::string W = "(int)" + Sh.W();
  for (size_t I = X.Batched->Params.size(); I < S.Args.size(); ++I) {
    int A = S.Args[I];
    std::string V = "__bd_gx" + std::to_string(I);
    bool Vary = F.VaryingTemp[A];
    OS << In << (Vary ? Sh.vtype(F.Temps[A]) : scalarType(F.Temps[A])) << " "
       << V << " __attribute__((unused)) = " << Operand(A) << ";\n";
  }
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    if (O.After.empty())
      continue;
    std::string V = "__bd_gx" + std::to_string(O.Arg);
    OS << In << "for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n"
       << In << "  " << Outs << K
       << "[__bd_l] = " << (F.VaryingTemp[S.Args[O.Arg]] ? V + "[__bd_l]" : V)
       << ";\n";
  }
  return OS.str();
}

/// Where the callee's file does not say so: each lane that is on calls
/// alone (\p One, of lane __bd_ci), in order, with the example's value in
/// each global the function writes (Out::Before, where the example has
/// written it: Cond), and reads back what the call left, as a call made
/// once per example (emit/ExternCall.cpp).
std::string syncedCalls(const ir::Function &F, const ir::Stmt &S,
                        const std::string &One, const std::string &Outs,
                        const std::string &In) {
  const ir::ExternCall &X = F.Externs[S.IVal];
  std::ostringstream OS;
  std::string I2 = In + "  ";
  OS << In << "  for (int __bd_ci = 0; __bd_ci < __bd_cn; __bd_ci++) {\n"
     << I2 << "  int __bd_l = __bd_cf ? __bd_ci : __bd_cl[__bd_ci];\n";
  auto If = [&](const ir::ExternCall::Out &O) {
    if (O.Cond < 0)
      return std::string();
    std::string V = "__bd_gx" + std::to_string(O.Cond);
    return "if (" + (F.VaryingTemp[S.Args[O.Cond]] ? V + "[__bd_l]" : V) + ") ";
  };
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    if (O.Before)
      OS << I2 << "  " << O.CType << " __bd_gs" << K << " = " << O.After
         << ";\n"
         << I2 << "  " << If(O) << O.After << " = (" << O.CType << ")" << Outs
         << K << "[__bd_l];\n";
  }
  OS << I2 << "  " << One << ";\n";
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    if (O.Before)
      OS << I2 << "  " << If(O) << "{\n"
         << I2 << "    " << Outs << K << "[__bd_l] = " << O.After << ";\n"
         << I2 << "    " << O.After << " = __bd_gs" << K << ";\n"
         << I2 << "  }\n";
    else if (!O.After.empty())
      OS << I2 << "  " << Outs << K << "[__bd_l] = " << O.After << ";\n";
  }
  OS << I2 << "}\n";
  return OS.str();
}

} // namespace

std::string abiSymbol(const std::string &Name, bool Grad) {
  return "__bd_abi_" + Name + (Grad ? "_grad" : "_batched");
}

/// A reference to the symbol the callee's file defines for the ABI this
/// file's declaration gives: a header that does not match is a link error.
static std::string abiRef(const ir::ExternCall &X, bool Grad,
                          const std::string &In) {
  const ir::ExternCall::Callee &C = *X.Batched;
  std::string Abi = abiSymbol(X.Name, Grad);
  return In + "extern const char " + Abi +
         "[] __asm__(\"batchdiff.abi:" + (Grad ? C.AbiGrad : C.AbiBatched) +
         "\");\n" + In + "static const void *const " + Abi +
         "_ref __attribute__((used)) = " + Abi + ";\n";
}

std::string noGlobalSymbol(const std::string &Name, bool Uses) {
  return (Uses ? "__bd_ung_" : "__bd_sng_") + Name;
}

std::string inPlaceIdent(const std::string &Key) {
  std::string S = "__bd_ip_";
  for (char C : Key)
    S += C == ':' ? '_' : C;
  return S;
}

std::string inPlaceDecl(const std::string &Key, size_t Len) {
  bool Weak = !Len;
  return std::string(Weak ? "extern " : "") + "const void *const " +
         inPlaceIdent(Key) + "[" + (Weak ? "" : std::to_string(Len)) + "]" +
         " __asm__(\"batchdiff.inplace:" + Key + "\")" +
         (Weak ? " __attribute__((weak))" : "");
}

std::string setsSymbol(const std::string &Name, const std::string &Global) {
  // (The length keeps f_a's b apart from f's a_b.)
  return "__bd_sg" + std::to_string(Name.size()) + "_" + Name + "_" + Global;
}

/// References to the symbols saying that the callee's generated functions
/// write no global another file can name (NoSets), or neither read nor
/// write one (NoUses), where the caller needs it (lower/GlobalCalls.cpp).
static std::string noGlobalRef(const ir::ExternCall &X, const std::string &In) {
  const ir::ExternCall::Callee &C = *X.Batched;
  std::string R;
  // (Globals read back where the caller never wrote them: the callee sets
  // each on every path.)
  for (const std::string &G : C.Sets) {
    std::string S = setsSymbol(X.Name, G);
    R += In + "extern const char " + S +
         "[] __asm__(\"batchdiff.sets:" + X.Name + ":" + G + "\");\n" + In +
         "static const void *const " + S + "_ref __attribute__((used)) = " + S +
         ";\n";
  }
  if (!C.NoSets && !C.NoUses)
    return R;
  std::string S = noGlobalSymbol(X.Name, C.NoUses);
  return R + In + "extern const char " + S + "[] __asm__(\"batchdiff." +
         (C.NoUses ? "uses" : "sets") + "-no-global:" + X.Name + "\");\n" + In +
         "static const void *const " + S + "_ref __attribute__((used)) = " + S +
         ";\n";
}

bool syncsGlobals(const ir::ExternCall &X) {
  for (const ir::ExternCall::Out &O : X.Outs)
    if (!O.After.empty())
      return true;
  return false;
}

std::string promiseName(const ir::ExternCall &X) {
  bool Uses = false;
  for (const ir::ExternCall::Out &O : X.Outs)
    Uses |= O.Before;
  return noGlobalSymbol(X.Name, Uses) + "_w";
}

std::string promiseDecl(const ir::ExternCall &X, const std::string &In) {
  std::string C = promiseName(X);
  return In + "extern const char " + C + "[] __asm__(\"batchdiff." +
         (C.compare(0, 8, "__bd_ung") == 0 ? "uses" : "sets") +
         "-no-global:" + X.Name + "\") __attribute__((weak));\n";
}

std::map<int, std::vector<bool>> readPartials(const ir::Function &F) {
  std::map<int, std::vector<bool>> Calls;
  ir::walk(F.Body, [&](const ir::Stmt &St, int) {
    if (St.K == ir::Stmt::Inst && St.Opc == ir::Op::ExternOut && St.IVal >= 0) {
      std::vector<bool> &Read = Calls[St.Args[0]];
      if (Read.size() <= (size_t)St.IVal)
        Read.resize(St.IVal + 1, false);
      Read[St.IVal] = true;
    }
  });
  return Calls;
}

/// The lanes that are on calling together (one at a time where the
/// arguments are uniform, or an array per example not equally spaced).
static std::string together(bool Uniform, bool Dyn,
                            const std::function<std::string(bool)> &Call,
                            const std::string &CI) {
  std::ostringstream OS;
  if (Uniform)
    OS << CI << "for (int __bd_ci = 0; __bd_ci < __bd_cn; __bd_ci++)\n"
       << CI << "  " << Call(true) << ";\n";
  else if (Dyn)
    OS << CI << "if (__bd_cf)\n"
       << CI << "  " << Call(false) << ";\n"
       << CI << "else\n"
       << CI << "  for (int __bd_ci = 0; __bd_ci < __bd_cn; __bd_ci++)\n"
       << CI << "    " << Call(true) << ";\n";
  else
    OS << CI << "if (__bd_cn)\n" << CI << "  " << Call(false) << ";\n";
  return OS.str();
}

std::string batchedCall(const ir::Function &F, const ir::Stmt &S, bool Wide,
                        const std::function<std::string(int)> &Operand,
                        const std::string &Result, bool Declared,
                        const std::string &Pad, const std::string &Outs,
                        const std::string &Chain,
                        const std::map<int, std::vector<bool>> &Partials) {
  Shape Sh{Wide};
  const ir::ExternCall &X = F.Externs[S.IVal];
  const ir::ExternCall::Callee &C = *X.Batched;
  ir::Type Ty = F.Temps[S.Dst];
  Plan P = plan(F, S, Partials);
  const std::vector<bool> &Read = P.Read, &Fixed = P.Fixed;
  bool Grad = P.Grad, Uniform = P.Uniform, Dyn = P.Dyn;
  std::ostringstream OS;
  // Lanes that are off keep 0 in the result and the partials.
  OS << Pad << (Declared ? "" : Sh.vtype(Ty) + " ") << Result
     << (Declared ? "" : " __attribute__((unused))") << " = " << Sh.zero(Ty)
     << ";\n";
  std::vector<ir::Type> OutTy;
  for (size_t K = 0; K < X.Outs.size(); ++K) {
    const ir::ExternCall::Out &O = X.Outs[K];
    OutTy.push_back(F.Temps[S.Args[O.Partial >= 0 ? O.Partial : O.Arg]]);
    OS << Pad << Sh.vtype(OutTy[K]) << " " << Outs << K
       << " __attribute__((unused)) = " << Sh.zero(OutTy[K]) << ";\n";
  }
  OS << Pad << "{\n";
  std::string In = Pad + "  ";
  OS << In << prototype(X, Grad) << ";\n";
  if (!C.SameFile)
    OS << abiRef(X, Grad, In) << noGlobalRef(X, In);
  // A static local table the call reads: a copy here (the generated code
  // cannot name the function's static).
  for (size_t K = 0; K < X.Tables.size(); ++K) {
    const ir::ExternCall::Table &T = X.Tables[K];
    OS << In << "static const " << T.CType << " __bd_tb" << K << "[" << T.Len
       << "] = " << T.Init << ";\n";
  }
  OS << In << Sh.mask() << " __bd_xm = " << Operand(S.Mask) << ";\n";
  std::string W = "(int)" + Sh.W();
  // Each argument's lanes (a vector copied to a local, so that lanes can
  // be indexed) packed into an array of the parameter's C type; an array's
  // pointers, each lane's offset from its base (__bd_co) added to it.
  std::vector<std::string> Lane;
  size_t NP = C.Params.size(); // (S.Args past them: globals, below)
  for (size_t I = 0; I < NP; ++I) {
    int A = S.Args[I];
    const ir::ExternCall::CalleeParam &Pa = C.Params[I];
    std::string N = std::to_string(I), V = "__bd_x" + N;
    if (Fixed[I]) {
      OS << In << "const " << Pa.CType << " *__bd_ca" << N << " = " << Pa.Ptr
         << (Pa.Offset ? " + (ptrdiff_t)" + Operand(A) : "") << ";\n";
      Lane.push_back("");
      continue;
    }
    if (Pa.Array && !Pa.Offset) {
      Lane.push_back("");
    } else if (!F.VaryingTemp[A]) {
      OS << In << scalarType(F.Temps[A]) << " " << V << " = " << Operand(A)
         << ";\n";
      Lane.push_back(V);
    } else {
      OS << In << Sh.vtype(F.Temps[A]) << " " << V << " = " << Operand(A)
         << ";\n";
      Lane.push_back(F.Temps[A] == ir::Type::Bool ? "(" + V + "[__bd_l] != 0)"
                                                  : V + "[__bd_l]");
    }
    if (!Pa.Array)
      continue;
    OS << In << "ptrdiff_t __bd_co" << N << "[" << W << "];\n";
    OS << In << "for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n"
       << In << "  __bd_co" << N << "[__bd_l] = ";
    // (Not Fixed: one of the two is there.)
    if (Pa.Caller >= 0)
      OS << "(ptrdiff_t)__bd_po" << Pa.Caller << Chain << "[__bd_l]"
         << (Pa.Offset ? " + " : "");
    OS << (Pa.Offset ? "(ptrdiff_t)" + Lane[I] : "") << ";\n";
    Lane[I] = "(" + Pa.Ptr + " + __bd_co" + N + "[__bd_l])";
  }
  for (size_t I = 0; I < NP; ++I)
    if (!Fixed[I])
      OS << In << (C.Params[I].Array ? "const " : "") << C.Params[I].CType
         << (C.Params[I].Array ? " *" : " ") << "__bd_ca" << I << "[" << W
         << "];\n";
  OS << In << X.Ty << " __bd_cr[" << W << "];\n";
  for (size_t K = 0; K < X.Outs.size(); ++K)
    if (Read[K] && X.Outs[K].Partial >= 0)
      OS << In << X.Outs[K].CType << " __bd_cd" << K << "[" << W
         << "] = {0};\n";
  // Every lane on (the common case): the vectors are the arrays, copied
  // whole; else the lanes that are on are packed. With an array per
  // example, whole only where their offsets are equally spaced (__bd_cs:
  // the stride the call gets).
  OS << In << "int __bd_cl[" << W << "], __bd_cn = 0, __bd_cf = bd_all_m"
     << Sh.S() << "(__bd_xm);\n";
  for (size_t I = 0; Dyn && I < NP; ++I) {
    if (!C.Params[I].Array || Fixed[I])
      continue;
    std::string Co = "__bd_co" + std::to_string(I);
    OS << In << "ptrdiff_t __bd_cs" << I << " = " << Co << "[" << W
       << " > 1 ? 1 : 0] - " << Co << "[0];\n";
    OS << In << "for (int __bd_l = 1; __bd_l < " << W << "; __bd_l++)\n"
       << In << "  __bd_cf = __bd_cf && " << Co << "[__bd_l] - " << Co
       << "[__bd_l - 1] == __bd_cs" << I << ";\n";
  }
  OS << In << "if (__bd_cf) {\n";
  for (size_t I = 0; I < NP; ++I) {
    if (Fixed[I])
      continue;
    std::string A = "__bd_ca" + std::to_string(I);
    if (F.VaryingTemp[S.Args[I]] && !C.Params[I].Array &&
        sameBits(F.Temps[S.Args[I]], C.Params[I].CType))
      OS << In << "  __builtin_memcpy(" << A << ", &__bd_x" << I << ", sizeof "
         << A << ");\n";
    else
      OS << In << "  for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n"
         << In << "    " << A << "[__bd_l] = " << Lane[I] << ";\n";
  }
  OS << In << "  __bd_cn = " << W << ";\n" << In << "} else\n";
  OS << In << "  for (int __bd_l = 0; __bd_l < " << W << "; __bd_l++)\n";
  OS << In << "    if (__bd_xm[__bd_l]) {\n";
  for (size_t I = 0; I < NP; ++I)
    if (!Fixed[I])
      OS << In << "      __bd_ca" << I << "[__bd_cn] = " << Lane[I] << ";\n";
  OS << In << "      __bd_cl[__bd_cn++] = __bd_l;\n" << In << "    }\n";
  auto Call = [&](bool One) { return callText(X, P, One); };
  bool Sync = syncsGlobals(X);
  if (Sync)
    OS << syncPrologue(F, S, Operand, Sh, Outs, In);
  // A recursive call in a function that writes globals: always one lane
  // at a time (its own file's globals, which its run uses).
  if (Sync && C.SameFile) {
    OS << syncedCalls(F, S, Call(true), Outs, In);
  } else {
    if (Sync)
      OS << In << "if (" << promiseName(X) << ") {\n";
    OS << together(Uniform, Dyn, Call, Sync ? In + "  " : In);
    if (Sync)
      OS << In << "} else\n" << syncedCalls(F, S, Call(true), Outs, In);
  }
  // The results back into their lanes.
  std::vector<Copy> Back{{Result, "__bd_cr",
                          "(" + std::string(scalarType(Ty)) + ")",
                          sameBits(Ty, X.Ty)}};
  for (size_t K = 0; K < X.Outs.size(); ++K)
    if (Read[K] && X.Outs[K].Partial >= 0)
      Back.push_back({Outs + std::to_string(K), "__bd_cd" + std::to_string(K),
                      "", sameBits(OutTy[K], X.Outs[K].CType)});
  copyBack(OS, In, W, Back);
  OS << In << "  }\n" << Pad << "}\n";
  return OS.str();
}

} // namespace batchdiff
