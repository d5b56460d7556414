//===- IR.h - the batchdiff IR ---------------------------------*- C++ -*-===//
//
// A small, typed, structured IR. Values are single-assignment temps; mutable
// C variables are Vars read and written by GetVar/SetVar. Control flow is
// structured: If and Loop only. `return`, `break` and `continue` are lowered
// into flag variables, so every later pass (AD, batching) sees two control
// constructs and no jumps; for the batcher a flag is just another masked var.
//
// Batched IR: the same structures after transforms/batch. Every temp and
// variable is varying (one value per lane, a vector) or uniform (one scalar
// for all lanes), Function::VaryingTemp/VaryingVar; the lane layout is
// Function::Lanes. Control flow is uniform: If and Loop conditions are
// uniform Bools (lane tests Any/All/None of varying masks); a per-lane
// branch has become masks (And/AndNot of the current mask) and writes that
// must keep off lanes' values carry their mask in Stmt::Mask, as do all
// vector memory accesses. Operands of varying ops are varying (Splat
// broadcasts). A temp may be defined in several copies of a block that
// exclude each other (an if's fast path and its masked form).
//
//===----------------------------------------------------------------------===//
#ifndef BATCHDIFF_IR_IR_H
#define BATCHDIFF_IR_IR_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace batchdiff {
namespace ir {

enum class Type : uint8_t { Void, Bool, I32, U32, I64, U64, F32, F64 };

enum class Op : uint8_t {
#define BD_IR_OP(Name, NumArgs, PrintName, Pure, Effect, Blend, VecName, COp,  \
                 Inline)                                                       \
  Name,
#include "ir/Ops.def"
};

/// What an op does besides giving its result (the Effect column of Ops.def,
/// which says what each means and who asks).
enum class OpEffect : uint8_t { None, Var, Mem, Tape, Call };
/// Whether an op may run for lanes that do not take its branch (the Blend
/// column of Ops.def).
enum class OpBlend : uint8_t { Yes, Float, No };

enum class MathFn : uint8_t {
#define BD_MATH(Name, NumArgs, CName, ...) Name,
#include "ir/Math.def"
};

/// What differentiating a math function means (the Deriv column of Math.def).
enum class MathDeriv : uint8_t { Rule, Zero, None };
/// Result and argument types (the Sig column of Math.def): F is the call's
/// float type, I int, L long.
enum class MathSig : uint8_t { F_F, F_FF, F_FFF, F_FI, F_IF, I_F, L_F };

bool isFloat(Type T);
bool isInt(Type T);
bool isSigned(Type T);
unsigned bitWidth(Type T);
const char *typeName(Type T);
const char *opName(Op O);
int opNumArgs(Op O);
/// No effect but its result, which depends only on its operands.
bool opPure(Op O);
OpEffect opEffect(Op O);
OpBlend opBlend(Op O);
/// Printed where it is used, not as a variable (see Ops.def).
bool opInline(Op O);
/// The bd_ vector function's name part (bd_<name>_<suffix>), or "".
const char *opVecName(Op O);
/// The C operator of a unary or binary op ("+", "<", "!"), or "".
const char *opCOperator(Op O);
/// The op whose C operator is \p Spelling with \p NumArgs operands.
bool opFromCOperator(const std::string &Spelling, int NumArgs, Op &Out);
const char *mathName(MathFn F);
/// Whether \p F's vector form is long (polynomials, range reduction:
/// 20-100 instructions); the others are one or a few instructions.
bool mathCostly(MathFn F);
/// Whether the runtime has \p F with its rare lanes' test deferred to the
/// caller (bd_dfr_*, vmath_defer.h: exp, log, log1p, erfc).
bool mathDeferrable(MathFn F);
int mathNumArgs(MathFn F);
MathDeriv mathDeriv(MathFn F);
/// The type of argument \p I, and of the result, of \p F called in float
/// type \p FloatTy (F32 or F64: the type of its float argument).
Type mathArgType(MathFn F, unsigned I, Type FloatTy);
Type mathResultType(MathFn F, Type FloatTy);
/// The argument whose type is \p F's float type, which names its vector
/// form (bd_<name>_<suffix>) and its float form (CName "f"): the first,
/// except after jn's int order.
unsigned mathFloatArg(MathFn F);

struct Stmt;
using Block = std::vector<std::unique_ptr<Stmt>>;

