//===- LowerMemberTables.cpp - tables of structs in global structs --------===//
//
// An array of structs that is a member of a file-scope struct, as musl's
// log, log2, pow and their float forms read `__log_data.tab[i].invc` of an
// `extern const struct log_data {...; struct {double invc, logc;}
// tab[128];} __log_data` defined in another file: an array of records of
// its own whose leaf members are Global tables read in place (as
// LowerGlobalRecords.cpp reads a file-scope table of structs): leaf m is
// the table that starts at `&G.tab[0].m`, record k's member its element k
// * Per, Per = sizeof(element struct) / sizeof(m). A read at an index the
// same for every example is a uniform load, at a per-example index a
// gather from the real global at that stride. Only read: a write is an
// error where it is (recordsWrite). In the global struct's own records
// (G.ln2hi, G.poly[k]) such a member is one array leaf per member of its
// element struct at the same stride (leafInner), which copies of the whole
// struct read.
//
//===----------------------------------------------------------------------===//
#include "lower/FixedGlobals.h"
#include "lower/LowerImpl.h"
#include "lower/Types.h"

#include <climits>

namespace batchdiff {
namespace lowering {

bool Lowerer::globalLeafParams(const VarDecl *VD, const std::string &Name,
                               const std::string &Addr0, QualType RT,
                               uint64_t N, SourceLocation At, RecArray &RA,
                               std::vector<int64_t> &Inner) {
  const VarDecl *Def = VD->getDefinition();
  int64_t Size = (int64_t)Ctx.getTypeSizeInChars(RT).getQuantity();
  for (const Leaf &Lf : RA.Leaves) {
    Inner.push_back(1);
    if (Lf.Ptr) { // read through ptrConstMember only (recordRef)
      RA.LeafParams.push_back(-1);
      RA.Per.push_back(1);
      continue;
    }
    // A member of the element structs of an array member (Tail): its
    // elements are an element struct apart.
    QualType MT = memberType(RT, Lf.Path), ElT;
    if (!Lf.Tail.empty()) {
      ElT = Ctx.getBaseElementType(MT);
      MT = memberType(ElT, Lf.Tail);
    }
    QualType ET = Ctx.getBaseElementType(MT);
    auto El = tableElement(Ctx, ET);
    int64_t Elem = (int64_t)Ctx.getTypeSizeInChars(ET).getQuantity();
    int64_t ElSize = ElT.isNull()
                         ? Elem
                         : (int64_t)Ctx.getTypeSizeInChars(ElT).getQuantity();
    if (!El || Elem == 0 || Size % Elem != 0 || ElSize % Elem != 0) {
      error(At,
            "the member '" + (Lf.Path + Lf.Tail).substr(1) + "' of type '" +
                Lf.CType + "' of global '" + Name + "'",
            "use _Bool, char, short, int, long, float or double members");
      return false;
    }
    Inner.back() = ElSize / Elem;
    ir::Param P;
    P.Name = Name + Lf.Path + Lf.Tail; // (for messages)
    P.Addr = "&" + Addr0 + Lf.Path + Lf.sub(0);
    P.Kind = ir::ParamKind::Global;
    P.Uniform = P.NoDiff = P.IsArray = P.InPlace = true;
    P.Ty = El->first;
    P.Narrow = El->second;
    P.CType = ET.getCanonicalType().getUnqualifiedType().getAsString();
    P.NativeLayout = P.Narrow.empty();
    uint64_t Len = N * (uint64_t)(Size / Elem);
    P.StaticLen = Len <= INT_MAX ? (int)Len : 0;
    P.DimHow = "global table of records";
    P.LaneLoads = laneLoadsOnly(Ctx, Def ? Def : VD);
    if (Lf.Ty == Type::Bool)
      P.BoolBytes = true;
    F.Params.push_back(P);
    RA.LeafParams.push_back((int)F.Params.size() - 1);
    RA.Per.push_back(Size / Elem);
  }
  return true;
}

const VarDecl *Lowerer::globalMemberRoot(const MemberExpr *ME,
                                         std::string &Path) const {
  Path.clear();
  const Expr *E = ME;
  while (const auto *M = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (M->isArrow() || !FD || FD->getParent()->isUnion())
      return nullptr;
    // (A member of an anonymous struct is named directly in C.)
    if (!FD->getName().empty())
      Path = "." + FD->getNameAsString() + Path;
    E = M->getBase()->IgnoreParens();
  }
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!globalRecordVar(VD, Ctx) || !VD->getType()->isRecordType())
    return nullptr;
  return VD;
}

bool Lowerer::globalMemberRecords(const MemberExpr *ME, RecRef &Out) {
  std::string Path;
  const VarDecl *VD = globalMemberRoot(ME, Path);
  VD = VD->getCanonicalDecl();
  auto Key = std::make_pair(VD, Path);
  if (auto It = GlobalMemberRecords.find(Key);
      It != GlobalMemberRecords.end()) {
    if (It->second == -1)
      return fail() >= 0; // reported at its first use
    Out = RecRef();
    Out.Param = It->second;
    Out.Count = (unsigned)RecArrays[It->second].Leaves.size();
    return true;
  }
  GlobalMemberRecords[Key] = -1;
  SourceLocation At = ME->getBeginLoc();
  std::string Name = VD->getNameAsString();
  // (The definition knows the extent an earlier `extern` may not.)
  const VarDecl *Def = VD->getDefinition();
  QualType GT = (Def ? Def : VD)->getType();
  QualType T = memberType(GT, Path);
  const auto *CAT = T.isNull() ? nullptr : Ctx.getAsConstantArrayType(T);
  if (GT.isVolatileQualified() || T.isNull() || T.isVolatileQualified()) {
    error(At, "access to volatile '" + Name + "'", "remove 'volatile'");
    return false;
  }
  if (!fileScopeName(VD, At))
    return false;
  QualType RT = CAT ? CAT->getElementType() : QualType();
  uint64_t N = CAT ? CAT->getSize().getZExtValue() : 0;
  if (!CAT || !RT->isRecordType() || N == 0) {
    error(At,
          "the member '" + Path.substr(1) + "' of type '" + T.getAsString() +
              "' of global '" + Name + "'",
          "use a one-dimensional array of structs of a constant size");
    return false;
  }
  // (Const-qualified through the global: its records are only read.)
  RT = Ctx.getQualifiedType(RT, GT.getQualifiers());
  RecArray RA;
  if (!structLayout(RT, "", RA.Leaves, At,
                    "the elements of '" + Name + Path + "'") ||
      !noUnions(RA.Leaves, At, false, false, true))
    return false;
  std::vector<int64_t> Inner;
  if (!globalLeafParams(VD, Name + Path, Name + Path + "[0]", RT, N, At, RA,
                        Inner))
    return false;
  RA.Name = Name + Path;
  RA.What = "global table of structs";
  int K = NextLocalRecords--;
  RecArrays[K] = std::move(RA);
  GlobalMemberRecords[Key] = K;
  Out = RecRef();
  Out.Param = K;
  Out.Count = (unsigned)RecArrays[K].Leaves.size();
  return true;
}

} // namespace lowering
} // namespace batchdiff
