"""Constructs added after the generator was first written, generated only
with `gen.py --features` (so that the default output of every seed stays
what it was): struct types with helpers, struct locals and struct
parameters by value ('structs'); array parameters, one- and
two-dimensional, strided, BD_PACKED or BD_POINTERS, and ragged arrays
`x[len]` read in loops up to their length parameter ('arrays');
memcpy/memmove/memset between arrays and pointer loops with p < end
('mem'); arrays of records `const S0 r[N]` as parameters, strided or
BD_UNIFORM ('recs', with 'structs'); a struct type with an array member
`double w[N]` ('amem', with 'structs'); integer and two-dimensional
tables, pointer walks and two-dimensional local arrays ('tables',
'walks', 'arr2d': xfeatures.py); a struct type with a two-dimensional
array member `double m[2][3]` ('amem2', with 'structs'); the third,
fourth and fifth rounds in yfeatures.py, zfeatures.py and wfeatures.py
(unions, global structs, arrays of structs in structs, narrow and
declared-extent array parameters, short-circuit reads), the later ones in
vfeatures.py .. qfeatures.py (the eleventh: choices of functions per
example, globals written on some paths).  Each feature
draws numbers only where the ones before it drew none, so adding one
leaves the others' output as it was."""
from markers import LF, MD, MF, TW, tname
from ofeatures import NEW13, OExt
from xadapters import CP
from xfeatures import NEW, XExt
from yfeatures import NEW3, YExt
from pfeatures import NEW12, PExt
from qfeatures import NEW11, QExt
from rfeatures import NEW10, RExt
from sfeatures import NEW9, SExt
from tfeatures import NEW8, TExt
from ufeatures import NEW7, UExt
from vfeatures import NEW6, VExt
from wfeatures import NEW5, WExt
from zfeatures import NEW4, ZExt

FEATURES = ("structs", "arrays", "mem", "recs", "amem") + NEW + ("amem2",) + \
    NEW3 + NEW4 + NEW5 + NEW6 + NEW7 + NEW8 + NEW9 + NEW10 + NEW11 + NEW12 + \
    NEW13


class StructType:
    def __init__(self, idx, members, arrs=None):
        self.name = "S%d%s" % (idx, TW)
        self.base = "S%d" % idx
        # [(name, 'f'/'d'/'i')]: the leaves, an array member's elements as
        # "w[0]", "w[1]", ... (brace elision and designators take them)
        self.members = members
        # array member name -> (type, length or (rows, columns))
        self.arrs = arrs or {}
        self.ftypes = "".join(sorted(set(t for _, t in members if t != "i")))
        self.dt = "d" if "d" in self.ftypes else "f"  # the dot product's

    def decls(self):
        """typedef and helpers (one copy per rendering: names carry TW)."""
        S, B = self.name, self.base
        fl = [(m, t) for m, t in self.members if t != "i"]
        D = tname(self.dt)
        decl = []
        for m, t in self.members:
            a = m.split("[")[0]
            if a in self.arrs:
                n = self.arrs[a][1]
                if m == a + "[0]" * (2 if isinstance(n, tuple) else 1):
                    decl.append("%s %s%s;" % (tname(t), a, "".join(
                        "[%d]" % d for d in (
                            n if isinstance(n, tuple) else (n,)))))
            else:
                decl.append("%s %s;" % (tname(t), m))
        out = ["typedef struct { %s } %s;" % (" ".join(decl), S)]
        out.append("static inline %s %s_add%s(%s a, %s b) {" % (S, B, TW, S,
                                                                   S))
        out.append("  %s r = a;" % S)
        for m, t in fl:
            out.append("  r.%s = a.%s * %s + b.%s;" % (
                m, m, "0.5" + (LF if t == "f" else ""), m))
        out += ["  return r;", "}"]
        out.append("static inline %s %s_dot%s(%s a, %s b) {" % (D, B, TW, S,
                                                                   S))
        out.append("  return %s;" % " + ".join(
            "(%s)(a.%s * b.%s)" % (D, m, m) for m, _ in fl))
        out.append("}")
        out.append("static inline void %s_scale%s(%s *p, %s c) {" % (
            B, TW, S, D))
        for m, t in fl:
            out.append("  p->%s = (%s)(p->%s * c);" % (m, tname(t), m))
        out.append("}")
        out.append("static inline %s %s_make%s(%s x) {" % (S, B, TW, D))
        out.append("  return (%s){%s};" % (S, ", ".join(
            ("(int)%s(%s(x, %s), %s)" % (
                "fmin" + (MF if self.dt == "f" else MD),
                "fmax" + (MF if self.dt == "f" else MD),
                "(-9.0)", "9.0") if t == "i" else "(%s)(x * %d)" % (
                    tname(t), j + 1))
            for j, (_, t) in enumerate(self.members))))
        out.append("}")
        return out