struct Stmt {
  enum Kind : uint8_t { Inst, If, Loop, RevLoop } K = Inst;

  // Inst: Dst = Opc(Args...). Dst is -1 for SetVar.
  Op Opc = Op::ConstI;
  int Dst = -1;
  std::vector<int> Args;
  double FVal = 0;  // ConstF
  int64_t IVal = 0; // ConstI / ConstB / Param index; Div: 1 for a
                    // tangent's quotient (transforms/ad/Forward.cpp), 2
                    // for an adjoint's (Reverse.cpp)
  int Var = -1;     // GetVar / SetVar
  MathFn Fn = MathFn::Sqrt;

  int Aux = -1;  // TapeLoad: the temp whose value was stored
  int Mask = -1; // batched IR: the lanes a write or memory access obeys
  int Site =
      -1; // Math, Bitcast: lowering's number for the call, for diagnostics
  /// Shadow ops: which array of parameter IVal they access: 0 its shadow
  /// (NAME_grad's d_p, NAME_jvp's tangent t_p); in NAME_hvp 0 is d_p, 1
  /// the tangent t_p and 2 the Hessian-vector shadow h_p.
  uint8_t Shadow = 0;

  // If: Cond (a Bool temp) selects Then or Else.
  // Loop: runs Body, then repeats while Cond (a Bool temp computed in Body).
  // RevLoop: runs Body for iterations Args[0]-1 down to 0 of loop Id, each
  //   example only while the iteration is below its own count Args[1]; the
  //   reverse sweep of a Loop.
  // Loop and RevLoop number their iterations as loop Id (-1: nobody asks).
  int Cond = -1;
  int Id = -1;
  /// If: few lanes take Then (a tiny return value's scaled seed): batched,
  /// never branch-free (a lane test skips it) and not in the remarks'
  /// counts of branches.
  bool Rare = false;
  /// StoreArg: writes memory only in the lanes whose value's bits differ
  /// from what the element holds (an array parameter's element written
  /// back after a call made once per example, which a callee that leaves
  /// it alone must not store to: read-only memory, an input shared by
  /// examples); otherwise, and in the derivatives, a store.
  bool IfChanged = false;
  Block Then, Else, Body;
};

/// User: a parameter of the C function. Seed: the return value's cotangent.
/// Need: a uniform flag, true when the gradient of parameter `Of` is wanted
/// (its shadow pointer is not NULL), so work feeding only it can be skipped;
/// in forward mode, true when array parameter `Of` has a tangent array.
/// Global: file-scope data the function reads (Name is its C name), always
/// uniform and never differentiated; not in the ABI: the wrapper reads an
/// extern non-const scalar once per call, the chunk function reads the
/// rest by name (InPlace).
/// Tangent: forward mode's tangent of scalar parameter `Of` (0 when the
/// caller passes none).
/// A Need flag tests, and a Tangent is read from, the arrays of parameter
/// `Of` that Param::Shadows names (bit k: array k, as Stmt::Shadow).
/// Record: a struct parameter of the C function (by value): only its slot
/// in the ABI (the wrapper's `const T *a`, docs/abi.md "Structs"); the
/// body reads its scalar leaf members, which are User parameters appended
/// after the C function's parameters (Param::Record, Param::Member).
enum class ParamKind : uint8_t { User, Seed, Need, Global, Tangent, Record };

/// How a varying array parameter's examples are stored (docs/abi.md):
/// Strided: at p + b * stride; Offsets (BD_PACKED): at p + off[b];
/// Pointers (BD_POINTERS): at p[b].
enum class Layout : uint8_t { Strided, Offsets, Pointers };

