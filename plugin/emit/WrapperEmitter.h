//===- WrapperEmitter.h - the wrapper writer, shared by Wrapper*.cpp -----===//
// Private to plugin/emit: Wrapper.cpp writes the wrapper's steps and chunk
// functions, WrapperOutputs.cpp its outputs and uniform sums.
#pragma once
#include "emit/CText.h"
#include "emit/Frame.h"
#include "emit/IndexedLanes.h"
#include "emit/RecordLanes.h"
#include "emit/Wrapper.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace batchdiff {
namespace wrapper {

using ir::Type;
using namespace ctext;

/// Writes the exported wrapper that walks the batch in chunks of W lanes.
class WrapperEmitter {
public:
  WrapperEmitter(const ir::Function &F, Flavor Fl, bool Static,
                 std::string Kernel, bool Deferred = false)
      : F(F), Sh{F.Lanes.LaneBits == 64}, Fl(Fl), Grad(Fl == Flavor::Grad),
        Jvp(Fl == Flavor::Jvp), Hvp(Fl == Flavor::Hvp), Static(Static),
        Kernel(std::move(Kernel)), IL(F.Lanes.Interleave), Ix(indexedLanes(F)),
        Deferred(Deferred) {}

  std::string prototype(bool Reserved) const;
  std::string run();
  void setKeeps(std::vector<KeepArray> K) { Keeps = std::move(K); }

private:
  /// A parameter of the wrapper: its type (ending in ' ' or '*') and name.
  struct Decl {
    std::string Type, Name;
  };
  std::vector<Decl> params(bool Reserved) const;
  /// File-scope data the function reads (ParamKind::Global) and the batch
  /// size for written globals. Type, reserved name, the C expression that
  /// reads it, and whether the chunk function reads it itself (Direct: by
  /// name, so LLVM folds constant data there exactly as in the scalar
  /// function) or from the context struct the wrapper fills.
  struct GlobalDecl {
    std::string Type, Name, Init;
    bool Direct;
  };
  std::vector<GlobalDecl> globals() const;
  void
  tangentParams(std::vector<Decl> &Ds,
                const std::function<std::string(std::string, std::string)> &Nm,
                int K) const;
  void
  shadowParams(std::vector<Decl> &Ds,
               const std::function<std::string(std::string, std::string)> &Nm,
               int K, const std::string &Prefix) const;
  /// Uniform scalar parameters whose gradient (or, Hv, its tangent) is
  /// summed over the batch, and the accumulator's name.
  struct Sum {
    size_t Param;
    bool Hv;
    std::string acc() const {
      return (Hv ? "__bd_hacc" : "__bd_acc") + std::to_string(Param);
    }
  };
  std::vector<Sum> uniformSums() const;
  /// The GlobalWritten output of Global output \p I (a global written on
  /// some paths only), or -1.
  int writtenFlag(size_t I) const;
  /// Global outputs written on some paths only: each chunk keeps the
  /// highest example index that wrote it plus one (0: none) and its value,
  /// __bd_gw<I> and __bd_gv<I>, reduced by the highest index.
  std::vector<size_t> lastWrites() const;
  std::string lastWrite(size_t I, int Flag);
  std::string chunkFunction(const std::string &Base);
  std::string reduceFunction(const std::string &Base);
  std::string arg(size_t I) const { return argName(I); }
  std::string stride(size_t I) const { return strideName(I); }
  std::string offs(size_t I) const { return offsetsName(I); }
  /// Indexed lanes (emit/IndexedLanes.h) of the current chain.
  std::string loadIx(const std::string &Base, Type T, bool Native,
                     const std::string &Dst, const std::string &Default = "") {
    return gatherLanes(Sh, CI, Buf, Base, T, Native, Dst, Default);
  }
  std::string storeIx(const std::string &Base, Type T, bool Native,
                      const std::string &CType, const std::string &Val) {
    return scatterLanes(Sh, CI, CS, Buf, Base, T, Native, CType, Val);
  }
  /// Array K of parameter I (Stmt::Shadow): the shadow (NAME_jvp: the
  /// tangent); in NAME_hvp 1 the tangent and 2 the H·v shadow.
  std::string ptr(int K, size_t I) const {
    return shadowArrayName(K, owner(I));
  }
  std::string ptrStride(int K, size_t I) const {
    return shadowArrayStride(K, owner(I));
  }
  /// The parameter in the ABI: a struct parameter for its members.
  size_t owner(size_t I) const {
    return member(I) ? (size_t)F.Params[I].Record : I;
  }
  /// A member of a struct parameter passed by value (a scalar per record);
  /// a member of an array of records is an array parameter of its own,
  /// with local names set up by memberArrays() (emit/RecordLanes.h).
  bool member(size_t I) const {
    return F.Params[I].Record >= 0 && !F.Params[I].IsArray;
  }
  /// A struct parameter with a member that has a shadow.
  bool recordHasShadow(size_t I) const {
    for (const ir::Param &L : F.Params)
      if (L.Record == (int)I && hasShadowParam(L))
        return true;
    return false;
  }
  /// Whether parameter \p I gets a shadow (and tangent) in the ABI.
  bool abiShadow(size_t I) const {
    const ir::Param &P = F.Params[I];
    return P.Kind == ir::ParamKind::Record ? recordHasShadow(I)
                                           : hasShadowParam(P) && P.Record < 0;
  }
  /// A struct member's record index for lane __bd_j of the current chain:
  /// in bounds for every lane (a lane past the chunk reads its first).
  std::string recordIdx(bool Tail) const {
    if (Ix)
      return indexedLane(Sh, CI);
    return "__bd_i" + CS + " + " +
           (Tail ? "(__bd_j < __bd_k" + CS + " ? __bd_j : 0)"
                 : std::string("__bd_j"));
  }
  /// Dense groups (emit/RecordLanes.h), when lanes are contiguous.
  std::vector<size_t> denseGroup(size_t I) const {
    return Ix ? std::vector<size_t>() : denseMembersOf(F, I);
  }
  std::vector<size_t> denseTangents(size_t I) const {
    return Ix ? std::vector<size_t>() : denseTangentsOf(F, I);
  }
  std::vector<size_t> denseSeeds() const {
    return Ix ? std::vector<size_t>() : denseSeedsOf(F);
  }
  DenseRecords dense(const std::string &Base) const {
    return {Base, "__bd_i" + CS, "__bd_full" + CS};
  }
  std::string denseShadow(size_t I, const std::vector<size_t> &G, bool Hv);
  std::string denseRet(size_t I);
  /// How many of those arrays an array parameter with a shadow has.
  int numShadows() const { return Fl == Flavor::Batched ? 0 : Hvp ? 3 : 1; }
  /// Declares \p Dst and loads the chunk's \p Count values at \p Ptr into
  /// it. \p IfNull, for a pointer that may be NULL, is a prefix
  /// "!ptr ? default : " of the native load.
  std::string load(const std::string &Ptr, Type T, bool Native,
                   const std::string &Count, const std::string &Dst,
                   const std::string &IfNull = "");
  std::string store(const std::string &Ptr, Type T, bool Native,
                    const std::string &CType, const std::string &Val);
  std::string chunk();
  bool wholeSteps() const;
  std::string counts(bool Full) const;
  std::string unusedCounts(const std::string &Block) const;
  std::string masks();
  std::string inputs(std::vector<std::string> &KArgs);
  // The steps of inputs() for parameter I: loads, the kernel's arguments.
  using Strings = std::vector<std::string>;
  void seedInput(size_t I, Strings &KArgs, std::ostringstream &OS);
  void tangentInput(size_t I, Strings &KArgs, std::ostringstream &OS);
  void memberInput(size_t I, Strings &KArgs, std::ostringstream &OS);
  void arrayArgs(size_t I, Strings &KArgs);
  std::string denseGroupIn(const std::vector<size_t> &G, bool Tangents,
                           const std::string &Base, const std::string &Dst,
                           Type T, const std::string &Default = "");
  std::string output(size_t I);
  std::string kernelCall(const std::vector<std::string> &KArgs);

