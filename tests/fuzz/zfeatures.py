"""The constructs of the fourth round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'math2': lgamma and tgamma (differentiable since 2bfa215) of positive,
moderate arguments (`lgamma(fmin(fabs(e), 20) + 2.5)`, `tgamma(fmin(fabs(e),
4) + 0.5)`), copysign, and the classification macros isnan, isinf,
isfinite and signbit as conditions and int leaves.

'bits' : bit casts by memcpy (65085d2): a value's bits read into a uint64_t
(double) or int32_t/uint32_t (float) local, used only as a sign, an exponent
or the top mantissa bit (conditions and int leaves, never back to a float:
that is an error in a diff function), and scales 2^k built from the bits of
an integer k that comes from no float's bits (`(uint64_t)(k + 1023) << 52`
copied into a double).  The bit cast's own operand is always of the
function's type (`double t = (double)(e)`, `float t = (float)(e)` in every
rendering), so the twins read the bits the function reads.

'choice' (3a44bca): file-scope tables Z0, Z1, ... of different lengths and
static local tables; a pointer chosen per example among two or three of
one type (`const T *c = cond ? Z0 : Z1;`, if / else if / else), then used
as an array of the shortest one's length (indices, helpers, walks).

'bools' (49e695e): file-scope _Bool tables (1-D and 2-D, const or not),
read at constant and per-example indices as ints and conditions, and
through a helper taking `const _Bool *`.

'sarr' (with 'structs', 2055352): local arrays of structs `S0 sa[3] =
{...}` (nested, partial, designated initializers, {0}): members read and
written at computed indices, whole elements copied, passed by value and by
pointer (`&sa[i]`, `sa + i`, `S *r = &sa[i]`), the whole array to a helper
taking `const S0 *`.

'arr3d' (0cc2c11): three-dimensional local arrays `T A[P][R][C]` (nested
partial initializers or {0}), file-scope and static local 3-D tables, and
array parameters `const T c[P][R][C]` (strided, BD_PACKED, BD_POINTERS,
BD_UNIFORM); elements at computed indices, loops over every element, rows
`A[p][i]` as arrays, planes `A[p]` to a helper taking `const T p[R][C]`,
memset/memcpy of the whole array.  One plane shape R x C per file.

'steps' (with 'walks', 083e999, 43be7bb): the walked ragged parameter
`const T *x` stepped itself (`x += k;` / `x++;` as the loop's last
statement, `i++, x += k` / `++x` in the for increment, `while (len--)`),
and nested-loop walks: a row pointer `for (j < k) ... row[j]; row += k;`
(the parameter itself or a copy) and `*x++` in an inner loop `for (j < k)`;
extent k * len.

'sret' (with 'structs'): struct return values (eb3ea60, 16fa94a): the
adapters give the harness the sum of the members weighted by powers of two
(the weights are NAME_grad's and NAME_hvp's d_ret records; NAME_jvp's
tangent records are summed with the same weights).

Each draws random numbers only when enabled: the output of the other
features does not change."""
import re

from markers import DBL, FLT, LF, MD, MF, NS, TW, tname

NEW4 = ("math2", "bits", "choice", "bools", "sarr", "arr3d", "steps",
        "sret")
# the walks of 'steps' (CP.walk)
ZWALKS = ("sadd", "spost", "spre", "swhile", "nrow", "nself", "npp")
# a file or static local table: a candidate of a choice of tables
TABLE = re.compile(r"^(T\d+|Z\d+)" + re.escape(TW) + r"$|^tab\d+$")


def zflat(cps):
    """The number of flat parameters of cps (at most FZ_MAXP = 64)."""
    return sum(cp.size() for cp in cps)


def mname(fn, t):
    return fn + (MF if t == "f" else MD)