struct Param {
  std::string Name;
  Type Ty = Type::F64;
  ParamKind Kind = ParamKind::User;
  bool Uniform = false;
  bool NoDiff = false;
  int Of = -1;
  // Need: true when any of these arrays of `Of` is non-NULL; Tangent: read
  // from this one (bit k: Stmt::Shadow k).
  uint8_t Shadows = 1;
  // What the declared C type was, for the ABI (e.g. "short", "unsigned char").
  std::string CType;
  // The C type has the size of its lane element, so arrays of it load as
  // vectors directly (false for _Bool, char, short).
  bool NativeLayout = true;
  // Pointer or array parameter: elements of type Ty, per example (varying,
  // with a stride) or shared (uniform). Extent: StaticLen > 0, or the
  // integer parameter DimParam, as inference found (for remarks).
  bool IsArray = false;
  bool Writable = false;
  int StaticLen = 0;
  int DimParam = -1;
  std::string DimHow; // how the extent was inferred, for remarks
  /// StaticLen was declared (`T v[N]`, `T v[static N]`, BD_EXTENT(N)): the
  /// caller makes each example's first StaticLen elements valid, so the
  /// batched code may read them all (KernelEmitter's dense arrays).
  bool Declared = false;
  Layout Lay = Layout::Strided;
  // Global: read by name where the examples run (a table, or a scalar that
  // is const or static, whose value LLVM may know), not once per call.
  bool InPlace = false;
  /// Global: the C expression of its first element where that is not Name
  /// (a member of a global struct or table of records: `&GL[0].x`).
  std::string Addr;
  /// Global: a static table that is not const, gathered lane by lane with
  /// plain loads. A gather instruction is a call that takes the table's
  /// address, and LLVM's GlobalOpt then no longer makes a table nothing
  /// writes constant in the unannotated functions that read it.
  bool LaneLoads = false;
  // A global table or const array parameter of 8- or 16-bit integers
  // ("u8", "i16", ...): read element by element into 32-bit lanes; empty
  // for every other array.
  std::string Narrow;
  // Its elements are _Bool (Narrow "u8"): compared with 0 where read.
  bool BoolBytes = false;
  /// A leaf member of struct parameter Record (a ParamKind::Record), at the
  /// C access path Member (".x", ".term.vol") of each example's record.
  int Record = -1;
  std::string Member;
  /// A member of an array of records: elements of Ty per record (the
  /// stride of its indices; its StaticLen counts these).
  int Per = 0;
  /// A ParamKind::Record: its number of members when they are 2..16 scalars
  /// of one type with no padding (Lowerer::denseMembers), else 0.
  int Dense = 0;
};

struct Var {
  std::string Name;
  Type Ty = Type::F64;
  int Len = 0; // > 0: a fixed-size array of Len elements of Ty
  /// A local variable-length array (`double t[n]`): Len is VlaMaxLen, the
  /// bound of its sizes (the batched code takes room as declarations need
  /// it); CountVar, an I32 variable, holds the largest size (clamped to
  /// 0..Len) any of its declarations gave it so far, per example, so that
  /// an adjoint copy is zeroed as far as the array was used.
  int CountVar = -1;
};

/// The capacity of a local variable-length array: the largest size of local
/// arrays (docs/subset.md); sizes above it are clamped to it.
constexpr int VlaMaxLen = 65536;

/// Ret: the return value; ParamAdjoint: a parameter's gradient;
/// Global: a global scalar every example writes before reading it; after
/// the call it holds what the last example (n - 1) left in it, or, with a
/// GlobalWritten output of the same Global (one written on some paths
/// only), what the last example that wrote it left in it; GlobalWritten:
/// whether the example wrote that global (a Bool); Tangent: the return
/// value's tangent (forward mode); HvAdjoint: the tangent of a parameter's
/// gradient (NAME_hvp's H·v), kept like ParamAdjoint.
enum class OutKind : uint8_t {
  Ret,
  ParamAdjoint,
  Global,
  Tangent,
  HvAdjoint,
  GlobalWritten
};

struct Output {
  OutKind Kind = OutKind::Ret;
  int Param = -1; // ParamAdjoint: which parameter
  int Var = -1;   // its final value
  int Temp = -1;  // batched IR: the varying temp holding it at the end
  // Global: its C name and type, and whether that type has its lane's size.
  // Ret and Tangent of a struct return value: CType is the member's type.
  std::string Global{}, CType{};
  /// Ret and Tangent of a struct return value: which member of the
  /// record (".x"); the record type is Function::RetCType.
  std::string Member{};
  bool NativeLayout = true;
};

/// The lane layout of a batched function. Later rewrites (wider vectors,
/// interleaved chains) change these parameters, not the printer.
struct LaneLayout {
  /// Bits per lane: 64 (shape d) when any double or 64-bit integer
  /// appears, else 32 (shape n, twice as many lanes). 0: not batched.
  unsigned LaneBits = 0;
  /// Vector register bits; 0: the widest the compile flags give (the
  /// runtime's BD_WN / BD_WD).
  unsigned VectorBits = 0;
  /// Independent chunks of lanes per kernel call.
  unsigned Interleave = 1;
};