  const ir::Function &F;
  Shape Sh;
  Flavor Fl;
  bool Grad, Jvp, Hvp, Static;
  std::string Kernel;
  /// Independent chains per kernel call; CS names the current chain's
  /// count, offset and mask ("" with one chain).
  unsigned IL;
  /// A BD_PACKED / BD_POINTERS parameter: lanes hold the examples listed
  /// in __bd_e, in any order (indexedLanes).
  bool Ix;
  /// The kernel defers its math calls' rare-lane tests (emitKernel).
  bool Deferred;
  /// A long kernel's arrays of kept temps: from the arena, per chunk call.
  std::vector<KeepArray> Keeps;
  std::string CS;
  unsigned CI = 0; // the chain CS names
  int Buf = 0;
  /// wholeSteps(): inputs are assigned to variables declared before the
  /// step's two paths (1: the first pass, which collects their
  /// declarations in Decls; 2: the second).
  int Assign = 0;
  std::string Decls;
  /// The arrays load() and store() read and write one example after
  /// another (base pointer: bytes per example, written), prefetched ahead
  /// by the chunk loop.
  std::map<std::string, std::pair<int, bool>> Streams;
  void addStream(const std::string &Ptr, Type T, bool Write);
  std::string prefetches() const;
  std::string chain(unsigned C) const {
    return IL > 1 ? "_" + std::to_string(C) : "";
  }
  /// Examples per kernel call, as a C expression.
  std::string step() const {
    return IL > 1 ? "(" + std::to_string(IL) + " * " + Sh.W() + ")" : Sh.W();
  }
};

} // namespace wrapper
} // namespace batchdiff