class ZExt:
    """Mixin of features.Ext (self.r, self.f, self.structs)."""

    def zinit(self):
        self.zbools = []  # (name, dims)
        self.z3 = []  # (name, t, dims) file-scope 3-D tables
        self.plane = None  # (R, C) of every 3-D array of the file
        self.sret = None  # the struct return type of the next function
        self.ztables = []  # (name, t, length): tables to choose among

    def zon(self):
        return bool(self.f & set(NEW4))

    # ------------------------------------------------------------ file
    def zfile_decls(self):
        out = []
        lits = [0.5, 1.5, -2.0, 0.25, -0.75, 1.25, 0.125, -1.0, 3.0, 0.375]
        if "choice" in self.f:
            # tables of different lengths to choose among (and the T ones)
            for i in range(self.r.randint(3, 4)):
                t = "df"[i % 2] if i < 2 else self.r.choice("df")
                n = self.r.randint(3, 7)
                out.append("%s%s Z%d%s[%d] = {%s};" % (
                    self.r.choice(["static const ", "static ", "const ", ""]),
                    tname(t), i, TW, n, ", ".join(
                        repr(self.r.choice(lits)) + (LF if t == "f" else "")
                        for _ in range(n))))
                self.ztables.append(("Z%d%s" % (i, TW), t, n))
        if "bools" in self.f:
            for i in range(self.r.randint(1, 2)):
                dims = (self.r.randint(3, 8),) if self.r.random() < 0.6 \
                    else (self.r.randint(2, 3), self.r.randint(2, 4))
                nm = "B%d%s" % (i, TW)
                if len(dims) == 1:
                    init = "{%s}" % ", ".join(str(self.r.randint(0, 1))
                                              for _ in range(dims[0]))
                else:
                    init = "{%s}" % ", ".join("{%s}" % ", ".join(
                        str(self.r.randint(0, 1)) for _ in range(dims[1]))
                        for _ in range(dims[0]))
                out.append("%s_Bool %s%s = %s;" % (
                    self.r.choice(["static const ", "static ", "const ", ""]),
                    nm, "".join("[%d]" % d for d in dims), init))
                self.zbools.append((nm, dims))
            for t in "df":
                T = tname(t)
                out += ["static inline %s masked_%s%s(const _Bool *on, "
                        "const %s *c, int n, %s x) {" % (T, t, TW, T, T),
                        "  %s s = 0;" % T, "  for (int i = 0; i < n; i++)",
                        "    if (on[i])", "      s = s * x + c[i];",
                        "  return s;", "}"]
        if "arr3d" in self.f:
            self.plane = (self.r.randint(2, 3), self.r.randint(2, 4))
            R, C = self.plane
            for t in "df":
                T = tname(t)
                out += ["static inline %s zplane_%s%s(const %s p[%d][%d], "
                        "%s w) {" % (T, t, TW, T, R, C, T),
                        "  %s s = 0;" % T,
                        "  for (int i = 0; i < %d; i++)" % R,
                        "    for (int j = 0; j < %d; j++)" % C,
                        "      s = s * w + p[i][j];", "  return s;", "}"]
            t = self.r.choice("ddf")
            P = self.r.randint(2, 3)
            out.append("%s%s Q3%s[%d][%d][%d] = %s;" % (
                self.r.choice(["static const ", "static ", ""]), tname(t),
                TW, P, R, C, self.init3(t, P, lambda: repr(
                    self.r.choice(lits)) + (LF if t == "f" else ""))))
            self.z3.append(("Q3%s" % TW, t, (P, R, C)))
        if "sarr" in self.f:
            for st in self.structs:
                D = tname(st.dt)
                out += ["static inline %s %s_sum%s(const %s *ps, int n) {" % (
                    D, st.base, TW, st.name), "  %s a = 0;" % D,
                    "  for (int i = 0; i < n; i++)",
                    "    a = a * 0.5%s + %s_dot%s(ps[i], ps[i]);" % (
                        LF if st.dt == "f" else "", st.base, TW),
                    "  return a;", "}"]
        return out

    def init3(self, t, P, leaf, full=True):
        """A nested initializer of a P x R x C array (partial unless full)."""
        R, C = self.plane
        if full:
            return "{%s}" % ", ".join("{%s}" % ", ".join(
                "{%s}" % ", ".join(leaf() for _ in range(C))
                for _ in range(R)) for _ in range(P))
        return "{%s}" % ", ".join("{%s}" % ", ".join(
            "{%s}" % ", ".join(leaf() for _ in range(self.r.randint(1, C)))
            for _ in range(self.r.randint(1, R)))
            for _ in range(self.r.randint(1, P)))

    def zuse(self, g):
        """The file's _Bool, choice and 3-D tables in a body's scope."""
        for nm, dims in self.zbools:
            self.add_array(g, nm, "i", dims, True, "_Bool")
        for nm, t, n in self.ztables:
            if t in g.types:
                g.scope.vars[nm] = ("a", t, True, n)
        for nm, t, dims in self.z3:
            if t in g.types:
                self.add3(g, nm, t, dims, True)

    def add3(self, g, nm, t, dims, ro):
        g.scope.vars[nm] = ("a3", t, ro, dims)
        for p in range(dims[0]):
            for i in range(dims[1]):
                g.scope.vars["%s[%d][%d]" % (nm, p, i)] = ("a", t, ro,
                                                          dims[2])

    # ------------------------------------------------------------ params
    def zparams(self, types, cps, cp_class):
        """The fourth round's parameters: a walk of 'steps' for the walked
        ragged parameter, a 3-D array parameter, a struct return type."""
        self.sret = None
        if "steps" in self.f:
            for cp in cps:
                if cp.kind == "a" and cp.walk and cp.lenp and \
                        self.r.random() < 0.6:
                    k = cp.inter or 1
                    form = self.r.choice(ZWALKS)
                    if form in ("nrow", "nself", "npp") and k == 1:
                        k = self.r.randint(2, 4)
                        if zflat(cps) + (k - 1) * cp.lenp.lenmax > 64:
                            continue
                        cp.inter, cp.dims = k, (k * cp.lenp.lenmax,)
                    cp.walk = form
                    if form == "swhile":
                        cp.lenp.u = False  # the walk decrements it
        if "arr3d" in self.f and self.r.random() < 0.3:
            R, C = self.plane
            P = self.r.randint(1, 2)
            if zflat(cps) + P * R * C <= 64:
                cp = cp_class("a", "xc%d" % len(cps), self.r.choice(types),
                              dims=(P, R, C))
                cp.layout = self.r.choice(["", "", "packed", "pointers"])
                if not cp.layout and self.r.random() < 0.2:
                    cp.u = True
                cp.nd = self.r.random() < 0.1
                cps.append(cp)
        if "sret" in self.f:
            sts = [st for st in self.usable(types)]
            if sts and self.r.random() < 0.3:
                self.sret = self.r.choice(sts)

    def zsetup(self, g, cps):
        for cp in cps:
            if cp.kind == "a" and len(cp.dims) == 3:
                self.add3(g, cp.nm, cp.t, cp.dims, True)
        g.sret = self.sret

    # ------------------------------------------------------------ leaves
    def zidx(self, g, n):
        return self.idx(g, n)

    def zfleaf(self, g, t):
        """A floating leaf of the fourth round, or None."""
        if self.r.random() >= 0.12:
            return None
        k = self.r.randrange(8)
        T = tname(t)
        if k == 0 and "math2" in self.f:
            if not g.allow_transc:
                return "%s(%s, %s)" % (mname("copysign", t), g.fexpr(t, 2),
                                       g.fexpr(t, 2))
            g.transc = True
            if self.r.random() < 0.6:
                return "%s(%s(%s(%s), %s) + %s)" % (
                    mname("lgamma", t), mname("fmin", t), mname("fabs", t),
                    g.fexpr(t, 2), g.lit_exact(t, self.r.choice([6.0, 20.0])),
                    g.lit_exact(t, 2.5))
            return "%s(%s(%s(%s), %s) + %s)" % (
                mname("tgamma", t), mname("fmin", t), mname("fabs", t),
                g.fexpr(t, 2), g.lit_exact(t, 4.0), g.lit_exact(t, 0.5))
        if k == 1 and "math2" in self.f:
            c = self.r.choice(["isnan", "isinf", "isfinite", "signbit",
                               "!signbit"])
            return "(%s(%s) ? %s : %s)" % (c, g.fexpr(t, 2), g.fleaf(t),
                                           g.fleaf(t))
        if k == 2 and "bits" in self.f:
            bv = self.bitvars(g)
            if bv:
                return g.conv(self.bitint(g, self.r.choice(bv)), "i", t)
        bools = self.inscope(g, self.zbools)
        if k == 3 and "bools" in self.f and bools:
            nm, dims = self.r.choice(bools)
            if self.r.random() < 0.5:
                return "(%s ? %s : %s)" % (self.elem(g, nm, "i"), g.fleaf(t),
                                           g.fleaf(t))
            arrs = g.arrays_of(t, 1)
            if arrs and len(dims) == 1:
                a, _, sz = self.r.choice(arrs)
                m = min(sz, dims[0])
                return "masked_%s%s(%s, %s, %d, %s)" % (
                    t, TW, nm, a, self.r.randint(1, m),
                    g.clamp1(g.fexpr(t, 2), t))
        if k == 4 and "sarr" in self.f:
            sa = self.sarrays(g, t)
            if sa:
                nm, st, n = self.r.choice(sa)
                if self.r.random() < 0.3:
                    return g.conv("%s_dot%s(%s[%s], %s[%s])" % (
                        st.base, TW, nm, self.idx(g, n), nm, self.idx(g, n)),
                        st.dt, t)
                if self.r.random() < 0.2:
                    return g.conv("%s_sum%s(%s, %d)" % (
                        st.base, TW, nm, self.r.randint(1, n)), st.dt, t)
                m, mt = self.r.choice(st.members)
                return g.conv("%s[%s].%s" % (nm, self.idx(g, n), m), mt, t)
        if k == 5 and "arr3d" in self.f:
            a3 = [(nm, at, d) for nm, (kk, at, _, d) in g.scope.all().items()
                  if kk == "a3" and at == t]
            if a3:
                nm, at, d = self.r.choice(a3)
                if self.r.random() < 0.3:
                    return "zplane_%s%s(%s[%s], %s)" % (
                        t, TW, nm, self.idx(g, d[0]), g.clamp1(
                            g.fexpr(t, 2), t))
                return "%s[%s][%s][%s]" % (nm, self.idx(g, d[0]),
                                           self.idx(g, d[1]),
                                           self.idx(g, d[2]))
        if k == 6 and "math2" in self.f:
            return "%s(%s, %s)" % (mname("copysign", t), g.fexpr(t, 2),
                                   g.fexpr(t, 2))
        return None

    def zileaf(self, g):
        """An int leaf of the fourth round, or None."""
        if self.r.random() >= 0.1:
            return None
        k = self.r.randrange(4)
        bools = self.inscope(g, self.zbools)
        if k == 0 and "bools" in self.f and bools:
            nm, _ = self.r.choice(bools)
            return self.elem(g, nm, "i")
        if k == 1 and "bits" in self.f:
            bv = self.bitvars(g)
            if bv:
                return self.bitint(g, self.r.choice(bv))
        if k == 2 and "math2" in self.f:
            t = self.r.choice(g.types)
            return "(%s(%s) != 0)" % (self.r.choice(
                ["isnan", "isinf", "isfinite", "signbit"]), g.fexpr(t, 2))
        if k == 3 and "math2" in self.f:
            t = self.r.choice(g.types)
            return "signbit(%s)" % g.fexpr(t, 2)
        return None

    @staticmethod
    def inscope(g, tabs):
        # (not in a label's return after the final one: parameters only)
        sc = g.scope.all()
        return [tb for tb in tabs if tb[0] in sc]

    # ------------------------------------------------------------ bits
    def bitvars(self, g):
        return [(nm, ut) for nm, (k, ut, _, _) in g.scope.all().items()
                if k == "bits"]

    def bitint(self, g, bv):
        """An int from a value's bits: its sign, exponent or top mantissa
        bit (piecewise constant: never fed back into a float's bits)."""
        nm, ut = bv
        k = self.r.randrange(3)
        if ut == "u64":
            return ["(int)(%s >> 63)" % nm,
                    "((int)(%s >> 52) & 0x7ff) - 1023" % nm,
                    "(int)((%s >> 51) & 1)" % nm][k]
        if ut == "u32":
            return ["(int)(%s >> 31)" % nm,
                    "((int)(%s >> 23) & 0xff) - 127" % nm,
                    "(int)((%s >> 22) & 1)" % nm][k]
        return ["(%s < 0)" % nm, "((%s >> 23) & 0xff) - 127" % nm,
                "((%s >> 22) & 1)" % nm][k]

    def bits_stmt(self, g, ind):
        t = self.r.choice(g.types)
        if self.r.random() < 0.6:
            # a value's bits
            u = g.fresh("u")
            b = g.fresh("b")
            if t == "d":
                ut, U, BT = "u64", "uint64_t", "double"
            else:
                ut = self.r.choice(["u32", "i32"])
                U, BT = ("uint32_t" if ut == "u32" else "int32_t"), "float"
            g.emit(ind, "%s %s;" % (U, u))
            g.emit(ind, "{")
            g.emit(ind + 1, "%s %s = %s((%s)(%s));" % (BT, b, NS, BT,
                                                       g.fexpr(t, 1)))
            g.emit(ind + 1, "memcpy(&%s, &%s, sizeof %s);" % (u, b, u))
            g.emit(ind, "}")
            g.scope.vars[u] = ("bits", ut, True, 0)
            return True
        # a scale 2^k from an integer's bits (k from no float's bits)
        s, b, c = g.fresh("s"), g.fresh("b"), g.fresh("c")
        lim = self.r.choice([4.0, 8.0, 30.0])
        k = g.conv(g.fexpr(t, 2), t, "i").replace("50.0", repr(lim))
        g.emit(ind, "%s %s;" % (tname(t), s))
        g.emit(ind, "{")
        if t == "d":
            g.emit(ind + 1, "uint64_t %s = (uint64_t)(%s + 1023) << 52;" % (
                b, k))
            g.emit(ind + 1, "double %s;" % c)
        else:
            g.emit(ind + 1, "int32_t %s = (%s + 127) << 23;" % (b, k))
            g.emit(ind + 1, "float %s;" % c)
        g.emit(ind + 1, "memcpy(&%s, &%s, sizeof %s);" % (c, b, c))
        g.emit(ind + 1, "%s = %s;" % (s, c))
        g.emit(ind, "}")
        g.scope.vars[s] = ("v", t, False, 0)
        return True

    # ------------------------------------------------------------ choice
    def choice_stmt(self, g, ind):
        t = self.r.choice(g.types)
        cand = [(nm, sz) for nm, (k, at, ro, sz) in g.scope.all().items()
                if k == "a" and at == t and ro and TABLE.match(nm)]
        if len(cand) < 2:
            return False
        picks = self.r.sample(cand, self.r.randint(2, min(3, len(cand))))
        n = min(sz for _, sz in picks)
        c = g.fresh("c")
        T = tname(t)
        if "pcall" in self.f and self.r.random() < 0.5:
            # (since d68b6d4 a call in the condition: vfeatures.py)
            self.pcall_choice(g, ind, picks, c, T, t)
        elif self.r.random() < 0.5:
            # (a '?:' choosing pointers takes no call in its condition: the
            # plugin refuses it, "a '?:' choosing pointers with side
            # effects", so the conditions are ints computed before)
            e = picks[-1][0]
            for nm, _ in reversed(picks[:-1]):
                k = g.fresh("ch")
                g.emit(ind, "int %s = %s;" % (k, g.cond(1)))
                e = "%s ? %s : %s" % (k, nm, e)
            g.emit(ind, "const %s *%s = %s;" % (T, c, e))
        else:
            g.emit(ind, "const %s *%s;" % (T, c))
            for j, (nm, _) in enumerate(picks):
                if j == 0:
                    g.emit(ind, "if %s" % g.cond(1))
                elif j < len(picks) - 1:
                    g.emit(ind, "else if %s" % g.cond(1))
                else:
                    g.emit(ind, "else")
                g.emit(ind + 1, "%s = %s;" % (c, nm))
        # an array of the shortest table's length (read only)
        g.scope.vars[c] = ("a", t, True, n)
        return True

    # ------------------------------------------------------------ sarr
    def sarrays(self, g, t=None):
        return [(nm, st, n) for nm, (k, st, _, n) in g.scope.all().items()
                if k == "sa"]

    def sarr_stmt(self, g, ind):
        sts = [st for st in self.usable(g.types)]
        if not sts:
            return False
        mine = self.sarrays(g)
        k = self.r.randrange(6)
        if k <= 1 or not mine:
            st = self.r.choice(sts)
            n = self.r.randint(2, 4)
            nm = g.fresh("sa")

            def rec():
                ms = st.members[:self.r.randint(1, len(st.members))]
                return "{%s}" % ", ".join(self.mval(g, t) for _, t in ms)
            r = self.r.random()
            if r < 0.15:
                init = "{0}"
            elif r < 0.4:
                m, mt = self.r.choice(st.members)
                j = self.r.randrange(n)
                init = "{%s[%d] = {.%s = %s}}" % (
                    (rec() + ", ") if j > 0 else "", j, m, self.mval(g, mt))
            else:
                init = "{%s}" % ", ".join(rec() for _ in range(
                    self.r.randint(1, n)))
            g.emit(ind, "%s %s[%d] = %s;" % (st.name, nm, n, init))
            g.scope.vars[nm] = ("sa", st, False, n)
            for j in range(n):
                self.add_struct(g, "%s[%d]" % (nm, j), st, False)
            return True
        nm, st, n = self.r.choice(mine)
        i = self.idx(g, n)
        if k == 2:
            m, mt = self.r.choice(st.members)
            g.emit(ind, "%s[%s].%s %s %s;" % (
                nm, i, m, self.r.choice(["=", "+=", "-="]),
                self.mval(g, mt)))
        elif k == 3:
            g.emit(ind, "%s[%s] = %s;" % (nm, i, self.r.choice([
                "%s[%s]" % (nm, self.idx(g, n)),
                "%s_make%s(%s)" % (st.base, TW, g.fexpr(st.dt, 1))])))
        elif k == 4:
            g.emit(ind, "%s_scale%s(%s, %s);" % (
                st.base, TW, self.r.choice(["&%s[%s]" % (nm, i),
                                            "%s + %s" % (nm, i)]),
                g.fexpr(st.dt, 1)))
        else:
            r = g.fresh("pr")
            m, mt = self.r.choice(st.members)
            g.emit(ind, "%s *%s = &%s[%s];" % (st.name, r, nm, i))
            g.emit(ind, "%s->%s = %s;" % (r, m, self.mval(g, mt)))
        return True

    def mval(self, g, t):
        """A value for a member of type t."""
        if t == "i":
            ft = self.r.choice(g.types)
            return g.conv(g.fexpr(ft, 2), ft, "i")
        return g.fexpr(t, 2)

    # ------------------------------------------------------------ arr3d
    def arr3d_stmt(self, g, ind):
        R, C = self.plane
        mine = [(nm, at, d) for nm, (k, at, ro, d) in g.scope.all().items()
                if k == "a3" and not ro]
        k = self.r.randrange(6)
        if k <= 1 or not mine:
            t = self.r.choice(g.types)
            P = self.r.randint(2, 3)
            nm = g.fresh("A")
            if k == 1 and self.r.random() < 0.5:
                g.emit(ind, "static const %s %s[%d][%d][%d] = %s;" % (
                    tname(t), nm, P, R, C, self.init3(t, P, lambda: g.lit(t))))
                self.add3(g, nm, t, (P, R, C), True)
                return True
            init = "{0}" if self.r.random() < 0.2 else self.init3(
                t, P, lambda: g.fexpr(t, 2), full=False)
            g.emit(ind, "%s %s[%d][%d][%d] = %s;" % (tname(t), nm, P, R, C,
                                                    init))
            self.add3(g, nm, t, (P, R, C), False)
            return True
        nm, t, (P, R, C) = self.r.choice(mine)
        if k == 2:
            g.emit(ind, "%s[%s][%s][%s] %s %s;" % (
                nm, self.idx(g, P), self.idx(g, R), self.idx(g, C),
                self.r.choice(["=", "+=", "-="]), g.fexpr(t, 1)))
        elif k == 3 and g.loop_depth < 2:
            i, j, l = g.fresh("i"), g.fresh("j"), g.fresh("l")
            g.emit(ind, "for (int %s = 0; %s < %d; %s++)" % (i, i, P, i))
            g.emit(ind + 1, "for (int %s = 0; %s < %d; %s++)" % (j, j, R, j))
            g.emit(ind + 2, "for (int %s = 0; %s < %d; %s++)" % (l, l, C, l))
            g.push()
            for v in (i, j, l):
                g.scope.vars[v] = ("v", "i", True, 0)
            g.emit(ind + 3, "%s[%s][%s][%s] = %s[%s][%s][%s] * %s + %s;" % (
                nm, i, j, l, nm, i, j, l, g.lit_exact(t, 0.5),
                g.fexpr(t, 2)))
            g.pop()
        elif k == 4:
            same = [o for o, ot, od in mine if ot == t and od == (P, R, C)
                    and o != nm]
            if same and self.r.random() < 0.6:
                g.emit(ind, "memcpy(%s, %s, sizeof %s);" % (
                    nm, self.r.choice(same), nm))
            else:
                g.emit(ind, "memset(%s, 0, sizeof %s);" % (nm, nm))
        else:
            g.emit(ind, "%s[%s][%s][%s] = %s;" % (
                nm, self.idx(g, P), self.idx(g, R), self.idx(g, C),
                g.lit(t)))
        return True

    # ------------------------------------------------------------ stmts
    def zstmt(self, g, ind, in_loop):
        """A statement of the fourth round, or False."""
        r = self.r.random()
        if r < 0.05 and "bits" in self.f:
            return self.bits_stmt(g, ind)
        if r < 0.09 and "choice" in self.f:
            return self.choice_stmt(g, ind)
        if r < 0.14 and "sarr" in self.f:
            return self.sarr_stmt(g, ind)
        if r < 0.19 and "arr3d" in self.f:
            return self.arr3d_stmt(g, ind)
        return False

    def zwalk(self, g, ind):
        """The one walk of a ragged parameter stepped itself or walked in
        nested loops (extent k * len: docs/abi.md, "Array parameters")."""
        cp = g.walkp
        g.walked = True
        x, ln, T, k = cp.nm, cp.lenp.nm, tname(cp.t), cp.inter or 1
        g.loop_depth += 1
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        i = g.fresh("i")
        p = x
        if cp.walk in ("nrow", "npp") and self.r.random() < 0.5:
            p = g.fresh("q")
            g.emit(i1, "const %s *%s = %s;" % (T, p, x))
        step = "%s += %d" % (p, k) if k > 1 else self.r.choice(
            ["%s += 1" % p, "%s++" % p, "++%s" % p])
        if cp.walk == "swhile":
            g.emit(i1, "while (%s%s) {" % (ln, self.r.choice(
                ["--", "-- > 0"])))
        else:
            g.emit(i1, "for (int %s = 0; %s < %s; %s++%s) {" % (
                i, i, ln, i, ", " + step if cp.walk == "spre" else ""))
            g.scope.vars[i] = ("v", "i", True, 0)
        vs = []
        if cp.walk in ("nrow", "nself", "npp"):
            j = g.fresh("j")
            v = g.fresh("v")
            g.emit(i1 + 1, "%s %s = 0;" % (T, v))
            g.emit(i1 + 1, "for (int %s = 0; %s < %d; %s++)" % (j, j, k, j))
            w = g.lit_exact(cp.t, self.r.choice([0.5, -0.75, 1.25]))
            e = "*%s++" % p if cp.walk == "npp" else "%s[%s]" % (p, j)
            g.emit(i1 + 2, "%s = %s * %s + %s;" % (v, v, w, e))
            g.scope.vars[v] = ("v", cp.t, True, 0)
            vs.append(v)
        else:
            for c in self.r.sample(range(k), k):
                v = g.fresh("v")
                e = "*%s" % p if c == 0 and self.r.random() < 0.5 else \
                    "%s[%d]" % (p, c)
                g.emit(i1 + 1, "%s %s = %s;" % (T, v, e))
                g.scope.vars[v] = ("v", cp.t, True, 0)
                vs.append(v)
        fw = g.vars_of("fd", writable=True)
        if fw:
            nm, t = self.r.choice(fw)
            g.emit(i1 + 1, "%s = %s * %s + %s;" % (
                nm, nm, g.lit_exact(t, 0.5), g.conv("%s * %s" % (
                    vs[0], vs[-1]) if len(vs) > 1 else vs[0], cp.t, t)))
        g.block(i1 + 1, True, self.r.randint(1, 3))
        if cp.walk in ("sadd", "spost", "swhile", "nrow", "nself"):
            g.emit(i1 + 1, "%s;" % step)
        g.emit(i1, "}")
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1

    # ------------------------------------------------------------ sret
    def sret_expr(self, g, st):
        """A value of the struct return type st: a struct of the body, a
        compound literal, a helper's result."""
        have = [nm for nm, s in self.struct_vars(g) if s is st]
        r = self.r.random()
        if have and r < 0.35:
            return self.r.choice(have)
        if have and r < 0.5:
            return "%s_add%s(%s, %s)" % (st.base, TW, self.r.choice(have),
                                         "%s_make%s(%s)" % (
                                             st.base, TW, g.fexpr(st.dt, 1)))
        if r < 0.75:
            return "(%s){%s}" % (st.name, ", ".join(
                self.mval(g, t) for _, t in st.members[:self.r.randint(
                    1, len(st.members))]))
        return "%s_make%s(%s)" % (st.base, TW, g.fexpr(st.dt, 1))