/// A call the batched code makes once per lane (Op::Extern): Call is its C
/// text with "\x01k\x02" where lane values of argument k go (string
/// literals are in the text); Decl a block-scope declaration of the callee
/// where no file-scope one is in sight, else empty; Ty its C result type
/// ("void", "int", "double"); Name the callee's; Why the reason it is not
/// inlined (which says how to get a derivative where one is needed); Via,
/// for a recursive call, the functions of the cycle ("'erfc' and 'erf'"),
/// for LongDouble what the callee does ("computes in long double").
/// Outs: its out-pointer arguments (`&yh`), "\x03k\x02" in Call: the
/// address of a scalar of C type Outs[k].CType holding the lane's value of
/// argument Outs[k].Arg before the call; Op::ExternOut k reads it after;
/// Outs[k].Name the variable, Ptr the pointer passed on (a helper's
/// parameter, a local pointer) that points at it, empty for `&v`, and
/// Notes where helpers' parameters were bound to it (diff-extern-out).
/// Tables: read-only tables passed whole, "\x04k\x02" in Call: a static
/// const copy of Tables[k] (a static local the generated code cannot name)
/// declared where the call is made. Arrays: local arrays passed whole to a
/// pointer to const, "\x06k\x02" in Call: an array of C type
/// Arrays[k].CType holding the lane's values of arguments First .. First +
/// Len - 1, made for the call. LongDouble: a function of the file
/// that computes in long double (no vector form), made per lane on the
/// scalar function; AnyThread: its scalar run writes no variable of static
/// storage and calls nothing but the file's functions and the C library's
/// math, so the calls may run on the runtime's threads.
/// Callee: set for a function of another file marked batch and/or diff
/// (emit/BatchedCall.h): the lanes that are on call its NAME_batched or
/// NAME_grad together; Outs with Partial >= 0 are the partial derivatives
/// of the result in that parameter (NAME_grad's shadows), which an Op::Tie
/// after the call gives the result as its derivative (Tied).
struct ExternCall {
  enum Reason {
    Outside,
    Library,
    StringArg,
    Recursion,
    LongDouble,
    BatchedNoGrad, // a batch function of another file without diff
    BatchedHvp,    // ... with diff, called where NAME_hvp is asked for
    BatchedNoDiff, // ... a BD_NODIFF parameter's argument differentiated
    BatchedArgs,   // ... one whose call cannot go through its generated
                   // functions (Via: its marks and why; Fix: what to do)
    InitOnce       // a block filling static globals once (lower/InitOnce.h),
                   // run as a function of its own, Name
  };
  struct CalleeParam {
    std::string CType; // (of an Array's elements)
    bool Uniform = false, Shadow = false;
    /// A pointer to const (`const double coef[]`): its argument is an
    /// offset in elements from Ptr, the C text of an array the same for
    /// every lane (a table, a BD_UNIFORM parameter's), or from the lane's
    /// example's array of the caller's parameter Caller (Offset: not a
    /// constant 0). ArrayShadow: its
    /// shadow in NAME_grad (passed NULL: no derivative flows to it).
    bool Array = false, ArrayShadow = false, Offset = false;
    std::string Ptr;
    int Caller = -1;
  };
  struct Callee {
    bool HasBatched = false, HasGrad = false;
    std::vector<CalleeParam> Params;
    /// Its abiDeclaration (lower/Lower.h) for NAME_batched and NAME_grad.
    std::string AbiBatched, AbiGrad;
    /// Defined in this file (a recursive call): no ABI symbol to check.
    bool SameFile = false;
    /// The callee's file must say that its generated functions write no
    /// global another file can name (NoSets), or neither read nor write one
    /// (NoUses: the caller has written a _Bool one before the call): strong
    /// references to batchdiff.sets-no-global:NAME,
    /// batchdiff.uses-no-global:NAME, a link error otherwise
    /// (lower/GlobalCalls.cpp; other globals are Outs with After, below).
    bool NoSets = false, NoUses = false;
    /// Globals the caller reads after the call where no path has written
    /// them, from what the call left (Outs with After): the callee's file
    /// must say that its generated functions set each on every path, a
    /// strong reference to batchdiff.sets:NAME:GLOBAL (cephes' lbeta
    /// reading sgngam after lgam).
    std::vector<std::string> Sets;
  };
  struct Out {
    int Arg = -1;
    /// A batched callee's partial derivative in parameter Partial.
    int Partial = -1;
    std::string CType, Name, Ptr;
    /// Not an argument: a global read back after the lane's call (one the
    /// callee may write, cephes' sgngam after lgam). On a Batched call,
    /// read back (and stored before, Before) where the lanes call one at a
    /// time, which they do unless the callee's file defines the symbol
    /// saying its generated functions leave such globals alone
    /// (emit/BatchedCall.h, syncsGlobals); Arg is the example's value.
    std::string After;
    /// With After, a global the function writes: the argument (the lane's
    /// value) is stored into it before the lane's call, what the call left
    /// is read back after it, and the global's value from before the store
    /// is put back (lower/GlobalCalls.cpp). Cond, if >= 0: the argument
    /// (a Bool) saying whether the example has written the global; where
    /// it has not, the global is neither stored, read back nor put back.
    bool Before = false;
    int Cond = -1;
    /// A note's location (an index into the lowering's sites) and text.
    std::vector<std::pair<int, std::string>> Notes;
    /// Of a call made per lane with LaneGrad: a partial derivative that
    /// the callee's NAME_grad gives, of the result (-1) or of the member
    /// that Out GradOf is, in argument Arg (a number or a member's value
    /// before the call), read from GradFrom after NAME_grad's call seeded
    /// for GradOf. -2: not one.
    int GradOf = -2;
    std::string GradFrom;
    /// A struct member an Op::Tie after the call gives its derivative
    /// (LaneGrad): the value itself carries none.
    bool Tied = false;
    /// An element of the local array Array (also Name) passed whole
    /// (lower/LowerArrayOut.cpp).
    std::string Array;
  };
  /// A function of another file marked diff, called per lane because it is
  /// passed a struct (GSL's `gsl_sf_exp_e(x, &r)`): where the partials
  /// (Outs with GradOf) are read, each lane that makes the call also calls
  /// NAME_grad(1, ...) once per output read (lower/LaneGrad.cpp).
  struct LaneGrad {
    std::string Abi; // abiDeclaration of its NAME_grad
    bool FloatRet = false;
    struct Param {
      int Arg = -1;    // a number: the argument's index
      int Struct = -1; // a struct: its index in Structs
      std::string CType;
      bool Shadow = false, Const = false;
      /// A local array's copy (Structs[Struct].Len): passed at the offset
      /// argument Off (-1: none), its elements Len apart.
      int Len = 0, Off = -1;
      /// The array another parameter also gets, which the callee writes
      /// (in place, lower/LaneGrad.cpp): this one is read only, its shadow
      /// not seeded.
      bool Aliased = false;
    };
    std::vector<Param> Params;
    /// In-place pairs (I, J) of parameters: the callee's file must promise
    /// batchdiff.inplace:NAME:I:J (lower/InPlace.h).
    std::vector<std::pair<unsigned, unsigned>> InPlace;
  };
  struct Table {
    std::string CType, Name, Init;
    int Len = 0;
  };
  struct Array {
    std::string CType;
    int First = -1, Len = 0;
  };
  /// A pointer to a struct of numbers (GSL's `gsl_sf_exp_e(x, &r)`): a
  /// struct of C type CType per lane, each member (its access path,
  /// ".val") holding the value of out-pointer Out, read back after the
  /// call. A pointer to a scalar passed to a callee with LaneGrad (`&v`):
  /// one member, its path "", CType the scalar's.
  /// With Len > 0, a local array of Len elements of C type CType passed
  /// whole (musl's `__rem_pio2(x, y)`, lower/LowerArrayOut.cpp): an array
  /// per lane, passed as its first element's address, Members "[k]".
  struct Struct {
    std::string CType;
    std::vector<std::pair<std::string, int>> Members;
    int Len = 0;
  };
  std::string Call, Decl, Ty, Name, Via, Fix;
  Reason Why = Outside;
  bool AnyThread = false, Tied = false;
  /// Recursion: of a function the file marks diff, which recursionBatched
  /// (lower/LowerImpl.h) could not call through its NAME_grad.
  bool MarkedDiff = false;
  /// Recursion in a function marked diff(forward) or diff(hvp) but not
  /// diff: no NAME_grad of the callee is called from there.
  bool NoReverse = false;
  std::optional<Callee> Batched;
  std::optional<LaneGrad> Grad;
  std::vector<Out> Outs;
  std::vector<Table> Tables;
  std::vector<Array> Arrays;
  std::vector<Struct> Structs;
};

