//===- LowerUnion.cpp - unions, as the bits of one integer ----------------===//
//
// Type punning as numeric C writes it (fdlibm's ieee_double_shape_type,
// `union { float f; uint32_t i; }`): a union of 4 or 8 bytes whose members
// all have its size is one integer variable holding its bits (a struct
// leaf: LowerStruct.cpp copies, passes and returns it like any member; of
// the type of its integer member of that size, `uint64_t u`, which the ABI
// reads and writes for a union parameter or return value). A
// member is a view of those bits, in x86's little-endian layout (the first
// 32-bit word is the low half): reading it is a bit cast of the storage,
// or of the part it covers (shifted down and truncated); writing it is a
// bit cast into the storage, or an insert of its bits (mask and or). No
// derivative flows through bits: analysis/BitCasts reports a float rebuilt
// from a differentiated value's bits, as for memcpy.
//
//===----------------------------------------------------------------------===//
#include "lower/LowerImpl.h"

namespace batchdiff {
namespace lowering {

static const char *UnionSizes =
    "use a union of 4 or 8 bytes whose members all have its size (double "
    "with uint64_t or uint32_t[2], float with uint32_t)";

/// What in member \p FD of a union (or of a struct or array in one) is not
/// a number, for the error; "" if nothing.
static std::string notNumbers(ASTContext &Ctx, const FieldDecl *FD) {
  std::string What =
      "member '" + FD->getNameAsString() + "' of '" +
      QualType(FD->getParent()->getTypeForDecl(), 0).getAsString() + "'";
  if (FD->isBitField())
    return "bit-field " + What;
  QualType T = FD->getType();
  while (const auto *CAT = Ctx.getAsConstantArrayType(T))
    T = CAT->getElementType();
  if (T.isVolatileQualified())
    return "volatile " + What;
  if (const auto *RT = T->getAs<RecordType>()) {
    for (const FieldDecl *G : RT->getDecl()->fields())
      if (std::string W = notNumbers(Ctx, G); !W.empty())
        return W;
    return "";
  }
  if (T->isPointerType())
    return "pointer " + What;
  auto IT = irType(T);
  if (!IT || *IT == Type::Bool)
    return What + " of type '" + FD->getType().getAsString() + "'";
  return "";
}

std::optional<Type> Lowerer::unionStorage(QualType T, SourceLocation At,
                                          const std::string &Whose) {
  const RecordDecl *RD = T.getCanonicalType()->getAs<RecordType>()->getDecl();
  std::string TN = T.getUnqualifiedType().getAsString();
  uint64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
  if (Bytes != 4 && Bytes != 8) {
    error(At,
          Whose + " of type '" + TN + "' (" + std::to_string(Bytes) + " bytes)",
          UnionSizes);
    return std::nullopt;
  }
  for (const FieldDecl *FD : RD->fields()) {
    uint64_t FB = Ctx.getTypeSizeInChars(FD->getType()).getQuantity();
    if (!FD->isBitField() && FB != Bytes) {
      error(At,
            "member '" + FD->getNameAsString() + "' of '" + TN + "' (" +
                std::to_string(FB) + " bytes in a union of " +
                std::to_string(Bytes) + ")",
            UnionSizes);
      return std::nullopt;
    }
    if (std::string W = notNumbers(Ctx, FD); !W.empty()) {
      error(At, W,
            "give a union float, double or integer members, or structs or "
            "arrays of them (read bit-fields with shifts and masks)");
      return std::nullopt;
    }
  }
  return Bytes == 8 ? Type::U64 : Type::U32;
}

bool Lowerer::noUnions(const std::vector<Leaf> &L, SourceLocation At, bool Diff,
                       bool Ret, bool Global) {
  for (const Leaf &Lf : L) {
    if (Global && !Lf.Union.empty()) {
      error(At, Lf.Union,
            "unions work in locals and helpers; keep the values in a table "
            "of their type, or copy them into a local union");
      return false;
    }
    if (Lf.NoAbi) {
      error(At, Lf.Union,
            "a union passed to or from the annotated function needs an "
            "integer member of its size ('uint64_t u'), which carries its "
            "bits; add one, or pass the member's value");
      return false;
    }
    if (!Lf.Union.empty() && Diff) {
      error(At, Lf.Union + " in a diff function",
            Ret ? "its bits carry no derivative: return the floating "
                  "member's value"
                : "its bits carry no derivative: mark the parameter "
                  "BD_NODIFF, or pass the floating member's value");
      return false;
    }
  }
  return true;
}

bool Lowerer::unionMember(const Expr *E, LValue &Out) {
  // The members and elements from E down to the union whose storage holds
  // it: the outermost one (a union in it is bits of the same storage).
  llvm::SmallVector<const Expr *, 4> Path;
  const Expr *U = nullptr, *Cur = E->IgnoreParens();
  size_t UPos = 0;
  bool Arrow = false;
  while (true) {
    const Expr *Next;
    if (const auto *ME = dyn_cast<MemberExpr>(Cur)) {
      Path.push_back(ME);
      if (ME->isArrow()) {
        if (ME->getBase()->getType()->getPointeeType()->isUnionType()) {
          U = ME->getBase();
          UPos = Path.size();
          Arrow = true;
        }
        break;
      }
      Next = ME->getBase()->IgnoreParens();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Cur)) {
      const auto *D = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
      if (!D || D->getCastKind() != CK_ArrayToPointerDecay)
        break;
      Path.push_back(AS);
      Next = D->getSubExpr()->IgnoreParens();
    } else {
      break;
    }
    if (Next->getType()->isUnionType()) {
      U = Next;
      UPos = Path.size();
      Arrow = false;
    }
    Cur = Next;
  }
  if (!U)
    return false;
  Out = LValue();
  LValue S;
  if (inRecordArray(U)) { // a union in a local array of unions or structs
    RecRef R;
    if (Arrow ? !recordPtr(U, R) : !recordRef(U, R))
      return true;
    S = recordLeaf(R, 0);
  } else {
    std::vector<int> L;
    if (Arrow ? !structPtr(U, L) : !structLeaves(U, L))
      return true;
    if (L.size() != 1 || F.Vars[L[0]].Len > 0) { // (structLayout made it)
      error(U->getBeginLoc(), "this union", "use a local union");
      return true;
    }
    S.Var = L[0];
  }
  // Its place: little-endian, as the field offsets clang computes.
  for (size_t I = UPos; I-- > 0;) {
    if (const auto *ME = dyn_cast<MemberExpr>(Path[I])) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD) {
        error(ME->getBeginLoc(), "union member access", "name a member");
        return true;
      }
      S.Bit += (unsigned)Ctx.getFieldOffset(FD);
      continue;
    }
    const auto *AS = cast<ArraySubscriptExpr>(Path[I]);
    const auto *D = cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
    const auto *CAT = Ctx.getAsConstantArrayType(D->getSubExpr()->getType());
    uint64_t EB = Ctx.getTypeSize(AS->getType());
    Expr::EvalResult R;
    if (!AS->getIdx()->isValueDependent() &&
        AS->getIdx()->EvaluateAsInt(R, Ctx)) {
      int64_t K = R.Val.getInt().getExtValue();
      if (!CAT || K < 0 || (uint64_t)K >= CAT->getSize().getZExtValue()) {
        error(AS->getIdx()->getBeginLoc(),
              "element " + std::to_string(K) + " of a union's array member",
              "index within the array");
        return true;
      }
      S.Bit += (unsigned)(K * EB);
      continue;
    }
    int T = expr(AS->getIdx());
    if (T < 0)
      return true;
    T = B.mul(B.cast(Type::I32, T), B.constI(Type::I32, (int64_t)EB));
    S.Shift = S.Shift < 0 ? T : B.add(S.Shift, T);
  }
  QualType VT = E->getType();
  auto IT = irType(VT);
  if (!IT || *IT == Type::Bool) { // (unionStorage allows no _Bool)
    error(E->getBeginLoc(), "using a struct or array in a union as a whole",
          "read and write its scalar members");
    return true;
  }
  S.View = VT;
  S.Bits = (unsigned)Ctx.getTypeSize(VT);
  S.Site = (int)Sites.size();
  Sites.push_back(E->getBeginLoc());
  Out = S;
  return true;
}

