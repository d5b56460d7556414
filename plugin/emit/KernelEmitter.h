//===- KernelEmitter.h - the kernel printer, shared by Kernel*.cpp --------===//
// Private to plugin/emit: Kernel.cpp prints the kernel's signature and
// declarations and decides its form, KernelStmt.cpp its statements,
// KernelExpr.cpp the expressions of its instructions.
#pragma once
#include "emit/CText.h"
#include "emit/Frame.h"
#include "emit/VarScopes.h"

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace batchdiff {
namespace kernel {

using ir::Op;
using ir::Type;
using namespace ctext;

class KernelEmitter {
public:
  KernelEmitter(const ir::Function &F, std::string Name, Flavor Fl,
                bool Outline, bool DeferMath = false, bool RaggedOn = true)
      : F(F), Sh{F.Lanes.LaneBits == 64}, Name(std::move(Name)), Fl(Fl),
        IL(F.Lanes.Interleave), Outline(Outline), DeferMath(DeferMath),
        RaggedOn(RaggedOn) {}

  std::string run();
  /// run() made the kernel defer its math calls' rare-lane tests.
  bool deferred() const { return Deferred; }

private:
  // The steps of run(), in order (Kernel.cpp).
  void indexTemps();
  bool chooseForm();
  bool defers(bool Long) const;
  std::string carefulCopy(const std::string &Sig) const;
  void signature(bool Long, const std::vector<int> &Arena);
  void prologue(bool Long, const std::vector<int> &Arena);
  void declareVars(const std::vector<int> &Arena);
  void declareTemps();
  void unusedParams();
  void unusedArrays();

  bool isInline(int T) const {
    return Def[T] &&
           (ir::opInline(Def[T]->Opc) || (!Folded.empty() && Folded[T]));
  }
  /// Whether temp \p T prints as a name, a constant or a call (not as an
  /// operator expression folded into its use).
  bool plainOperand(int T) const {
    return !isInline(T) || ir::opInline(Def[T]->Opc);
  }
  /// A temp as an operand: its variable, or the expression of an inline op.
  std::string temp(int T) const {
    if (isInline(T))
      return inlineExpr(*Def[T]);
    if (!KeepSlot.empty() && KeepSlot[T] >= 0)
      return keepArray(F.Temps[T], F.VaryingTemp[T]) + "[" +
             std::to_string(F.VaryingTemp[T] ? KeepSlot[T] * IL + Ch
                                             : KeepSlot[T]) +
             "]";
    return "__bd_t" + std::to_string(T) + (F.VaryingTemp[T] ? ch() : "");
  }
  /// The name suffix of the current chain's copy of a varying value.
  std::string ch() const { return chain(Ch); }
  std::string chain(unsigned C) const {
    return IL > 1 ? "_" + std::to_string(C) : "";
  }
  /// Whether \p S is printed once per chain (it computes or writes a
  /// varying value, or accesses memory under a mask).
  bool perChain(const ir::Stmt &S) const;
  std::string inlineExpr(const ir::Stmt &S) const;
  std::string var(int V) const {
    return varBase(V) + (F.VaryingVar[V] ? ch() : "");
  }
  std::string varBase(int V) const {
    std::string N = F.Vars[V].Name;
    while (!N.empty() && N[0] == '_')
      N.erase(0, 1);
    return "__bd_v" + std::to_string(V) + (N.empty() ? "" : "_" + N);
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
  std::string vectorExpr(const ir::Stmt &S) const;
  std::string scalarExpr(const ir::Stmt &S) const;
  void inst(const ir::Stmt &S);
  void block(const ir::Block &B);
  void ifStmt(const ir::Stmt &S, bool ElseIf = false);
  bool scoped(int V) const { return !Scopes.empty() && Scopes[V].In; }
  void declareScoped(const ir::Block &B);
  void foldCopies(const ir::Block &B, const std::vector<int> &Uses,
                  const std::vector<int> &Defs);
  void loop(const ir::Stmt &S);
  void revLoop(const ir::Stmt &S);
  void flatten(const ir::Block &B, unsigned Depth, bool In,
               const std::vector<int> &Defs);
  void flatIf(const ir::Stmt &S);
  std::string flatLabel() { return "__bd_flat" + std::to_string(FlatLabels++); }
  bool tapeOp(const ir::Stmt &S);
  bool memOp(const ir::Stmt &S);
  bool smallTable(const ir::Param &P) const;
  void scopes(const ir::Block &B, std::vector<const ir::Block *> &Open);
  void laneOffsets();
  void denseArrays();
  void denseFill();
  bool denseRead(const ir::Stmt &S);
  bool denseEligible(const ir::Param &Pa) const;
  void denseShadowFill();
  void denseShadowStore();
  void denseRows(const std::string &Ind, Type Ty, int Len,
                 const std::string &Base, const std::string &Cast,
                 const std::string &Stride, const std::string &Offs,
                 const std::string &Vec, bool Store);
  bool denseShadowAdd(const ir::Stmt &S);
  int uniformIndex(const ir::Stmt &S) const;
  bool raggedEligible(const ir::Param &Pa) const;
  int loopCounter(const ir::Stmt &L, int &Bound) const;
  void raggedBlocks();
  void raggedDecls();
  bool raggedRead(const ir::Stmt &S);
  static int denseLen(const ir::Param &Pa);
  std::string addr(const ir::Stmt &S, bool Shadow) const;
  /// Element offsets (in elements) of lane l: l * stride; index vectors.
  std::string idxSfx() const { return Sh.Wide ? "i64d" : "i32n"; }
  /// The arrays an array parameter has next to its values (Stmt::Shadow
  /// numbers them): none, its shadow, or in NAME_hvp gradient, tangent and
  /// H·v shadow.
  int numShadows(const ir::Param &Pa) const {
    return Pa.IsArray ? numShadowArrays(Fl, Pa) : 0;
  }
  /// Shadow array \p Q's pointer (then "s": its stride, "o": lane offsets).
  static std::string shadowBase(int Q) {
    static const char *const Names[] = {"__bd_q", "__bd_qt", "__bd_qh"};
    return Names[Q];
  }
  bool arrayOp(const ir::Stmt &S);
  /// A local array's length in the C text: its constant, or a local
  /// variable-length array's capacity variable.
  std::string arrLen(int V) const {
    if (F.Vars[V].CountVar >= 0)
      return "__bd_cap" + std::to_string(V);
    return std::to_string(F.Vars[V].Len);
  }
  /// A local variable-length array: takes room for \p Need elements (a C
  /// expression) per chain, and points every chain's copy at it.
  void vlaBind(int V, const std::string &Need);
  /// A variable-length array's declaration (ZeroArr with a count), once
  /// for all chains: their largest size, room for it, zeroes.
  void vlaZero(const ir::Stmt &S);
  std::string vlaElemType(int V) const;
  std::string tapeAt(const ir::Stmt &S, int Value) const;
  std::string counter(int Id) const { return "__bd_k" + std::to_string(Id); }

  const ir::Function &F;
  Shape Sh;
  std::string Name;
  Flavor Fl;
  /// Independent chains of lanes and the one being printed.
  unsigned IL;
  mutable unsigned Ch = 0;
  std::ostringstream OS;
  int Ind = 1;
  /// Names the values a StoreArg IfChanged reads before it stores.
  unsigned IfChangedN = 0;
  /// The statement defining each temp (one of them, for a temp defined in
  /// exclusive copies of a block).
  std::vector<const ir::Stmt *> Def;
  /// Temps used outside the block that defines them: declared up front.
  std::vector<bool> Hoisted;
  /// A long kernel's hoisted vector temps kept in memory (keepTemps): each
  /// one's slot in the array of its type, -1 for the others.
  std::vector<int> KeepSlot;
  std::map<std::pair<Type, bool>, int> KeepCount;
  /// The partials read of each batched call (BatchedCall.h's readPartials),
  /// made at the first such call: one walk of the kernel for all of them.
  std::optional<std::map<int, std::vector<bool>>> BatchedReads;
  std::string keepArray(Type Ty, bool Vary) const {
    return Vary ? "__bd_keep_" + Sh.sfx(Ty)
                : "__bd_keeps_" + std::string(scalarType(Ty));
  }
  void keepTemps();

public:
  std::vector<KeepArray> keepArrays() const;

private:
  std::vector<const ir::Block *> TempDef;
  /// Costly math is called through out-of-line copies (MathInlineMax):
  /// each copy's name and definition.
  bool MathOutOfLine = false;
  mutable std::map<std::string, std::string> MathCopies;
  /// math=outline: the runtime's bd_ool_* copies, one per file.
  bool Outline;
  /// Math calls may defer their rare-lane tests (defers()), and do.
  bool DeferMath, Deferred = false;
  /// A long kernel's variables declared in a block (VarScopes.h), and
  /// those each block declares.
  std::vector<VarScope> Scopes;
  std::unordered_map<const ir::Block *, std::vector<int>> ScopedIn;
  /// Writes of scoped variables outside their block: not printed.
  std::unordered_set<const ir::Stmt *> DroppedWrites;
  /// A long kernel's temps printed in their one use (foldCopies).
  std::vector<bool> Folded;
  /// Per-example arrays read through one vector per element (denseArrays).
  std::vector<bool> DenseArr;
  /// NAME_grad: input arrays whose shadow is only added to at indices the
  /// same for every lane, accumulated in vectors (denseShadowFill).
  std::vector<bool> DenseSh;
  /// Reads of ragged rows at their loop's counter, from blocks of W trips'
  /// elements (KernelRagged.cpp): each one's per-lane loop bound; the
  /// arrays read so.
  std::unordered_map<const ir::Stmt *, int> BlockRead;
  std::vector<bool> BlockArr;
  bool RaggedOn;
  /// Labels that turn off clang's lifetime markers (noLifetimeMarkers).
  unsigned NoLifetime = 0;
  /// Ifs and loops printed without a block of their own, with gotos
  /// (flatten), and the labels they need.
  std::unordered_set<const ir::Stmt *> Flat;
  unsigned FlatLabels = 0;
  void noLifetimeMarkers();
};

} // namespace kernel
} // namespace batchdiff