struct Function {
  std::string Name;
  std::vector<Param> Params;
  std::vector<Type> Temps;
  std::vector<Var> Vars;
  std::vector<Output> Outputs;
  /// Slots per iteration of each tape (indexed by tape id).
  std::vector<int> TapeSlots;
  int NumLoopIds = 0;
  /// Calls made per lane (Op::Extern's IVal indexes them).
  std::vector<ExternCall> Externs;
  // Batched IR only (empty before batching).
  LaneLayout Lanes;
  /// With a packed or pointer parameter: keep the caller's order of the
  /// examples instead of sorting each chunk by length (an option).
  bool KeepOrder = false;
  std::vector<bool> VaryingTemp, VaryingVar;
  Type RetTy = Type::Void;
  std::string RetCType;
  bool RetNativeLayout = true;
  /// A struct return value: Param::Dense of its type.
  int RetDense = 0;
  Block Body;

  int newTemp(Type T) {
    Temps.push_back(T);
    if (!VaryingTemp.empty())
      VaryingTemp.push_back(false);
    return (int)Temps.size() - 1;
  }
  bool batched() const { return Lanes.LaneBits != 0; }
  int newVar(std::string N, Type T) {
    Vars.push_back({std::move(N), T});
    if (!VaryingVar.empty())
      VaryingVar.push_back(false);
    return (int)Vars.size() - 1;
  }
};