/// The same bits as \p To (of \p A's width): a bit cast between a float
/// and an integer, a conversion between integers.
static int reinterpret(ir::Builder &B, const ir::Function &F, Type To, int A,
                       int Site) {
  Type From = F.Temps[A];
  if (From == To)
    return A;
  if (!ir::isFloat(From) && !ir::isFloat(To))
    return B.cast(To, A);
  int D = B.bitcast(To, A);
  B.block()->back()->Site = Site; // for analysis/BitCasts' error
  return D;
}

/// The shift of a member's bits in storage of type \p ST: constant \p Bit
/// plus the I32 temp \p Shift (-1: none); -1 for none.
static int shiftOf(ir::Builder &B, int Shift, unsigned Bit, Type ST) {
  if (Shift < 0)
    return Bit ? B.constI(ST, Bit) : -1;
  int T = B.cast(ST, Shift);
  return Bit ? B.add(T, B.constI(ST, Bit)) : T;
}

int Lowerer::loadBits(const LValue &L) {
  LValue Raw = L;
  Raw.View = QualType();
  int S = load(Raw);
  Type ST = F.Temps[S], VT = *irType(L.View);
  int V = S;
  if (L.Bits < ir::bitWidth(ST)) { // a word of the bits, or less
    if (int Sh = shiftOf(B, L.Shift, L.Bit, ST); Sh >= 0)
      V = B.bin(Op::Shr, V, Sh);
    V = B.cast(Type::U32, V);
  }
  if (ir::isFloat(VT))
    return reinterpret(B, F, VT, V, L.Site);
  V = B.cast(VT, V);
  if (auto N = narrowing(L.View))
    V = B.un(*N, V);
  return V;
}

