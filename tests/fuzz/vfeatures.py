"""The constructs of the sixth round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'pcall' (with 'choice', d68b6d4): a pointer `?:` choosing a table whose
condition calls a function, `const T *c = fabs(x) < 0.5 ? Z0 : T0;` (a
<math.h> call, a helper or an earlier annotated function), nested `?:`
whose inner conditions (in an arm: computed in every lane) call only
<math.h> functions on a local computed before.

'protos' (4249d60): block-scope prototypes of the helpers and earlier
annotated functions a function calls (`double helper0(float, int);`,
with or without parameter names), as Numerical Recipes writes them.

'xloops' (with 'walks'; ab9655d, d0cc0ca): the walked ragged parameter
`const T *x` read by the loop shapes whose extents the plugin infers since:
`x[i] - x[i - 1]` from i = 1, `x[i + 1]` under `i < n - 1`, counting down
from n - 1, `for (i = n; i-- > 0;)`, `while (i < n) { ...; i++; }`, and
Horner from the top, `h = x[n]; for (i = n - 1; i >= 0; i--)` (extent
n + 1).

'nout' (6cc4a0e): output arrays of unsigned char, signed char, char,
short, unsigned short and _Bool elements (`unsigned char xo5[4]`, ragged
`short xo6[ln2]`; strided, BD_PACKED, BD_POINTERS), written (`=`, `+=`,
`-=`, in loops, under branches) with ints converted as C converts them
(modulo 2^8 / 2^16, 0/1 for _Bool) and read back as int leaves (also
before any write: the caller's bytes).  The adapters (xadapters.py)
fill them with a pattern, each before a guard page, check that no byte
outside an example's extent changed (padding, gaps), and add
sum_e (e + 1) * out[e] of each example to the value the harness compares
when the function calls no transcendental function (check 1 is then bit
for bit: with one, a math ULP can change an int, and the value's
tolerance would hide it).

'uparams' (with 'unions', 7a951a6): unions as parameters, BD_NODIFF
(a diff function's union parameter must be: bits carry no derivative),
varying or BD_UNIFORM: `dbits`/`fbits` by value, arrays of them (`const
dbits xr[N]`, strided, BD_UNIFORM, BD_PACKED or BD_POINTERS), and a struct with a union member by value (`typedef struct
{ double w; dbits v; } SU0;`, its union member no input of the gradient);
their floating members are leaves (`xu.d`, `xs.v.d`, `xr[k].d`), their
integer members bits as ints (`xu.u`, `xs.v.u`), sign bits flipped in
place (`xu.u ^= (uint64_t)(k & 1) << 63;`).  The harness passes each as
its floating member (the adapters write `.d` / `.f`).  A union return
value of a diff function is an error by design: not generated.

Each draws random numbers only when enabled: the output of the other
features does not change."""
from markers import DBL, FLT, TW, tname

NEW6 = ("pcall", "protos", "xloops", "nout", "uparams")
# (C type, 16 bits) of the narrow output arrays
OCTYPES = [("unsigned char", False), ("signed char", False),
           ("char", False), ("short", True), ("unsigned short", True),
           ("_Bool", False)]
# the walks of 'xloops' (CP.walk)
VWALKS = ("vdiff", "vfwd", "vdown", "vpost", "vwhile", "vhorner")


class UType:
    """A union, or a struct with a union member, as the adapters see a
    struct (xadapters.CP.st): its leaves, and the ones (ndm) that are a
    union's bits, no input of the gradient."""
    pseudo = True

    def __init__(self, name, members, ndm, bits):
        self.name, self.base, self.members = name, name.replace(TW, ""), \
            members
        self.ndm = ndm
        self.bits = bits  # (leaf, the bits' member, 'u64' / 'u32')
        self.ftypes = "".join(sorted(set(t for _, t in members if t != "i")))
        self.dt = "d" if "d" in self.ftypes else "f"
        self.arrs = {}


DBITS = UType("dbits" + TW, [("d", "d")], {"d"}, [("d", "u", "u64")])
FBITS = UType("fbits" + TW, [("f", "f")], {"f"}, [("f", "i", "u32")])
# the structs with a union member (vfile_decls)
SUS = [UType("SU0" + TW, [("w", "d"), ("v.d", "d")], {"v.d"},
             [("v.d", "v.u", "u64")]),
       UType("SU1" + TW, [("v.f", "f"), ("w", "f"), ("k", "i")], {"v.f"},
             [("v.f", "v.i", "u32")])]


class VExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def von(self):
        return bool(self.f & set(NEW6))

    # ------------------------------------------------------------ params
    def vparams(self, types, cps, cp_class):
        """'xloops': another loop shape for the walked ragged parameter, or
        a walked parameter of its own; whether NAME_hvp can be asked for."""
        from zfeatures import zflat
        hvp = True
        if "nout" in self.f and self.r.random() < 0.4:
            hvp = self.nout_param(cps, cp_class)
        if "uparams" in self.f and "unions" in self.f and \
                self.r.random() < 0.5:
            hvp = self.union_param(types, cps, cp_class) and hvp
        if "xloops" not in self.f:
            return hvp
        for cp in cps:
            if cp.kind == "a" and not cp.inter and not cp.extd and \
                    cp.walk in ("for", "while", "end", "ptr") and \
                    self.r.random() < 0.6:
                self.vform(cp, cps)
        if any(cp.walk for cp in cps) or self.r.random() >= 0.4:
            return hvp
        # a walked ragged parameter of its own (one walk per function)
        N = self.r.randint(2, 6)
        if zflat(cps) + N + 2 > 64:
            return hvp
        ln = cp_class("v", "ln%d" % len(cps), "i", u=self.r.random() < 0.25,
                      lenmax=N)
        cps.append(ln)
        cp = cp_class("a", "xw%d" % len(cps), self.r.choice(types),
                      dims=(N,), lenp=ln)
        cp.layout = self.r.choice(["", "", "packed", "pointers"])
        cp.nd = self.r.random() < 0.1
        cps.append(cp)
        self.vform(cp, cps)
        return hvp and (not cp.layout or "precs" in self.f)

    def nout_param(self, cps, cp_class):
        """An output array of a narrow type, fixed or ragged (the length
        parameter of a ragged input, or one of its own)."""
        ct, _ = self.r.choice(OCTYPES)
        nm = "xo%d" % len(cps)
        # (not one a walk decrements: `while (len--)`)
        dec = [cp.lenp for cp in cps if cp.lenp and cp.walk and
               "while" in cp.walk]
        lens = [cp for cp in cps if cp.kind == "v" and cp.lenmax and
                cp not in dec]
        if self.r.random() < 0.5:
            cp = cp_class("o", nm, "i", dims=(self.r.randint(2, 6),))
        elif lens and self.r.random() < 0.5:
            ln = self.r.choice(lens)
            cp = cp_class("o", nm, "i", dims=(ln.lenmax,), lenp=ln)
        else:
            N = self.r.randint(2, 6)
            ln = cp_class("v", "ln%d" % len(cps), "i",
                          u=self.r.random() < 0.25, lenmax=N)
            cps.append(ln)
            cp = cp_class("o", nm, "i", dims=(N,), lenp=ln)
        cp.ct = ct
        cp.layout = self.r.choice(["", "", "packed", "pointers"])
        cps.append(cp)
        return not cp.layout or "precs" in self.f

    def vform(self, cp, cps):
        from zfeatures import zflat
        form = self.r.choice(VWALKS)
        if form == "vhorner":
            if zflat(cps) + 1 > 64:
                form = "vdown"
            else:
                # x[n] too: n + 1 elements (an example's extent len + 1)
                cp.extf = "(%s + 1)"
                cp.dims = (cp.dims[0] + 1,)
        cp.walk = form

    def vwalk(self, g, ind):
        """The one walk of a ragged parameter in an 'xloops' shape."""
        cp = g.walkp
        g.walked = True
        x, n, T, t = cp.nm, cp.lenp.nm, tname(cp.t), cp.t
        g.loop_depth += 1
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        i, v = g.fresh("i"), g.fresh("v")
        w = g.lit_exact(t, self.r.choice([0.5, -0.75, 1.25]))
        in_loop = True
        f = cp.walk
        if f == "vdiff":
            g.emit(i1, "for (int %s = 1; %s < %s; %s++) {" % (i, i, n, i))
            e = self.r.choice(["%s[%s] - %s[%s - 1]", "%s[%s - 1] * " + w +
                               " + %s[%s]"]) % (x, i, x, i)
        elif f == "vfwd":
            g.emit(i1, "for (int %s = 0; %s %s; %s++) {" % (
                i, i, self.r.choice(["< %s - 1" % n, "<= %s - 2" % n]), i))
            e = "%s[%s + 1] - %s[%s]" % (x, i, x, i)
        elif f == "vdown":
            g.emit(i1, "for (int %s = %s - 1; %s >= 0; %s--) {" % (i, n, i,
                                                                  i))
            e = "%s[%s]" % (x, i)
        elif f == "vpost":
            g.emit(i1, "for (int %s = %s; %s-- > 0;) {" % (i, n, i))
            e = "%s[%s]" % (x, i)
        elif f == "vwhile":
            g.emit(i1, "int %s = 0;" % i)
            g.emit(i1, "while (%s < %s) {" % (i, n))
            e = "%s[%s]" % (x, i)
            in_loop = False  # a continue would skip the counter's step
        else:
            h = g.fresh("h")
            g.emit(i1, "%s %s = %s[%s];" % (T, h, x, n))
            g.emit(i1, "for (int %s = %s - 1; %s >= 0; %s--) {" % (i, n, i,
                                                                  i))
            g.emit(i1 + 1, "%s = %s * %s + %s[%s];" % (h, h, w, x, i))
            e = h
        g.emit(i1 + 1, "%s %s = %s;" % (T, v, e))
        g.scope.vars[i] = ("v", "i", True, 0)
        g.scope.vars[v] = ("v", t, True, 0)
        fw = g.vars_of("fd", writable=True)
        if fw:
            acc, at = self.r.choice(fw)
            g.emit(i1 + 1, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.conv(v, t, at)))
        g.block(i1 + 1, in_loop, self.r.randint(1, 3))
        if f == "vwhile":
            g.emit(i1 + 1, self.r.choice(["%s++;", "++%s;", "%s += 1;"]) % i)
        g.emit(i1, "}")
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1

    # ------------------------------------------------------------ unions
    def vfile_decls(self):
        if "uparams" not in self.f or "unions" not in self.f:
            return []
        # the members beside the union in the twins' types (double, long
        # double): a float member the function writes differentiated
        # values into was a float staircase in the long twin (seed 957)
        return ["typedef struct { %s w; dbits%s v; } SU0%s;" % (DBL, TW, TW),
                "typedef struct { fbits%s v; %s w; int k; } SU1%s;" % (
                    TW, FLT, TW)]

    def union_param(self, types, cps, cp_class):
        """A union by value, an array of unions, or a struct with a union
        member by value."""
        from zfeatures import zflat
        k = self.r.randrange(3)
        u = self.r.random() < 0.25
        if k == 0:
            cp = cp_class("s", "xu%d" % len(cps), u=u, nd=True,
                          st=self.r.choice([DBITS, FBITS]))
        elif k == 1:
            cp = cp_class("r", "xr%d" % len(cps), u=u, nd=True,
                          st=self.r.choice([DBITS, FBITS]),
                          dims=(self.r.randint(1, 3),))
            if "precs" in self.f and self.r.random() < 0.5:
                # records BD_PACKED or BD_POINTERS (fixed size)
                cp.layout, cp.u = self.r.choice(["packed", "pointers"]), False
        else:
            st = self.r.choice([s for s in SUS if set(s.ftypes) <=
                                set(types)] or [SUS[0]])
            # (BD_NODIFF too: a union member of a diff function's struct
            # parameter is the error "its bits carry no derivative")
            cp = cp_class("s", "xu%d" % len(cps), u=u, nd=True, st=st)
        if zflat(cps) + cp.size() <= 64:
            cps.append(cp)
            return not cp.layout or "precs" in self.f
        return True

    def union_leaves(self, g, nm, st):
        for m, t in st.members:
            g.scope.vars["%s.%s" % (nm, m)] = ("v", t, m in st.ndm, 0)
        for leaf, bits, ut in st.bits:
            g.scope.vars["%s.%s" % (nm, bits)] = ("wbits", ut, True, 0)
            g.vbits.append(("%s.%s" % (nm, bits), ut))

    # ------------------------------------------------------------ nout
    def vsetup(self, g, cps):
        g.vout = [cp for cp in cps if cp.kind == "o"]
        g.vbits = []  # the bits of union parameters (by value: writable)
        for cp in cps:
            if cp.kind == "s" and getattr(cp.st, "pseudo", False):
                self.union_leaves(g, cp.nm, cp.st)
            elif cp.kind == "r" and getattr(cp.st, "pseudo", False):
                for k in range(cp.dims[0]):
                    self.union_leaves(g, "%s[%d]" % (cp.nm, k), cp.st)
                g.vbits = [b for b in g.vbits if "[" not in b[0]]

    def oval(self, g, cp):
        """A value for an element of output cp, converted as C does."""
        if cp.ct == "_Bool" and self.r.random() < 0.5:
            return g.cond(1)
        return "(%s)%s" % (cp.ct, g.int_expr(1))

    def vstmt(self, g, ind, in_loop):
        """A write of an output array ('nout'), or False."""
        if "uparams" in self.f and g.vbits and self.r.random() < 0.05:
            nm, ut = self.r.choice(g.vbits)
            if ut == "u64":
                g.emit(ind, "%s ^= (uint64_t)(%s & 1) << 63;" % (
                    nm, g.int_expr(1)))
            else:
                g.emit(ind, "%s ^= (uint32_t)(%s & 1) << 31;" % (
                    nm, g.int_expr(1)))
            return True
        if "nout" not in self.f or not g.vout or self.r.random() >= 0.25:
            return False
        cp = self.r.choice(g.vout)
        x, N = cp.nm, cp.dims[0]
        op = self.r.choice(["=", "=", "+=", "-="])
        k = self.r.randrange(3)
        if cp.lenp or (k == 0 and g.loop_depth < 2):
            j = g.fresh("j")
            bound = cp.lenp.nm if cp.lenp else str(N)
            g.emit(ind, "for (int %s = 0; %s < %s; %s++)" % (j, j, bound, j))
            g.push()
            g.scope.vars[j] = ("v", "i", True, 0)
            g.emit(ind + 1, "%s[%s] %s %s;" % (x, j, op, self.oval(g, cp)))
            g.pop()
        elif k == 1:
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "%s[%s] %s %s;" % (x, self.idx(g, N), op,
                                               self.oval(g, cp)))
        else:
            g.emit(ind, "%s[%s] %s %s;" % (x, self.idx(g, N), op,
                                           self.oval(g, cp)))
        return True

    def vileaf(self, g):
        """An element of a fixed-size output array as an int leaf (the
        caller's bytes before any write), or None."""
        if "nout" not in self.f or self.r.random() >= 0.1:
            return None
        fixed = [cp for cp in getattr(g, "vout", []) if not cp.lenp]
        if not fixed:
            return None
        cp = self.r.choice(fixed)
        e = "%s[%s]" % (cp.nm, self.idx(g, cp.dims[0]))
        return "(%s %% 1000)" % e if "short" in cp.ct else e

    # ------------------------------------------------------------ pcall
    def call_cond(self, g, t):
        """A condition calling a function: <math.h>, a helper or an
        earlier annotated function."""
        k = self.r.randrange(3)
        if k == 0:
            e = "%s(%s) < %s" % (g.m("fabs", t), g.fexpr(t, 1),
                                 g.lit_exact(t, self.r.choice([0.5, 1.0,
                                                               2.0])))
        elif k == 1:
            e = "%s > %s" % (g.mathcall(t, 1), g.lit(t))
        else:
            e = "%s < %s" % (g.call(t, 1), g.lit(t))
        if self.r.random() < 0.3:
            e = "(%s) %s %s" % (e, self.r.choice(["&&", "||"]), g.cond(1))
        return e

    def pcall_choice(self, g, ind, picks, c, T, t):
        """`const T *c = call(...) < L ? A : ...;`: the outer condition
        any call; inner ones (arms) an int computed before or a <math.h>
        call on a local."""
        e = picks[-1][0]
        for j, (nm, _) in reversed(list(enumerate(picks[:-1]))):
            if j == 0:
                cond = self.call_cond(g, t)
            elif self.r.random() < 0.5:
                u = g.fresh("u")
                g.emit(ind, "%s %s = %s;" % (T, u, g.fexpr(t, 1)))
                cond = "%s(%s) < %s" % (g.m("fabs", t), u, g.lit_exact(
                    t, self.r.choice([0.5, 1.0, 2.0])))
            else:
                k = g.fresh("ch")
                g.emit(ind, "int %s = %s;" % (k, g.cond(1)))
                cond = k
            e = "%s ? %s : %s" % (cond, nm, e)
        g.emit(ind, "const %s *%s = %s;" % (T, c, e))

    # ------------------------------------------------------------ protos
    def vprotos(self, g, body, callees):
        """Block-scope prototypes of the functions body calls, first."""
        if "protos" not in self.f or g.walkp:
            return body
        text = "\n".join(body)
        called = [c for c in callees if (c[0] + TW + "(") in text]
        if not called or self.r.random() < 0.4:
            return body
        out = []
        for name, rt, ptypes, *_ in called:
            named = self.r.random() < 0.5
            out.append("  %s %s%s(%s);" % (tname(rt), name, TW, ", ".join(
                tname(pt) + (" a%d" % j if named else "")
                for j, pt in enumerate(ptypes)) or "void"))
        return out + body
