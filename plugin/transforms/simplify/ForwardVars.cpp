//===- ForwardVars.cpp - reuse known values of variables ------------------===//
#include "transforms/simplify/ForwardVars.h"

#include <map>
#include <set>

namespace batchdiff {
namespace {

using ir::Op;

struct Forwarder {
  ir::Function &F;
  std::vector<int> Repl;        // temp -> the temp that replaces it (or itself)
  std::vector<int> BitSrc = {}; // a Bitcast's temp -> its operand (else -1)
  /// A ConstI, BitAnd or BitOr's temp -> its statement (else null).
  std::vector<const ir::Stmt *> Def = {};

  int rep(int T) const { return T >= 0 ? Repl[T] : T; }

  /// `bits(x) & M` (either order), bits(x) a Bitcast of float x of type
  /// \p Ty (its temp into \p Bits) and M a constant of \p Mask's bits: x,
  /// else -1.
  int masked(int T, uint64_t Mask, ir::Type Ty, int *Bits = nullptr) const {
    const ir::Stmt *D = T >= 0 ? Def[T] : nullptr;
    if (!D || D->Opc != Op::BitAnd)
      return -1;
    unsigned W = ir::bitWidth(Ty);
    uint64_t All = W >= 64 ? ~0ULL : (1ULL << W) - 1;
    for (int K = 0; K < 2; ++K) {
      const ir::Stmt *C = Def[D->Args[1 - K]];
      int X = BitSrc[D->Args[K]];
      if (C && C->Opc == Op::ConstI && ((uint64_t)C->IVal & All) == Mask &&
          X >= 0 && F.Temps[X] == Ty) {
        if (Bits)
          *Bits = D->Args[K];
        return X;
      }
    }
    return -1;
  }

  /// A new statement \p O of \p Args into a new temp of type \p T, added
  /// to \p Kept.
  int push(ir::Block &Kept, Op O, ir::Type T, std::vector<int> Args, int Site) {
    auto N = std::make_unique<ir::Stmt>();
    N->Opc = O;
    N->Dst = F.newTemp(T);
    N->Args = std::move(Args);
    N->Site = Site;
    Repl.push_back(N->Dst);
    BitSrc.push_back(-1);
    Def.push_back(nullptr);
    int D = N->Dst;
    Kept.push_back(std::move(N));
    return D;
  }

  /// Bitcast \p S of integer bits r to a float, where r is musl's fabs of
  /// x, `bits(x) & ~sign` (`u.i &= -1ULL/2`), or copysign of x and y,
  /// `(bits(x) & ~sign) | (bits(y) & sign)` (either order): `r !=
  /// bits(x) ? -x : x`, the same bits (a negation flips the sign bit
  /// only), with a derivative that follows the sign bit, as the code
  /// around such bits does (musl's asinh: `s ? -y : y` of y computed from
  /// |x|; at x = -0 too). The statements computing the sign go into \p
  /// Kept. Whether it did.
  bool signOp(ir::Stmt &S, ir::Block &Kept) {
    ir::Type Ty = F.Temps[S.Dst];
    int R = S.Args[0];
    if (!ir::isFloat(Ty) || ir::isFloat(F.Temps[R]))
      return false;
    uint64_t Sign = 1ULL << (ir::bitWidth(Ty) - 1), Abs = Sign - 1;
    int Bits = -1, X = masked(R, Abs, Ty, &Bits);
    const ir::Stmt *D = Def[R];
    for (int K = 0; X < 0 && D && D->Opc == Op::BitOr && K < 2; ++K)
      if (masked(D->Args[1 - K], Sign, Ty) >= 0)
        X = masked(D->Args[K], Abs, Ty, &Bits);
    if (X < 0 || F.Temps[Bits] != F.Temps[R])
      return false;
    int Flip = push(Kept, Op::CmpNE, ir::Type::Bool, {R, Bits}, S.Site);
    int Neg = push(Kept, Op::Neg, Ty, {X}, S.Site);
    S.Opc = Op::Select;
    S.Args = {Flip, Neg, X};
    return true;
  }

  static void setsIn(const ir::Block &B, std::set<int> &Out) {
    ir::walk(B, [&](const ir::Stmt &S, int) {
      if (S.K == ir::Stmt::Inst && S.Opc == Op::SetVar)
        Out.insert(S.Var);
    });
  }

  /// \p Into gets \p From's elements (the smaller set goes into the larger).
  static void merge(std::set<int> &Into, std::set<int> &&From) {
    if (Into.size() < From.size())
      std::swap(Into, From);
    Into.insert(From.begin(), From.end());
  }

  /// \p Known maps a scalar variable to the temp holding its value here.
  /// Returns the variables \p B writes, nested statements too: an if's
  /// writes are its sides', not a walk of the if per level of a nest of
  /// ifs (quadratic: 10,000 early returns nest 10,000 ifs).
  std::set<int> block(ir::Block &B, std::map<int, int> Known) {
    std::set<int> All;
    ir::Block Kept;
    for (auto &SP : B) {
      ir::Stmt &S = *SP;
      for (int &A : S.Args)
        A = rep(A);
      if (S.K == ir::Stmt::Inst) {
        if (S.Opc == Op::GetVar && F.Vars[S.Var].Len == 0) {
          auto It = Known.find(S.Var);
          if (It != Known.end()) {
            Repl[S.Dst] = It->second;
            continue; // the read is redundant
          }
          Known[S.Var] = S.Dst;
        } else if (S.Opc == Op::SetVar) {
          Known[S.Var] = S.Args[0];
          All.insert(S.Var);
        } else if (S.Opc == Op::Bitcast) {
          // Bits cast back to their own type (a union's double written
          // and read back): the value itself, with its derivative.
          int Src = BitSrc[S.Args[0]];
          if (Src >= 0 && F.Temps[Src] == F.Temps[S.Dst]) {
            Repl[S.Dst] = Src;
            continue;
          }
          if (!signOp(S, Kept))
            BitSrc[S.Dst] = S.Args[0];
        } else if (S.Opc == Op::ConstI || S.Opc == Op::BitAnd ||
                   S.Opc == Op::BitOr) {
          Def[S.Dst] = &S;
        }
        Kept.push_back(std::move(SP));
        continue;
      }
      std::set<int> Written;
      if (S.K == ir::Stmt::If) {
        S.Cond = rep(S.Cond);
        Written = block(S.Then, Known);
        merge(Written, block(S.Else, Known));
        setsIn(S.Body, Written);
      } else {
        setsIn(S.Then, Written);
        setsIn(S.Else, Written);
        setsIn(S.Body, Written);
        // The body runs again after its own stores: only values of
        // variables the loop never writes stay known inside.
        std::map<int, int> Inner = Known;
        for (int V : Written)
          Inner.erase(V);
        block(S.Body, Inner);
        S.Cond = rep(S.Cond);
      }
      for (int V : Written)
        Known.erase(V);
      merge(All, std::move(Written));
      Kept.push_back(std::move(SP));
    }
    B = std::move(Kept);
    return All;
  }
};

} // namespace

void forwardVars(ir::Function &F) {
  Forwarder Fw{F, {}};
  Fw.Repl.resize(F.Temps.size());
  Fw.BitSrc.assign(F.Temps.size(), -1);
  Fw.Def.assign(F.Temps.size(), nullptr);
  for (size_t T = 0; T < F.Temps.size(); ++T)
    Fw.Repl[T] = (int)T;
  Fw.block(F.Body, {});
}

} // namespace batchdiff
