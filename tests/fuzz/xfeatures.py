"""The constructs of the second round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'tables': file-scope tables of char, signed/unsigned char, short,
unsigned short, int8_t, uint16_t and int elements (values past 127 and
32767 in the unsigned ones: widening must not sign-extend), one- and
two-dimensional, and two-dimensional float/double tables; static const
local tables (one- and two-dimensional, integer or floating) in the
functions and helpers.  Elements are read as int leaves (`I0[k]`,
`I1[i][j]`, per-example indices: gathers) and as floating leaves; rows of
the floating two-dimensional ones are arrays (helpers, pointer walks).

'walks': a ragged array parameter declared `const T *x` (its extent
inferred, docs/abi.md): walked once by `*p++` in a loop counted by its
length parameter (`for (i = 0; i < len; i++)`, `while (len--)`), to an
end pointer `x + len`, or indexed `x[i]` in a loop `i < len`; such a
function has no goto (a condition of the inference).  Counted walks of
local arrays and tables (`while (n--) s += *p++;`, n per example).

'arr2d': two-dimensional local arrays `double A[R][C]` (nested brace
initializers), elements read and written at computed indices, loops over
all elements, rows `A[i]` as arrays (helpers, pointers, memcpy),
`memset(A, 0, sizeof A)` and `memcpy(A, B, sizeof A)`.

Each draws random numbers only when enabled: the output of the other
features does not change."""
from markers import LF, TW, tname
from ofeatures import CWALKS
from rfeatures import RWALKS
from ufeatures import UWALKS
from vfeatures import VWALKS
from zfeatures import ZWALKS

# (C type, smallest, largest value) of the integer tables
ITYPES = [("signed char", -100, 100), ("unsigned char", 0, 255),
          ("char", 0, 100), ("short", -3000, 3000),
          ("unsigned short", 0, 65535), ("int8_t", -128, 127),
          ("uint16_t", 0, 65535), ("int", -1000, 1000)]
NEW = ("tables", "walks", "arr2d")


class XExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def xinit(self):
        self.itabs = []  # (name, ctype, dims) of the file's integer tables
        self.ftabs = []  # (name, t, R, C): two-dimensional floating tables
        self.ctypes = {}  # integer array (or row) name -> its C type

    # ------------------------------------------------------------ file
    def int_vals(self, lo, hi, n):
        # mostly small, some at the ends of the type's range
        out = []
        for _ in range(n):
            if self.r.random() < 0.25:
                out.append(self.r.choice([lo, hi]))
            else:
                out.append(self.r.randint(max(lo, -20), min(hi, 20)))
        return out

    def itab_init(self, ct, lo, hi, dims):
        if len(dims) == 1:
            return "{%s}" % ", ".join(str(v) for v in self.int_vals(
                lo, hi, dims[0]))
        return "{%s}" % ", ".join("{%s}" % ", ".join(
            str(v) for v in self.int_vals(lo, hi, dims[1]))
            for _ in range(dims[0]))

    def ftab_init(self, t, R, C):
        lits = [0.5, 1.5, -2.0, 0.25, -0.75, 1.25, 0.125, -1.0, 3.0, 0.375]
        return "{%s}" % ", ".join("{%s}" % ", ".join(
            repr(self.r.choice(lits)) + (LF if t == "f" else "")
            for _ in range(C)) for _ in range(R))

    def table_decls(self):
        """The file's integer and 2-D floating tables."""
        out = []
        for i in range(self.r.randint(1, 2)):
            ct, lo, hi = self.r.choice(ITYPES)
            dims = (self.r.randint(3, 8),) if self.r.random() < 0.6 else \
                (self.r.randint(2, 4), self.r.randint(2, 4))
            nm = "I%d%s" % (i, TW)
            q = self.r.choice(["static const ", "static ", "const ", ""])
            d0 = str(dims[0]) if len(dims) == 2 or self.r.random() < 0.7 \
                else ""
            out.append("%s%s %s[%s]%s = %s;" % (
                q, ct, nm, d0, "".join("[%d]" % d for d in dims[1:]),
                self.itab_init(ct, lo, hi, dims)))
            self.itabs.append((nm, ct, dims))
        t = self.r.choice("ddf")
        R, C = self.r.randint(2, 4), self.r.randint(2, 4)
        nm = "D0%s" % TW
        out.append("%s%s %s[%d][%d] = %s;" % (
            self.r.choice(["static const ", "static ", ""]), tname(t), nm, R,
            C, self.ftab_init(t, R, C)))
        self.ftabs.append((nm, t, R, C))
        return out

    def add_array(self, g, nm, t, dims, ro, ct=None):
        """An array of the body: one-dimensional, or two-dimensional (kind
        'a2', its rows arrays of their own)."""
        if len(dims) == 1:
            g.scope.vars[nm] = ("a", t, ro, dims[0])
            if ct:
                self.ctypes[nm] = ct
            return
        g.scope.vars[nm] = ("a2", t, ro, dims)
        if ct:
            self.ctypes[nm] = ct
        for i in range(dims[0]):
            row = "%s[%d]" % (nm, i)
            g.scope.vars[row] = ("a", t, ro, dims[1])
            if ct:
                self.ctypes[row] = ct

    def use_tables(self, g):
        if "tables" not in self.f:
            return
        for nm, ct, dims in self.itabs:
            self.add_array(g, nm, "i", dims, True, ct)
        for nm, t, R, C in self.ftabs:
            if t in g.types:
                self.add_array(g, nm, t, (R, C), True)

    # ------------------------------------------------------------ leaves
    def idx(self, g, n):
        """An index into 0..n-1: a constant, or from an int variable (no
        recursion into expressions)."""
        ints = g.vars_of("i")
        if not ints or self.r.random() < 0.3:
            return str(self.r.randint(0, n - 1))
        return "(%s %% %d)" % (g.nonneg(self.r.choice(ints)[0]), n)

    def arrays2(self, g, t=None, writable=False):
        return [(nm, at, dims) for nm, (k, at, ro, dims) in
                g.scope.all().items()
                if k == "a2" and (t is None or at == t) and
                not (writable and ro)]

    def elem(self, g, nm, t):
        k, _, _, dims = g.scope.all()[nm]
        if k == "a2":
            return "%s[%s][%s]" % (nm, self.idx(g, dims[0]),
                                   self.idx(g, dims[1]))
        return "%s[%s]" % (nm, self.idx(g, dims))

    def fleaf(self, g, t):
        """An element of a 2-D array or of an integer table as a floating
        leaf, or None."""
        if not self.f & {"tables", "arr2d", "amem2"}:
            return None
        if self.r.random() >= 0.08:
            return None
        cand = [nm for nm, _, _ in self.arrays2(g)]
        cand += [nm for nm, (k, at, _, _) in g.scope.all().items()
                 if k == "a" and at == "i" and "[" not in nm]
        if not cand:
            return None
        nm = self.r.choice(cand)
        at = g.scope.all()[nm][1]
        return g.conv(self.elem(g, nm, t), at, t)

    def ileaf(self, g):
        """An element of an integer table as an int leaf, or None."""
        if "tables" not in self.f:
            return None
        if self.r.random() >= 0.15:
            return None
        cand = [nm for nm, (k, at, _, _) in g.scope.all().items()
                if k in ("a", "a2") and at == "i" and "[" not in nm]
        if not cand:
            return None
        nm = self.r.choice(cand)
        e = self.elem(g, nm, "i")
        # short elements reduced: int expressions multiply them (no signed
        # overflow), and 65535 % 1000 still tells zero- from sign-extension
        return "(%s %% 1000)" % e if "short" in self.ctypes.get(nm, "") or \
            "16" in self.ctypes.get(nm, "") else e

    # ------------------------------------------------------------ stmts
    def xstmt(self, g, ind, in_loop):
        """A statement of the second round, or False."""
        if g.walkp and not g.walked and g.loop_depth == 0:
            if g.walkp.walk in VWALKS:
                self.vwalk(g, ind)
            elif g.walkp.walk in UWALKS:
                self.uwalk(g, ind)
            elif g.walkp.walk in ZWALKS:
                self.zwalk(g, ind)
            elif g.walkp.walk in RWALKS:
                self.rwalk(g, ind)
            elif g.walkp.walk in CWALKS:
                self.owalk(g, ind)
            elif g.walkp.inter:
                self.inter_walk(g, ind)
            else:
                self.param_walk(g, ind)
            return True
        if self.ystmt(g, ind):
            return True
        if not self.f & set(NEW):
            return False
        r = self.r.random()
        if r < 0.06 and "tables" in self.f:
            self.static_table(g, ind)
            return True
        if r < 0.16 and "arr2d" in self.f:
            return self.arr2d_stmt(g, ind)
        if r < 0.22 and "walks" in self.f and g.loop_depth < 2:
            return self.local_walk(g, ind)
        return False

    def static_table(self, g, ind):
        nm = g.fresh("st")
        if self.r.random() < 0.5:
            ct, lo, hi = self.r.choice(ITYPES)
            dims = (self.r.randint(2, 6),) if self.r.random() < 0.4 else \
                (self.r.randint(2, 4), self.r.randint(2, 3))
            g.emit(ind, "static const %s %s%s = %s;" % (
                ct, nm, "".join("[%d]" % d for d in dims),
                self.itab_init(ct, lo, hi, dims)))
            self.add_array(g, nm, "i", dims, True, ct)
            return
        t = self.r.choice(g.types)
        R, C = self.r.randint(2, 4), self.r.randint(2, 4)
        g.emit(ind, "static const %s %s[%d][%d] = %s;" % (
            tname(t), nm, R, C, self.ftab_init(t, R, C)))
        self.add_array(g, nm, t, (R, C), True)

    def arr2d_stmt(self, g, ind):
        k = self.r.randrange(5)
        mine = self.arrays2(g, writable=True)
        if k <= 1 or not mine:
            t = self.r.choice(g.types)
            R, C = self.r.randint(2, 4), self.r.randint(2, 4)
            nm = g.fresh("A")
            if self.r.random() < 0.2:
                init = "{0}"
            else:
                init = "{%s}" % ", ".join(
                    "{%s}" % ", ".join(g.fexpr(t, 2) for _ in range(
                        self.r.randint(1, C)))
                    for _ in range(self.r.randint(1, R)))
            g.emit(ind, "%s %s[%d][%d] = %s;" % (tname(t), nm, R, C, init))
            self.add_array(g, nm, t, (R, C), False)
            return True
        nm, t, (R, C) = self.r.choice(mine)
        if k == 2:
            g.emit(ind, "%s[%s][%s] %s %s;" % (
                nm, self.idx(g, R), self.idx(g, C),
                self.r.choice(["=", "+=", "-="]), g.fexpr(t, 1)))
        elif k == 3 and g.loop_depth < 2:
            i, j = g.fresh("i"), g.fresh("j")
            g.emit(ind, "for (int %s = 0; %s < %d; %s++)" % (i, i, R, i))
            g.emit(ind + 1, "for (int %s = 0; %s < %d; %s++)" % (j, j, C, j))
            g.push()
            g.scope.vars[i] = ("v", "i", True, 0)
            g.scope.vars[j] = ("v", "i", True, 0)
            g.emit(ind + 2, "%s[%s][%s] = %s[%s][%s] * %s + %s;" % (
                nm, i, j, nm, i, j, g.lit_exact(t, 0.5), g.fexpr(t, 2)))
            g.pop()
        else:
            # any 2-D array or table of the type with as many elements
            # (a flat copy: shapes may differ)
            same = [o for o, ot, od in self.arrays2(g) if ot == t and
                    od[0] * od[1] >= R * C and o != nm and "." not in o]
            if "." in nm:  # a struct's member: element loops only
                g.emit(ind, "%s[0][%s] = %s;" % (nm, self.idx(g, C),
                                                 g.fexpr(t, 1)))
            elif same and self.r.random() < 0.6:
                g.emit(ind, "memcpy(%s, %s, sizeof %s);" % (
                    nm, self.r.choice(same), nm))
            else:
                g.emit(ind, "memset(%s, 0, sizeof %s);" % (nm, nm))
        return True

    def ptype(self, g, nm, t):
        return self.ctypes.get(nm) or tname(t)

    def local_walk(self, g, ind):
        """A counted walk of an array or table: `for (i < n) *p++` or
        `while (n--) *p++`, n a per-example count of at most its size."""
        arrs = [a for a in g.arrays() if a[1] in g.types + "i"]
        fw = g.vars_of("fd", writable=True)
        if not arrs or not fw:
            return False
        nm, at, sz = self.r.choice(arrs)
        acc, t = self.r.choice(fw)
        off = self.r.randint(0, sz - 1)
        m = sz - off
        p, n = g.fresh("p"), g.fresh("n")
        g.emit(ind, "{")
        g.emit(ind + 1, "const %s *%s = %s;" % (self.ptype(g, nm, at), p,
                                               g.sub_array(nm, off)))
        if self.r.random() < 0.5:
            g.emit(ind + 1, "int %s = %d;" % (n, self.r.randint(0, m)))
        else:
            g.emit(ind + 1, "int %s = %s %% %d;" % (
                n, g.nonneg(g.int_expr(1)), m + 1))
        v = "*%s++" % p
        upd = "%s = %s * %s + %s;" % (acc, acc, g.lit_exact(t, 0.5),
                                      g.conv(v, at, t))
        if self.r.random() < 0.5:
            i = g.fresh("i")
            g.emit(ind + 1, "for (int %s = 0; %s < %s; %s++)" % (i, i, n, i))
        else:
            g.emit(ind + 1, "while (%s%s)" % (n, self.r.choice(
                ["--", "-- > 0"])))
        g.emit(ind + 2, upd)
        g.emit(ind, "}")
        return True

    def param_walk(self, g, ind):
        """The one walk of a ragged parameter declared `const T *x`: its
        extent comes from this loop (docs/abi.md, "Array parameters")."""
        cp = g.walkp
        g.walked = True
        x, ln, T = cp.nm, cp.lenp.nm, tname(cp.t)
        g.loop_depth += 1
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        v = g.fresh("v")
        if cp.walk in ("for", "while"):
            p = x
            if self.r.random() < 0.5:
                p = g.fresh("p")
                g.emit(i1, "const %s *%s = %s;" % (T, p, x))
            if cp.walk == "for":
                i = g.fresh("i")
                g.emit(i1, "for (int %s = 0; %s < %s; %s++) {" % (i, i, ln,
                                                                 i))
                g.scope.vars[i] = ("v", "i", True, 0)
            else:
                g.emit(i1, "while (%s%s) {" % (ln, self.r.choice(
                    ["--", "-- > 0"])))
            g.emit(i1 + 1, "%s %s = *%s++;" % (T, v, p))
        elif cp.walk == "end":
            p = g.fresh("p")
            if self.r.random() < 0.5:
                g.emit(i1, "for (const %s *%s = %s; %s < %s + %s; %s++) {" % (
                    T, p, x, p, x, ln, p))
            else:
                e = g.fresh("e")
                g.emit(i1, "const %s *%s = %s + %s;" % (T, e, x, ln))
                g.emit(i1, "for (const %s *%s = %s; %s != %s; %s++) {" % (
                    T, p, x, p, e, p))
            g.emit(i1 + 1, "%s %s = *%s;" % (T, v, p))
        else:
            i = g.fresh("i")
            g.emit(i1, "for (int %s = 0; %s < %s; %s++) {" % (i, i, ln, i))
            g.scope.vars[i] = ("v", "i", True, 0)
            g.emit(i1 + 1, "%s %s = %s[%s];" % (T, v, x, i))
        g.scope.vars[v] = ("v", cp.t, True, 0)
        fw = g.vars_of("fd", writable=True)
        if fw:
            nm, t = self.r.choice(fw)
            g.emit(i1 + 1, "%s = %s * %s + %s;" % (
                nm, nm, g.lit_exact(t, 0.5), g.conv(v, cp.t, t)))
        g.block(i1 + 1, True, self.r.randint(1, 3))
        g.emit(i1, "}")
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1
