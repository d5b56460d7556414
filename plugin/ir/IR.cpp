//===- IR.cpp - IR helpers, builder and printer ---------------------------===//
#include "ir/IR.h"

#include <cassert>
#include <cstdio>
#include <sstream>

namespace batchdiff {
namespace ir {

bool isFloat(Type T) { return T == Type::F32 || T == Type::F64; }
bool isInt(Type T) {
  return T == Type::I32 || T == Type::U32 || T == Type::I64 || T == Type::U64;
}
bool isSigned(Type T) { return T == Type::I32 || T == Type::I64; }
unsigned bitWidth(Type T) {
  switch (T) {
  case Type::Void:
    return 0;
  case Type::Bool:
    return 1;
  case Type::I32:
  case Type::U32:
  case Type::F32:
    return 32;
  case Type::I64:
  case Type::U64:
  case Type::F64:
    return 64;
  }
  return 0;
}

const char *typeName(Type T) {
  static const char *Names[] = {"void", "bool", "i32", "u32",
                                "i64",  "u64",  "f32", "f64"};
  return Names[(int)T];
}

const char *opName(Op O) {
  static const char *Names[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  PrintName,
#include "ir/Ops.def"
  };
  return Names[(int)O];
}

int opNumArgs(Op O) {
  static const int N[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  NumArgs,
#include "ir/Ops.def"
  };
  return N[(int)O];
}

bool opPure(Op O) {
  static const bool P[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  Pure,
#include "ir/Ops.def"
  };
  return P[(int)O];
}

OpEffect opEffect(Op O) {
  static const OpEffect E[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  OpEffect::Effect,
#include "ir/Ops.def"
  };
  return E[(int)O];
}

OpBlend opBlend(Op O) {
  static const OpBlend B[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  OpBlend::Blend,
#include "ir/Ops.def"
  };
  return B[(int)O];
}

bool opInline(Op O) {
  static const bool P[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  Inline,
#include "ir/Ops.def"
  };
  return P[(int)O];
}

const char *opVecName(Op O) {
  static const char *Names[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  VecName,
#include "ir/Ops.def"
  };
  return Names[(int)O];
}

static const char *const COperators[] = {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  COp,
#include "ir/Ops.def"
};

const char *opCOperator(Op O) { return COperators[(int)O]; }

bool opFromCOperator(const std::string &Spelling, int NumArgs, Op &Out) {
  for (int I = 0; I < (int)(sizeof COperators / sizeof *COperators); ++I)
    if (opNumArgs((Op)I) == NumArgs && Spelling == COperators[I]) {
      Out = (Op)I;
      return true;
    }
  return false;
}

/// The math functions whose vector forms are long (polynomials, range
/// reduction); the others are one or a few instructions.
bool mathCostly(MathFn Fn) {
  switch (Fn) {
  case MathFn::Cbrt:
  case MathFn::Exp:
  case MathFn::Exp2:
  case MathFn::Exp10:
  case MathFn::Expm1:
  case MathFn::Log:
  case MathFn::Log2:
  case MathFn::Log10:
  case MathFn::Log1p:
  case MathFn::Pow:
  case MathFn::Sin:
  case MathFn::Cos:
  case MathFn::Tan:
  case MathFn::Asin:
  case MathFn::Acos:
  case MathFn::Atan:
  case MathFn::Atan2:
  case MathFn::Sinh:
  case MathFn::Cosh:
  case MathFn::Tanh:
  case MathFn::Asinh:
  case MathFn::Acosh:
  case MathFn::Atanh:
  case MathFn::Erf:
  case MathFn::Erfc:
  case MathFn::Hypot:
  case MathFn::Lgamma:
  case MathFn::Tgamma:
  case MathFn::J0:
  case MathFn::J1:
  case MathFn::Y0:
  case MathFn::Y1:
  case MathFn::Jn:
  case MathFn::Yn:
  case MathFn::Digamma:
  case MathFn::Trigamma:
  case MathFn::Log1pexp:
    return true;
  default:
    return false;
  }
}

bool mathDeferrable(MathFn Fn) {
  return Fn == MathFn::Exp || Fn == MathFn::Log || Fn == MathFn::Log1p ||
         Fn == MathFn::Erfc;
}

const char *mathName(MathFn F) {
  static const char *Names[] = {
#define BD_MATH(Name, NumArgs, CName, ...) CName,
#include "ir/Math.def"
  };
  return Names[(int)F];
}

int mathNumArgs(MathFn F) {
  static const int N[] = {
#define BD_MATH(Name, NumArgs, CName, ...) NumArgs,
#include "ir/Math.def"
  };
  return N[(int)F];
}

static MathSig mathSig(MathFn F) {
  static const MathSig S[] = {
#define BD_MATH(Name, NumArgs, CName, Sig, ...) MathSig::Sig,
#include "ir/Math.def"
  };
  return S[(int)F];
}

Type mathArgType(MathFn F, unsigned I, Type FloatTy) {
  MathSig S = mathSig(F);
  return (S == MathSig::F_FI && I == 1) || (S == MathSig::F_IF && I == 0)
             ? Type::I32
             : FloatTy;
}

unsigned mathFloatArg(MathFn F) { return mathSig(F) == MathSig::F_IF; }

Type mathResultType(MathFn F, Type FloatTy) {
  switch (mathSig(F)) {
  case MathSig::I_F:
    return Type::I32;
  case MathSig::L_F:
    return Type::I64;
  default:
    return FloatTy;
  }
}

MathDeriv mathDeriv(MathFn F) {
  static const MathDeriv D[] = {
#define BD_MATH(Name, NumArgs, CName, Sig, Deriv, ...) MathDeriv::Deriv,
#include "ir/Math.def"
  };
  return D[(int)F];
}

Stmt &Builder::push(Op O, int Dst, std::vector<int> Args) {
  auto S = std::make_unique<Stmt>();
  S->K = Stmt::Inst;
  S->Opc = O;
  S->Dst = Dst;
  S->Args = std::move(Args);
  Cur->push_back(std::move(S));
  return *Cur->back();
}

int Builder::constF(Type T, double V) {
  int D = F.newTemp(T);
  push(Op::ConstF, D, {}).FVal = V;
  return D;
}
int Builder::constI(Type T, int64_t V) {
  int D = F.newTemp(T);
  push(Op::ConstI, D, {}).IVal = V;
  return D;
}
int Builder::constB(bool V) {
  int D = F.newTemp(Type::Bool);
  push(Op::ConstB, D, {}).IVal = V;
  return D;
}
int Builder::param(int Index) {
  int D = F.newTemp(F.Params[Index].Ty);
  push(Op::Param, D, {}).IVal = Index;
  return D;
}
int Builder::get(int V) {
  int D = F.newTemp(F.Vars[V].Ty);
  push(Op::GetVar, D, {}).Var = V;
  return D;
}
void Builder::set(int V, int Value) {
  assert(F.Temps[Value] == F.Vars[V].Ty && "set of mismatched type");
  push(Op::SetVar, -1, {Value}).Var = V;
}
int Builder::un(Op O, int A) {
  Type T = O == Op::Not ? Type::Bool : F.Temps[A];
  int D = F.newTemp(T);
  push(O, D, {A});
  return D;
}
int Builder::cast(Type To, int A) {
  if (F.Temps[A] == To)
    return A;
  int D = F.newTemp(To);
  push(Op::Cast, D, {A});
  return D;
}
int Builder::bitcast(Type To, int A) {
  if (F.Temps[A] == To)
    return A;
  int D = F.newTemp(To);
  push(Op::Bitcast, D, {A});
  return D;
}
int Builder::bin(Op O, int A, int B) {
  Type T = F.Temps[A];
  if (O == Op::And || O == Op::Or)
    T = Type::Bool;
  int D = F.newTemp(T);
  push(O, D, {A, B});
  return D;
}
int Builder::cmp(Op O, int A, int B) {
  int D = F.newTemp(Type::Bool);
  push(O, D, {A, B});
  return D;
}
int Builder::fmuladd(int A, int B, int C) {
  int D = F.newTemp(F.Temps[C]);
  push(Op::FMulAdd, D, {A, B, C});
  return D;
}
int Builder::select(int C, int A, int B) {
  int D = F.newTemp(F.Temps[A]);
  push(Op::Select, D, {C, A, B});
  return D;
}
int Builder::math(MathFn Fn, std::vector<int> Args) {
  int D = F.newTemp(mathResultType(Fn, F.Temps[Args[mathFloatArg(Fn)]]));
  push(Op::Math, D, std::move(Args)).Fn = Fn;
  return D;
}
int Builder::loadArg(int P, int Idx) {
  int D = F.newTemp(F.Params[P].Ty);
  push(Op::LoadArg, D, {Idx}).IVal = P;
  return D;
}
void Builder::storeArg(int P, int Idx, int Value) {
  push(Op::StoreArg, -1, {Idx, Value}).IVal = P;
}
int Builder::loadElem(int V, int Idx) {
  int D = F.newTemp(F.Vars[V].Ty);
  push(Op::LoadElem, D, {Idx}).Var = V;
  return D;
}
void Builder::storeElem(int V, int Idx, int Value) {
  assert(F.Temps[Value] == F.Vars[V].Ty && "store of mismatched type");
  push(Op::StoreElem, -1, {Idx, Value}).Var = V;
}
void Builder::zeroArr(int V, int Count) {
  push(Op::ZeroArr, -1,
       Count >= 0 ? std::vector<int>{Count} : std::vector<int>{})
      .Var = V;
}

Stmt &Builder::ifStmt(int Cond) {
  auto S = std::make_unique<Stmt>();
  S->K = Stmt::If;
  S->Cond = Cond;
  Cur->push_back(std::move(S));
  return *Cur->back();
}
Stmt &Builder::loop() {
  auto S = std::make_unique<Stmt>();
  S->K = Stmt::Loop;
  Cur->push_back(std::move(S));
  return *Cur->back();
}

static void pruneBlock(Block &B, const std::vector<bool> &Live) {
  Block Kept;
  for (auto &S : B) {
    if (S->K == Stmt::Inst &&
        (S->Opc == Op::SetVar || S->Opc == Op::StoreElem ||
         S->Opc == Op::ZeroArr) &&
        !Live[S->Var])
      continue;
    pruneBlock(S->Then, Live);
    pruneBlock(S->Else, Live);
    pruneBlock(S->Body, Live);
    if (S->K == Stmt::If && S->Then.empty() && S->Else.empty())
      continue;
    Kept.push_back(std::move(S));
  }
  B = std::move(Kept);
}

static bool pruneUnusedTemps(Block &B, const std::vector<int> &Uses) {
  bool Changed = false;
  Block Kept;
  for (auto &S : B) {
    if (S->K == Stmt::Inst && S->Dst >= 0 && !Uses[S->Dst] &&
        opEffect(S->Opc) == OpEffect::None) {
      Changed = true;
      continue;
    }
    Changed |= pruneUnusedTemps(S->Then, Uses);
    Changed |= pruneUnusedTemps(S->Else, Uses);
    Changed |= pruneUnusedTemps(S->Body, Uses);
    Kept.push_back(std::move(S));
  }
  B = std::move(Kept);
  return Changed;
}

static size_t countStmts(const Function &F) {
  size_t N = 0;
  walk(F.Body, [&](const Stmt &, int) { ++N; });
  return N;
}

static void pruneOnce(Function &F);

// To a fixpoint: pruning a temp can remove the last read of a variable
// ('int k = 0; if (c) k = 1;': k's read was an unused temp), whose stores
// and then the emptied if and its condition go in the next round.
void pruneDeadStores(Function &F) {
  for (size_t N = countStmts(F), Prev = N + 1; N < Prev;
       Prev = N, N = countStmts(F))
    pruneOnce(F);
}

static void pruneOnce(Function &F) {
  std::vector<bool> Live(F.Vars.size(), false);
  for (const Output &O : F.Outputs)
    Live[O.Var] = true;
  walk(F.Body, [&](const Stmt &S, int) {
    if (S.K == Stmt::Inst && (S.Opc == Op::GetVar || S.Opc == Op::LoadElem))
      Live[S.Var] = true;
  });
  pruneBlock(F.Body, Live);
  // Then instructions without side effects whose result nobody reads (e.g.
  // need-flag ORs of guards that ended up empty), to a fixpoint: emitted,
  // they would be unused variables (-Wunused-variable in emit=DIR output).
  for (bool Changed = true; Changed;) {
    std::vector<int> Uses(F.Temps.size(), 0);
    walk(F.Body, [&](const Stmt &S, int) {
      for (int A : S.Args)
        if (A >= 0)
          ++Uses[A];
      if (S.Cond >= 0)
        ++Uses[S.Cond];
      if (S.Aux >= 0)
        ++Uses[S.Aux];
    });
    Changed = pruneUnusedTemps(F.Body, Uses);
  }
}

std::unique_ptr<Stmt> cloneStmt(const Stmt &S) {
  auto C = std::make_unique<Stmt>();
  C->K = S.K;
  C->Opc = S.Opc;
  C->Dst = S.Dst;
  C->Args = S.Args;
  C->FVal = S.FVal;
  C->IVal = S.IVal;
  C->Var = S.Var;
  C->Fn = S.Fn;
  C->Cond = S.Cond;
  C->Id = S.Id;
  C->Rare = S.Rare;
  C->IfChanged = S.IfChanged;
  C->Aux = S.Aux;
  C->Mask = S.Mask;
  C->Site = S.Site;
  C->Shadow = S.Shadow;
  C->Then = cloneBlock(S.Then);
  C->Else = cloneBlock(S.Else);
  C->Body = cloneBlock(S.Body);
  return C;
}

Block cloneBlock(const Block &B) {
  Block R;
  for (const auto &S : B)
    R.push_back(cloneStmt(*S));
  return R;
}

Function cloneFunction(const Function &F) {
  Function C;
  C.Name = F.Name;
  C.Params = F.Params;
  C.Temps = F.Temps;
  C.Vars = F.Vars;
  C.Outputs = F.Outputs;
  C.TapeSlots = F.TapeSlots;
  C.NumLoopIds = F.NumLoopIds;
  C.Externs = F.Externs;
  C.Lanes = F.Lanes;
  C.VaryingTemp = F.VaryingTemp;
  C.VaryingVar = F.VaryingVar;
  C.RetTy = F.RetTy;
  C.RetCType = F.RetCType;
  C.RetNativeLayout = F.RetNativeLayout;
  C.RetDense = F.RetDense;
  C.Body = cloneBlock(F.Body);
  return C;
}

static void printBlock(std::ostringstream &OS, const Function &F,
                       const Block &B, int Ind);

/// A temp's type; in batched IR a varying one is "<W x T>".
static std::string tempType(const Function &F, int T) {
  if (!F.batched() || !F.VaryingTemp[T])
    return typeName(F.Temps[T]);
  return std::string("<W x ") + typeName(F.Temps[T]) + ">";
}

static void printInst(std::ostringstream &OS, const Function &F,
                      const Stmt &S) {
  if (S.Dst >= 0)
    OS << "%" << S.Dst << ":" << tempType(F, S.Dst) << " = ";
  OS << opName(S.Opc);
  switch (S.Opc) {
  case Op::ConstF: {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, " %a", S.FVal);
    OS << Buf;
    break;
  }
  case Op::ConstI:
  case Op::ConstB:
    OS << " " << S.IVal;
    break;
  case Op::Param:
  case Op::LoadArg:
  case Op::StoreArg:
  case Op::ShadowLoad:
  case Op::ShadowStore:
  case Op::ShadowAdd:
    OS << " " << F.Params[S.IVal].Name;
    if (S.Shadow)
      OS << (S.Shadow == 1 ? ".t" : ".h");
    if (S.IfChanged)
      OS << " ifchanged";
    break;
  case Op::GetVar:
  case Op::SetVar:
  case Op::LoadElem:
  case Op::StoreElem:
  case Op::ZeroArr:
    OS << " $" << S.Var << "." << F.Vars[S.Var].Name;
    break;
  case Op::Math:
    OS << "." << mathName(S.Fn);
    if ((S.Fn == MathFn::Fmin || S.Fn == MathFn::Fmax) && S.IVal == 1)
      OS << ".tie2"; // a tie of zeros returns the second operand
    break;
  case Op::LoopIndex:
  case Op::LoopCount:
    OS << " L" << S.IVal;
    break;
  case Op::Extern:
    OS << " "
       << F.Externs[S.IVal].Call.substr(0, F.Externs[S.IVal].Call.find('('));
    break;
  case Op::ExternOut:
    OS << " o" << S.IVal;
    break;
  case Op::TapeReserve:
  case Op::TapeCommit:
  case Op::TapeRewind:
    OS << " T" << S.IVal;
    break;
  case Op::TapeStore:
  case Op::TapeLoad:
    OS << " T" << S.IVal << "[" << S.Var << "]";
    break;
  default:
    break;
  }
  for (size_t I = 0; I < S.Args.size(); ++I)
    OS << (I ? ", " : " ") << "%" << S.Args[I];
  if (S.Mask >= 0)
    OS << " mask %" << S.Mask;
  OS << "\n";
}

static void printBlock(std::ostringstream &OS, const Function &F,
                       const Block &B, int Ind) {
  std::string Pad(Ind * 2, ' ');
  for (const auto &S : B) {
    OS << Pad;
    switch (S->K) {
    case Stmt::Inst:
      printInst(OS, F, *S);
      break;
    case Stmt::If:
      OS << "if %" << S->Cond << " {\n";
      printBlock(OS, F, S->Then, Ind + 1);
      if (!S->Else.empty()) {
        OS << Pad << "} else {\n";
        printBlock(OS, F, S->Else, Ind + 1);
      }
      OS << Pad << "}\n";
      break;
    case Stmt::Loop:
      OS << "loop";
      if (S->Id >= 0)
        OS << " L" << S->Id;
      OS << " {\n";
      printBlock(OS, F, S->Body, Ind + 1);
      OS << Pad << "} while %" << S->Cond << "\n";
      break;
    case Stmt::RevLoop:
      OS << "revloop L" << S->Id << " count %" << S->Args[0];
      if (S->Args.size() > 1)
        OS << " trip %" << S->Args[1];
      OS << " {\n";
      printBlock(OS, F, S->Body, Ind + 1);
      OS << Pad << "}\n";
      break;
    }
  }
}

std::string print(const Function &F) {
  std::ostringstream OS;
  OS << "func " << F.Name << "(";
  for (size_t I = 0; I < F.Params.size(); ++I) {
    const Param &P = F.Params[I];
    OS << (I ? ", " : "") << P.Name << ":" << typeName(P.Ty);
    if (P.Kind == ParamKind::Seed)
      OS << " seed";
    if (P.Kind == ParamKind::Global)
      OS << (P.IsArray ? " global[]" : " global");
    if (P.Kind == ParamKind::Tangent)
      OS << " tangent";
    if (P.Kind == ParamKind::Record)
      OS << " record";
    if (P.Record >= 0)
      OS << " member " << P.Member;
    if (P.Uniform)
      OS << " uniform";
    if (P.NoDiff)
      OS << " nodiff";
  }
  OS << ") -> " << typeName(F.RetTy) << " {\n";
  if (F.batched()) {
    OS << "  ; batched: W lanes of " << F.Lanes.LaneBits << " bits, vectors of "
       << (F.Lanes.VectorBits ? std::to_string(F.Lanes.VectorBits) + " bits"
                              : std::string("the target's width"))
       << ", interleave " << F.Lanes.Interleave << "\n  ; varying vars:";
    for (size_t V = 0; V < F.Vars.size(); ++V)
      if (F.VaryingVar[V])
        OS << " $" << V << "." << F.Vars[V].Name;
    OS << "\n";
  }
  printBlock(OS, F, F.Body, 1);
  OS << "}";
  for (const Output &O : F.Outputs) {
    OS << (O.Kind == OutKind::Ret             ? " ret="
           : O.Kind == OutKind::Global        ? " global " + O.Global + "="
           : O.Kind == OutKind::GlobalWritten ? " written " + O.Global + "="
           : O.Kind == OutKind::Tangent       ? std::string(" t_ret=")
           : O.Kind == OutKind::HvAdjoint     ? std::string(" h_")
                                              : std::string(" d_"));
    if (O.Kind == OutKind::ParamAdjoint || O.Kind == OutKind::HvAdjoint)
      OS << F.Params[O.Param].Name << "=";
    OS << "$" << O.Var;
    if (O.Temp >= 0)
      OS << "(%" << O.Temp << ")";
  }
  OS << "\n";
  return OS.str();
}

} // namespace ir
} // namespace batchdiff