void Lowerer::storeBits(const LValue &L, int V) {
  LValue Raw = L;
  Raw.View = QualType();
  Type ST = typeOf(Raw), VT = F.Temps[V];
  if (L.Bits == ir::bitWidth(ST)) { // straight to the storage's type (a
    // signed one too), so ForwardVars sees a bit cast read back
    store(Raw,
          ir::isFloat(VT) ? reinterpret(B, F, ST, V, L.Site) : B.cast(ST, V));
    return;
  }
  if (ir::isFloat(VT))
    V = reinterpret(B, F, VT == Type::F32 ? Type::U32 : Type::U64, V, L.Site);
  // Insert: the other bits kept, these replaced.
  uint64_t Ones = ir::bitWidth(ST) == 64 ? ~0ull : 0xffffffffull;
  uint64_t M = L.Bits >= 32 ? 0xffffffffull : (1ull << L.Bits) - 1;
  int W = B.cast(ST, B.cast(Type::U32, V));
  if (L.Bits < 32)
    W = B.bin(Op::BitAnd, W, B.constI(ST, (int64_t)M));
  int Old = load(Raw), Keep;
  if (L.Shift < 0) {
    Keep = B.constI(ST, (int64_t)(~(M << L.Bit) & Ones));
    if (L.Bit)
      W = B.bin(Op::Shl, W, B.constI(ST, L.Bit));
  } else {
    int Sh = shiftOf(B, L.Shift, L.Bit, ST);
    W = B.bin(Op::Shl, W, Sh);
    Keep = B.un(Op::BitNot, B.bin(Op::Shl, B.constI(ST, (int64_t)M), Sh));
  }
  store(Raw, B.bin(Op::BitOr, B.bin(Op::BitAnd, Old, Keep), W));
}

std::vector<int> Lowerer::repack(const std::vector<int> &Vals, Type To,
                                 SourceLocation At) {
  int Site = (int)Sites.size();
  Sites.push_back(At);
  unsigned TW = ir::bitWidth(To);
  std::vector<int> Out;
  if (Vals.empty() || ir::bitWidth(F.Temps[Vals[0]]) == TW) {
    for (int V : Vals)
      Out.push_back(reinterpret(B, F, To, V, Site));
    return Out;
  }
  // Through 32-bit words, the low one first.
  std::vector<int> Words;
  int C32 = B.constI(Type::U64, 32);
  for (int V : Vals) {
    if (ir::bitWidth(F.Temps[V]) == 32) {
      Words.push_back(reinterpret(B, F, Type::U32, V, Site));
      continue;
    }
    int U = reinterpret(B, F, Type::U64, V, Site);
    Words.push_back(B.cast(Type::U32, U));
    Words.push_back(B.cast(Type::U32, B.bin(Op::Shr, U, C32)));
  }
  if (TW == 32) {
    for (int W : Words)
      Out.push_back(reinterpret(B, F, To, W, Site));
    return Out;
  }
  for (size_t K = 0; K + 1 < Words.size(); K += 2) {
    int Lo = B.cast(Type::U64, Words[K]);
    int Hi = B.bin(Op::Shl, B.cast(Type::U64, Words[K + 1]), C32);
    Out.push_back(reinterpret(B, F, To, B.bin(Op::BitOr, Lo, Hi), Site));
  }
  return Out;
}

bool Lowerer::unionInit(const LValue &S, QualType T, uint64_t Bit,
                        const Expr *Init) {
  Init = Init->IgnoreParens();
  if (isa<ImplicitValueInitExpr>(Init))
    return true; // the storage starts at zero
  if (const auto *IL = dyn_cast<InitListExpr>(Init)) {
    if (T->isUnionType()) {
      const FieldDecl *FD = IL->getInitializedFieldInUnion();
      return !FD || !IL->getNumInits() ||
             unionInit(S, FD->getType(), Bit, IL->getInit(0));
    }
    if (const auto *RT = T->getAs<RecordType>()) {
      unsigned I = 0;
      for (const FieldDecl *FD : RT->getDecl()->fields())
        if (I < IL->getNumInits() &&
            !unionInit(S, FD->getType(), Bit + Ctx.getFieldOffset(FD),
                       IL->getInit(I++)))
          return false;
      return true;
    }
    if (const auto *CAT = Ctx.getAsConstantArrayType(T)) {
      uint64_t EB = Ctx.getTypeSize(CAT->getElementType());
      for (unsigned J = 0; J < IL->getNumInits(); ++J)
        if (!unionInit(S, CAT->getElementType(), Bit + J * EB, IL->getInit(J)))
          return false;
      return true;
    }
    if (IL->getNumInits() == 1) // `{x}` for a scalar
      return unionInit(S, T, Bit, IL->getInit(0));
  } else if (auto IT = irType(T); IT && *IT != Type::Bool) {
    int V = expr(Init);
    if (V < 0)
      return false;
    LValue L = S;
    L.View = T;
    L.Bits = (unsigned)Ctx.getTypeSize(T);
    L.Bit = (unsigned)Bit;
    L.Site = (int)Sites.size();
    Sites.push_back(Init->getBeginLoc());
    storeBits(L, V);
    return true;
  }
  error(Init->getBeginLoc(), "this initializer of a union member",
        "initialise its scalar members (braces and designators work)");
  return false;
}

} // namespace lowering
} // namespace batchdiff