class Ext(XExt, YExt, ZExt, WExt, VExt, UExt, TExt, SExt, RExt, QExt,
          PExt, OExt):
    """File-level state of the features (rng: the file's generator)."""

    def __init__(self, rng, features):
        self.r = rng
        self.f = set(features)
        self.structs = []
        self.xinit()
        self.zinit()
        self.winit()
        self.tinit()
        self.oinit()

    def file_decls(self):
        out = []
        if "structs" in self.f:
            for i in range(self.r.randint(1, 2)):
                n = self.r.randint(2, 3)
                ms = [("m%d" % j, self.r.choice("ddf")) for j in range(n)]
                if self.r.random() < 0.3:
                    ms.append(("k", "i"))
                st = StructType(i, ms)
                self.structs.append(st)
                out += st.decls()
            if "amem" in self.f:
                t, n = self.r.choice("ddf"), self.r.randint(2, 4)
                ms = [("w[%d]" % e, t) for e in range(n)]
                ms.append(("b", self.r.choice("df")))
                st = StructType(len(self.structs), ms, {"w": (t, n)})
                self.structs.append(st)
                out += st.decls()
        if "amem2" in self.f and "structs" in self.f:
            # a two-dimensional array member (flat, row-major leaves)
            t, R, C = self.r.choice("ddf"), 2, self.r.randint(2, 3)
            ms = [("m[%d][%d]" % (i, j), t) for i in range(R)
                  for j in range(C)]
            ms.insert(self.r.randint(0, 1) * len(ms), ("c", self.r.choice(
                "df")))
            st = StructType(len(self.structs), ms, {"m": (t, (R, C))})
            self.structs.append(st)
            out += st.decls()
        if "tables" in self.f:
            out += self.table_decls()
        if "dense" in self.f and "structs" in self.f:
            st = self.dense_decl(len(self.structs), StructType)
            self.structs.append(st)
            out += st.decls()
        if self.zon():
            out += self.zfile_decls()
        if self.won():
            out += self.wfile_decls()
        if self.von():
            out += self.vfile_decls()
        if self.ton():
            out += self.tfile_decls()
        if self.ron():
            out += self.rfile_decls()
        if self.qon():
            out += self.qfile_decls()
        if self.pon():
            out += self.pfile_decls()
        return out

    def use_tables(self, g):
        XExt.use_tables(self, g)
        if self.zon():
            self.zuse(g)
        if self.won():
            self.wuse(g)

    def fleaf(self, g, t):
        e = self.zfleaf(g, t) if self.zon() else None
        if not e and self.won():
            e = self.wfleaf(g, t)
        if not e and self.uon():
            e = self.ufleaf(g, t)
        if not e and self.ton():
            e = self.tfleaf(g, t)
        if not e and self.ron():
            e = self.rfleaf(g, t)
        if not e and self.qon():
            e = self.qfleaf(g, t)
        if not e and self.oon():
            e = self.ofleaf(g, t)
        return e or XExt.fleaf(self, g, t)

    def ileaf(self, g):
        e = self.zileaf(g) if self.zon() else None
        if not e and self.won():
            e = self.wileaf(g)
        if not e and self.von():
            e = self.vileaf(g)
        if not e and self.uon():
            e = self.uileaf(g)
        if not e and self.ton():
            e = self.tileaf(g)
        if not e and self.ron():
            e = self.rileaf(g)
        if not e and self.pon():
            e = self.pileaf(g)
        return e or XExt.ileaf(self, g)

    def usable(self, types):
        return [st for st in self.structs if set(st.ftypes) <= set(types)]

    def params(self, types, params):
        """Struct and array parameters of one annotated function: the C
        parameter list (CP) and whether NAME_hvp can be asked for."""
        cps = [CP("v", nm, t, u, nd) for nm, t, u, nd in params]
        hvp = True
        if self.ton() and self.tscalar(cps):
            return cps, hvp  # (tfeatures 'recur': a self-call)
        sts = self.usable(types)
        if sts and self.r.random() < 0.5:
            st = self.r.choice(sts)
            cps.append(CP("s", "xs%d" % len(cps), u=self.r.random() < 0.25,
                          nd=self.r.random() < 0.1, st=st))
        if "arrays" in self.f and self.r.random() < 0.6:
            t = self.r.choice(types)
            kind = self.r.randrange(3)
            layout = self.r.choice(["", "", "packed", "pointers"])
            nm = "xa%d" % len(cps)
            if kind == 0:
                cp = CP("a", nm, t, dims=(self.r.randint(2, 5),))
            elif kind == 1:
                cp = CP("a", nm, t, dims=(self.r.randint(2, 3),
                                          self.r.randint(2, 3)))
            else:
                N = self.r.randint(2, 6)
                ln = CP("v", "ln%d" % len(cps), "i",
                        u=self.r.random() < 0.25, lenmax=N)
                cps.append(ln)
                cp = CP("a", nm, t, dims=(N,), lenp=ln)
                if "walks" in self.f:
                    # declared 'const T *x', the extent inferred
                    cp.walk = self.r.choice([None, "for", "while", "end",
                                             "ptr"])
                    if cp.walk == "while":
                        ln.u = False  # the body decrements it
                if "inter" in self.f and self.r.random() < 0.5:
                    self.inter_param(cp, ln)
            cp.layout = layout
            if not layout and not cp.lenp and self.r.random() < 0.2:
                cp.u = True
            cp.nd = self.r.random() < 0.1
            if layout and "precs" not in self.f:
                hvp = False  # an error before e097ea6 (docs/abi.md)
            cps.append(cp)
        if "recs" in self.f and sts and self.r.random() < 0.4:
            rec = CP("r", "xr%d" % len(cps), st=self.r.choice(sts),
                     dims=(self.r.randint(1, 3),),
                     u=self.r.random() < 0.25,
                     nd=self.r.random() < 0.1)
            self.rec_layout(cps, rec, CP)
            cps.append(rec)
        if self.zon():
            self.zparams(types, cps, CP)
        if self.won():
            hvp = self.wparams(types, cps, CP) and hvp
        if self.von():
            hvp = self.vparams(types, cps, CP) and hvp
        if self.uon():
            hvp = self.uparams(types, cps, CP) and hvp
        if self.ton():
            hvp = self.tparams(types, cps, CP) and hvp
        if self.ron():
            hvp = self.rparams(types, cps, CP) and hvp
        if self.oon():
            hvp = self.oparams(types, cps, CP) and hvp
        return cps, hvp

    @staticmethod
    def sig(cps, annotated):
        out = []
        for cp in cps:
            a = ""
            if annotated:
                a = ("BD_UNIFORM " if cp.u else "") + \
                    ("BD_NODIFF " if cp.nd else "") + \
                    {"": "", "packed": "BD_PACKED ",
                     "pointers": "BD_POINTERS "}[cp.layout]
            if cp.kind == "v":
                out.append("%s%s %s" % (a, tname(cp.t), cp.nm))
            elif cp.kind == "o":
                out.append("%s%s %s[%s]" % (a, cp.ct, cp.nm, cp.lenp.nm if
                                             cp.lenp else cp.dims[0]))
            elif cp.kind == "s":
                out.append("%s%s %s" % (a, cp.st.name, cp.nm))
            elif cp.kind == "r" and cp.walk:
                out.append("%sconst %s *%s" % (a, cp.st.name, cp.nm))
            elif cp.kind == "r":
                out.append("%sconst %s %s[%s]" % (
                    a, cp.st.name, cp.nm,
                    cp.lenp.nm if cp.lenp else cp.dims[0]))
            elif getattr(cp, "flat", False):
                out.append(TExt.tsig(cp, a))
            elif getattr(cp, "bdext", False):
                out.append(UExt.usig(cp, a, annotated))
            elif cp.extd:
                out.append("%sconst %s %s[%s]" % (
                    a, tname(cp.t), cp.nm, cp.extd))
            elif cp.walk == "idecl":
                out.append("%sconst %s %s[%d * %s]" % (
                    a, tname(cp.t), cp.nm, cp.inter, cp.lenp.nm))
            elif cp.walk and getattr(cp, "cbr", False):
                out.append("%sconst %s %s[]" % (a, tname(cp.t), cp.nm))
            elif cp.walk:
                out.append("%sconst %s *%s" % (a, tname(cp.t), cp.nm))
            else:
                dims = "[%s]" % cp.lenp.nm if cp.lenp else \
                    "".join("[%d]" % d for d in cp.dims)
                out.append("%sconst %s %s%s" % (a, cp.ct or tname(cp.t),
                                                 cp.nm, dims))
        return ", ".join(out)

    def attach(self, g):
        g.ext = self
        g.ragged = []
        g.rragged = []  # ragged arrays of records ('precs')
        g.walkp, g.walked = None, False
        # wfeatures: declared extents, short-circuit arrays, their searches
        g.wext, g.wsc, g.wsci = [], [], []
        g.vout, g.vbits = [], []  # vfeatures: output arrays, union bits
        # ufeatures: BD_EXTENT arrays, the caller's memory, outside calls
        g.uext, g.umem, g.ucalls = [], [], False
        TExt.tattach(g)  # tfeatures: flat matrices, recursion, gotoin
        SExt.sattach(g)  # sfeatures: gotodone
        RExt.rattach(g)  # rfeatures: the tenth round
        QExt.qattach(g)  # qfeatures: the eleventh round
        OExt.oattach(g)  # ofeatures: the thirteenth round

    def setup(self, g, cps):
        """The function's struct members, arrays and length parameters in
        its scope."""
        self.attach(g)
        for cp in cps:
            if cp.kind == "v" and cp.lenmax:
                g.scope.vars[cp.nm] = ("v", "i", True, 0)
            elif cp.kind in "sr" and getattr(cp.st, "pseudo", False):
                pass  # unions: vsetup
            elif cp.kind == "s":
                self.add_struct(g, cp.nm, cp.st, False)
                g.param_names.add(cp.nm)
                for m, _ in cp.st.members:
                    g.param_names.add("%s.%s" % (cp.nm, m))
            elif cp.kind == "r" and cp.lenp:
                g.rragged.append(cp)  # read in loops i < len (ystmt)
            elif cp.kind == "r":
                # each record a read-only struct: members, copies, helpers
                for k in range(cp.dims[0]):
                    self.add_struct(g, "%s[%d]" % (cp.nm, k), cp.st, True)
            elif cp.kind == "a" and getattr(cp, "flat", False):
                pass  # tsetup: read only by its row-major loops
            elif cp.kind == "a" and cp.walk:
                # walked once, first (xfeatures.param_walk); no goto
                g.walkp, g.nogoto, g.jumps_left = cp, True, 0
            elif cp.kind == "a" and cp.lenp:
                g.ragged.append(cp)
            elif cp.kind == "a" and len(cp.dims) == 3:
                pass  # zsetup: elements, rows, planes
            elif cp.kind == "a" and len(cp.dims) == 1:
                g.scope.vars[cp.nm] = ("a", cp.t, True, cp.dims[0])
            elif cp.kind == "a":
                # rows m[i]: one-dimensional arrays (passed to helpers too)
                for i in range(cp.dims[0]):
                    g.scope.vars["%s[%d]" % (cp.nm, i)] = ("a", cp.t, True,
                                                          cp.dims[1])
        if self.zon():
            self.zsetup(g, cps)
        if self.won():
            self.wsetup(g, cps)
        if self.von():
            self.vsetup(g, cps)
        if self.uon():
            self.usetup(g, cps)
        if self.ton():
            self.tsetup(g, cps)
        if self.ron():
            self.rsetup(g, cps)
        if self.oon():
            self.osetup(g, cps)

    @staticmethod
    def add_struct(g, nm, st, ro):
        g.scope.vars[nm] = ("s", st, ro, 0)
        for m, t in st.members:
            g.scope.vars["%s.%s" % (nm, m)] = ("v", t, ro, 0)
        for a, (t, n) in st.arrs.items():
            # the array member as an array: computed indices, helpers (a
            # two-dimensional one's rows, and the whole for 'a2' reads)
            if isinstance(n, tuple):
                g.scope.vars["%s.%s" % (nm, a)] = ("a2", t, ro, n)
                for i in range(n[0]):
                    g.scope.vars["%s.%s[%d]" % (nm, a, i)] = ("a", t, ro,
                                                             n[1])
            else:
                g.scope.vars["%s.%s" % (nm, a)] = ("a", t, ro, n)

    # ------------------------------------------------------------ body
    def finish(self, g):
        """Before the final return: the loops over ragged `const S *r`
        not read yet (the plugin infers their extents from a read there;
        seed 197 of the seventh round's all spent its statements in the
        walk of another parameter and never read its 'xr9'). No draw when
        none is pending."""
        while "precs" in self.f and any(cp.walk and not cp.looped
                                        for cp in g.rragged):
            self.ystmt(g, 1)
        if self.son():
            self.sbefore_return(g)
        if self.qon():
            self.qbefore_return(g)

    def final_ret(self, g, ret):
        """The final return's value (ofeatures 'bcalls': plus a call). No
        draw when no feature changes it."""
        return self.oret(g, ret) if self.oon() else ret

    def after_return(self, g):
        """After the final return (and its `tail:`): gotodone's label
        with a return of its own. No draw when none is pending."""
        if self.son():
            self.safter_return(g)
        if self.ron():
            self.rfix(g)

    def struct_vars(self, g, writable=False):
        return [(nm, st) for nm, (k, st, ro, _) in g.scope.all().items()
                if k == "s" and not (writable and ro)]

    def stmt(self, g, ind, in_loop):
        """A statement of the features, or False (nothing drawn then but
        one number)."""
        if self.ton() and self.tfirst(g, ind):
            return True
        if self.xstmt(g, ind, in_loop):
            return True
        if self.zon() and self.zstmt(g, ind, in_loop):
            return True
        if self.won() and self.wstmt(g, ind, in_loop):
            return True
        if self.von() and self.vstmt(g, ind, in_loop):
            return True
        if self.uon() and self.ustmt(g, ind, in_loop):
            return True
        if self.ton() and self.tstmt(g, ind, in_loop):
            return True
        if self.son() and self.sstmt(g, ind, in_loop):
            return True
        if self.ron() and self.rstmt(g, ind, in_loop):
            return True
        if self.qon() and self.qstmt(g, ind, in_loop):
            return True
        if self.pon() and self.pstmt(g, ind, in_loop):
            return True
        if self.oon() and self.ostmt(g, ind, in_loop):
            return True
        r = self.r.random()
        if r < 0.1 and g.ragged and g.loop_depth < 2 and not g.is_helper \
                and ind < 7:
            self.ragged_loop(g, ind)
            return True
        sts = self.usable(g.types)
        if r < 0.2 and sts:
            self.struct_stmt(g, ind, sts)
            return True
        if r >= 0.88 and "mem" in self.f:
            return self.mem_stmt(g, ind)
        return False

    def mem_stmt(self, g, ind):
        """memcpy/memmove/memset of whole elements between arrays of one
        type (constant sizes), or a pointer loop up to an end pointer."""
        k = self.r.randrange(4)
        t = self.r.choice(g.types)
        T = tname(t)
        dst = g.arrays_of(t, 1, writable=True)
        srcs = g.arrays_of(t, 1)
        if k == 0 and dst and srcs:
            d, _, dsz = self.r.choice(dst)
            s_, _, ssz = self.r.choice(srcs)
            m = self.r.randint(1, min(dsz, ssz))
            i, j = self.r.randint(0, dsz - m), self.r.randint(0, ssz - m)
            if s_ == d:
                fn = "memmove"  # overlapping: loads before stores
            else:
                fn = "memcpy"
            g.emit(ind, "%s(%s + %d, %s + %d, %d * sizeof(%s));" % (
                fn, d, i, s_, j, m, T))
            return True
        if k == 1 and dst:
            d, _, dsz = self.r.choice(dst)
            if "[" not in d and self.r.random() < 0.5:
                g.emit(ind, "memset(%s, 0, sizeof %s);" % (d, d))
            else:
                m = self.r.randint(1, dsz)
                i = self.r.randint(0, dsz - m)
                g.emit(ind, "memset(&%s[%d], 0, %d * sizeof %s[0]);" % (
                    d, i, m, d))
            return True
        fw = g.vars_of(t, writable=True)
        if k >= 2 and srcs and fw and g.loop_depth < 2:
            a, _, sz = self.r.choice(srcs)
            acc, _ = self.r.choice(fw)
            p = g.fresh("p")
            lo = self.r.randint(0, sz - 1)
            if k == 2:
                g.emit(ind, "for (const %s *%s = %s + %d; %s %s %s + %d; "
                       "%s++)" % (T, p, a, lo, p,
                                  self.r.choice(["<", "!="]), a, sz, p))
            else:
                e = g.fresh("e")
                g.emit(ind, "const %s *%s = %s + %d;" % (T, e, a, sz))
                g.emit(ind, "for (const %s *%s = %s + %d; %s < %s; %s++)" % (
                    T, p, a, lo, p, e, p))
            g.emit(ind + 1, "%s = %s * %s + *%s;" % (
                acc, acc, g.lit_exact(t, 0.5), p))
            return True
        return False

    def struct_init(self, g, st, ind):
        k = self.r.randrange(4)
        have = [nm for nm, s in self.struct_vars(g) if s is st]
        if k == 0 or (k == 1 and not have):
            return "{%s}" % ", ".join(
                g.conv(g.fexpr(t if t != "i" else st.dt, 2),
                       t if t != "i" else st.dt, t)
                for _, t in st.members[:self.r.randint(1, len(st.members))])
        if k == 1:
            return self.r.choice(have)
        if k == 2 and have:
            return "%s_add%s(%s, %s)" % (st.base, TW, self.r.choice(have),
                                         self.r.choice(have))
        return "%s_make%s(%s)" % (st.base, TW, g.fexpr(st.dt, 1))

    def struct_stmt(self, g, ind, sts):
        k = self.r.randrange(5)
        mine = [(nm, s) for nm, s in self.struct_vars(g, writable=True)
                if s in sts]
        if k <= 1 or not mine:
            st = self.r.choice(sts)
            nm = g.fresh("sv")
            init = self.struct_init(g, st, ind)
            if init.startswith("{") and self.r.random() < 0.3:
                init = "(%s)%s" % (st.name, init)
            if init.startswith("{") and self.r.random() < 0.3:
                m, t = self.r.choice(st.members)
                init = "{.%s = %s}" % (m, g.conv(
                    g.fexpr(t if t != "i" else st.dt, 2),
                    t if t != "i" else st.dt, t))
            g.emit(ind, "%s %s = %s;" % (st.name, nm, init))
            self.add_struct(g, nm, st, False)
            return
        nm, st = self.r.choice(mine)
        if k == 2:
            init = self.struct_init(g, st, ind)
            if init.startswith("{"):
                init = "(%s)%s" % (st.name, init)
            g.emit(ind, "%s = %s;" % (nm, init))
        elif k == 3 and nm not in g.param_names and "." not in nm:
            if self.r.random() < 0.5:
                # through a pointer local that is never re-pointed
                p = g.fresh("ps")
                g.emit(ind, "%s *%s = &%s;" % (st.name, p, nm))
                m, t = self.r.choice(st.members)
                g.emit(ind, "%s->%s = %s;" % (p, m, g.conv(
                    g.fexpr(t if t != "i" else st.dt, 1),
                    t if t != "i" else st.dt, t)))
            g.emit(ind, "%s_scale%s(&%s, %s);" % (st.base, TW, nm,
                                                 g.fexpr(st.dt, 1)))
        else:
            others = [o for o, s in self.struct_vars(g) if s is st]
            v = g.fresh("v")
            g.emit(ind, "%s %s = %s_dot%s(%s, %s);" % (
                tname(st.dt), v, st.base, TW, nm, self.r.choice(others)))
            g.scope.vars[v] = ("v", st.dt, False, 0)

    def ragged_loop(self, g, ind):
        """for (i = 0; i < len; i++) over a ragged array parameter: the
        element x[i] a read-only variable of the body."""
        cp = self.r.choice(g.ragged)
        g.loop_depth += 1
        i = g.fresh("i")
        g.emit(ind, "for (int %s = 0; %s < %s; %s++) {" % (i, i, cp.lenp.nm,
                                                          i))
        g.push()
        g.scope.vars[i] = ("v", "i", True, 0)
        g.scope.vars["%s[%s]" % (cp.nm, i)] = ("v", cp.t, True, 0)
        fw = [v for v in g.vars_of("fd", writable=True)]
        if fw:
            nm, t = self.r.choice(fw)
            g.emit(ind + 1, "%s = %s * %s + %s;" % (
                nm, nm, g.lit_exact(t, 0.5), g.conv(
                    "%s[%s]" % (cp.nm, i), cp.t, t)))
        g.block(ind + 1, True, self.r.randint(1, 3))
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1