/// Appends instructions to a block; every helper returns the new temp.
class Builder {
public:
  Builder(Function &F, Block *B) : F(F), Cur(B) {}
  Function &func() { return F; }
  Block *block() { return Cur; }
  void setBlock(Block *B) { Cur = B; }

  int constF(Type T, double V);
  int constI(Type T, int64_t V);
  int constB(bool V);
  int param(int Index);
  int get(int Var);
  void set(int Var, int Value);
  int un(Op O, int A);
  int cast(Type To, int A);
  int bitcast(Type To, int A);
  int bin(Op O, int A, int B);
  int cmp(Op O, int A, int B);
  int fmuladd(int A, int B, int C);
  int select(int C, int A, int B);
  int math(MathFn Fn, std::vector<int> Args);
  int loadArg(int Param, int Idx);
  void storeArg(int Param, int Idx, int Value);
  int loadElem(int Var, int Idx);
  void storeElem(int Var, int Idx, int Value);
  /// Zeroes array \p Var; with \p Count (an I32 temp, 0..Len), only its
  /// first Count elements (a variable-length array's declaration).
  void zeroArr(int Var, int Count = -1);
  Stmt &ifStmt(int Cond);
  Stmt &loop();

  // Shorthands used by the derivative table.
  int add(int A, int B) { return bin(Op::Add, A, B); }
  int sub(int A, int B) { return bin(Op::Sub, A, B); }
  int mul(int A, int B) { return bin(Op::Mul, A, B); }
  int div(int A, int B) { return bin(Op::Div, A, B); }
  int neg(int A) { return un(Op::Neg, A); }

  Stmt &push(Op O, int Dst, std::vector<int> Args);

private:
  Function &F;
  Block *Cur;
};

std::unique_ptr<Stmt> cloneStmt(const Stmt &S);
Block cloneBlock(const Block &B);
/// A deep copy (Function is move-only because its blocks own statements).
Function cloneFunction(const Function &F);

/// Calls \p Fn on every statement, pre-order, with the nesting depth.
template <typename FnT> void walk(const Block &B, FnT &&Fn, int Depth = 0) {
  for (const auto &S : B) {
    Fn(*S, Depth);
    walk(S->Then, Fn, Depth + 1);
    walk(S->Else, Fn, Depth + 1);
    walk(S->Body, Fn, Depth + 1);
  }
}

/// Removes writes to variables nothing reads (and that are not outputs),
/// such as the return flag of a function without early returns.
void pruneDeadStores(Function &F);

std::string print(const Function &F);

} // namespace ir
} // namespace batchdiff

#endif
