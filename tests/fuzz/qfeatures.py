"""The constructs of the eleventh round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'fchoice' (with 'fptrs'; f234d3f, b54c70b, tests/exec/test_func_choice.c):
a per-example choice of functions, a function pointer value that is one
of a known set of functions, lowered as an if/else chain of inlined
calls: a `?:` of functions (nested too) called directly, `(c ? rcb0_T :
&rcb1_T)(e)`, or passed to the helpers taking function pointers
(`rtwice_T(c ? a : b, e)`, `rapply_T`, `rsimp_T`, and `rtwist_T(f, x)`,
which assigns its parameter on some paths); const tables of functions,
file-scope (`static T (*const rops_T[])(T) = {rcb0_T, rcb1_T, rcb3_T};`,
a typedef's `static const rfn_T ropx_T[4] = {rcb1_T, sin, rcb2_T,
fabs};`) and local (static or not), indexed per example (`rops_T[(k %
1000 + 1000) % 3](e)`, `(*t[i])(e)`), by a BD_UNIFORM int parameter or
at a constant index; local function pointers assigned on per-example
branches (`T (*fcN)(T) = rcb0_T; if (c) fcN = rcb3_T;`, `rfn_T fcN; if
(c) fcN = a; else fcN = b;`, later `fcN = c ? a : b;`, `fcN = fcM;`),
called and passed on. <math.h> functions among the candidates (sin,
cos, tanh, fabs; the tie twin's are fz_ulp_*). In annotated functions
only.

'gpaths' (e442d80, tests/exec/test_global_paths.c): a file-scope global
the function writes on some paths only (`WSk`, double, float or an int
status flag; in functions without a global written first): `if (c) {
WSk = 1; return NAN; }` (a status flag and an early return), `if (c)
WSk = e;` anywhere (loops of varying trip counts, switches, nested
ifs), an unconditional write inside a loop or branch, a write through
`WSk_put(e)` (a helper writing it), and a read just after a write on the
same path (`WSk = e; acc = acc * 0.5 + WSk;`); never a read some path
reaches before a write (the plugin's error). Such a function is called by
no other (a call would write it on the caller's paths) and calls itself
nowhere (recursion-global). The harness's check 4 expects what the
sequential scalar loop leaves (the last example that wrote it wins; its
old value when none did), found by running each example twice from two
different values (fz_glast, fuzz_global.h).

Each draws random numbers only when enabled: the output of the other
features (the tenth round's list among them) does not change."""
from markers import FV, LF, MD, MF, TW, tname

NEW11 = ("fchoice", "gpaths")


class QExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def qon(self):
        return bool(self.f & set(NEW11))

    def qchoice_on(self):
        return "fchoice" in self.f and "fptrs" in self.f

    # ------------------------------------------------------------ file
    def qfile_decls(self):
        """One more callback, a helper assigning its function pointer
        parameter, a typedef and two const tables of functions per type
        ('fchoice'; after fptrs' callbacks, one copy per rendering)."""
        out = []
        if not self.qchoice_on():
            return out
        for t in "df":
            T = tname(t)
            lf = LF if t == "f" else ""
            m = MF if t == "f" else MD
            out += [
                "typedef %s (*rfn_%s%s)(%s);" % (T, t, TW, T),
                "static %s rcb3_%s%s(%s x) { return x * 0.75%s - 0.5%s; }" % (
                    T, t, TW, T, lf, lf),
                "static %s rtwist_%s%s(rfn_%s%s f, %s x) {" % (T, t, TW, t, TW,
                                                               T),
                "  if (x > 1.0%s)" % lf,
                "    f = rcb3_%s%s;" % (t, TW),
                "  return f(x) * f(-0.5%s * x);" % lf, "}",
                "static %s (*const rops_%s%s[])(%s) = {rcb0_%s%s, rcb1_%s%s, "
                "rcb3_%s%s};" % (T, t, TW, T, t, TW, t, TW, t, TW),
                "static const rfn_%s%s ropx_%s%s[4] = {rcb1_%s%s, %ssin%s, "
                "rcb2_%s%s, fabs%s};" % (t, TW, t, TW, t, TW, FV, m, t, TW,
                                         m)]
        return out

    # ------------------------------------------------------------ function
    @staticmethod
    def qattach(g):
        g.qglobal = None  # ('gpaths') the global written on some paths
        g.qwrites = 0  # its writes made
        g.qchoices = 0  # choices of functions made ('fchoice')

    def qglobal_pick(self, k, types):
        """A global this function writes on some paths ('gpaths'; in a
        function without a global written first): name and type, or
        None."""
        if "gpaths" not in self.f or self.r.random() >= 0.5:
            return None
        t = self.r.choice(types + types + "i")
        return ("WS%d%s" % (k, TW), t)

    @staticmethod
    def qglobal_decls(qg):
        """The global and its setter (a helper writing it)."""
        nm, t = qg
        T = tname(t)
        return ["%s %s;" % (T, nm),
                "static inline void %s_put(%s v) { %s = v; }" % (nm, T, nm)]

    # ------------------------------------------------------------ fchoice
    def qfunc(self, g, t):
        """A known function of type T(T): a callback (by name or &name), a
        <math.h> function, a local pointer of fptrs (never assigned) or of
        this feature; the function is transcendental if it may be."""
        r = self.r.random()
        m = MF if t == "f" else MD
        if r < 0.15:
            fn = self.r.choice(["sin", "cos", "tanh", "fabs"]
                               if g.allow_transc else ["fabs"])
            if fn != "fabs":
                g.transc = True
                return FV + fn + m
            return fn + m
        loc = [(nm, kd, x) for nm, (kd, ft, _ro, x) in g.scope.all().items()
               if kd in ("qfp", "rfp") and ft == t]
        if r < 0.4 and loc:
            nm, kd, x = self.r.choice(loc)
            if kd == "rfp" and x == 2:
                g.transc = True
            return nm
        k = self.r.choice([0, 1, 3, 2] if g.allow_transc else [0, 1, 3])
        if k == 2:
            g.transc = True
        return "%srcb%d_%s%s" % ("&" if self.r.random() < 0.2 else "", k, t,
                                 TW)

    def qindex(self, g, n):
        """An index into a table of n functions: per example, by a
        BD_UNIFORM int parameter, or constant."""
        uni = [nm for nm, pt, u, _nd in g.params if pt == "i" and u]
        if uni and self.r.random() < 0.3:
            return "((%s) %% 1000 + 1000) %% %d" % (self.r.choice(uni), n)
        return g.index(n)

    def qtable(self, g, t):
        """An element of a const table of functions."""
        tabs = [(nm, x) for nm, (kd, ft, _ro, x) in g.scope.all().items()
                if kd == "qtab" and ft == t]
        if tabs and self.r.random() < 0.4:
            nm, (n, tr) = self.r.choice(tabs)
        elif g.allow_transc and self.r.random() < 0.4:
            nm, n, tr = "ropx_%s%s" % (t, TW), 4, True
        else:
            nm, n, tr = "rops_%s%s" % (t, TW), 3, False
        if tr:
            g.transc = True
        return "%s[%s]" % (nm, self.qindex(g, n))

    def qchoice(self, g, t, depth=0):
        """A function value chosen per example: a '?:' of functions
        (nested), a table's element, a pointer assigned on some paths."""
        g.qchoices += 1
        r = self.r.random()
        ptrs = [nm for nm, (kd, ft, _ro, _x) in g.scope.all().items()
                if kd == "qfp" and ft == t]
        if r < 0.3:
            return self.qtable(g, t)
        if r < 0.45 and ptrs:
            return self.r.choice(ptrs)

        def arm():
            if depth < 1 and self.r.random() < 0.25:
                return self.qchoice(g, t, depth + 1)
            return self.qfunc(g, t)
        c, a1 = g.cond(2), arm()
        a2 = arm()
        if a2.lstrip("&") == a1.lstrip("&"):
            a2 = arm()  # (the same function in both arms is allowed too)
        return "(%s ? %s : %s)" % (c, a1, a2)

    def qcall(self, g, t):
        """A call through a choice of functions: direct, or through the
        helpers taking function pointers."""
        k = self.r.randrange(6)
        x = g.fexpr(t, 2)
        if k <= 1:
            f = self.qchoice(g, t)
            if "?" not in f and self.r.random() < 0.3:
                return "(*%s)(%s)" % (f, x)
            return "%s(%s)" % (f, x)
        if k == 2:
            return "rtwice_%s%s(%s, %s)" % (t, TW, self.qchoice(g, t), x)
        if k == 3:
            return "rtwist_%s%s(%s, %s)" % (t, TW, self.qchoice(g, t), x)
        if k == 4:
            return "rapply_%s%s(%s, %s, %s)" % (
                t, TW, self.qchoice(g, t),
                self.qchoice(g, t) if self.r.random() < 0.4 else
                self.qfunc(g, t), x)
        return "rsimp_%s%s(%s, %s, %s)" % (t, TW, self.qchoice(g, t), x,
                                          g.fexpr(t, 2))

    def qfleaf(self, g, t):
        if g.is_helper or not self.qchoice_on() or self.r.random() >= 0.012:
            return None
        return self.qcall(g, t)

    def qfp_stmt(self, g, ind):
        """A local function pointer assigned on a per-example branch."""
        t = self.r.choice(g.types)
        T = tname(t)
        nm = g.fresh("fc")
        form = self.r.randrange(3)
        typ = "rfn_%s%s %s" % (t, TW, nm) if self.r.random() < 0.4 else \
            "%s (*%s)(%s)" % (T, nm, T)
        if form == 0:
            g.emit(ind, "%s = %s;" % (typ, self.qfunc(g, t)))
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "%s = %s;" % (nm, self.qfunc(g, t)))
        elif form == 1:
            g.emit(ind, "%s;" % typ)
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "%s = %s;" % (nm, self.qfunc(g, t)))
            g.emit(ind, "else")
            g.emit(ind + 1, "%s = %s;" % (nm, self.qfunc(g, t)))
        else:
            g.emit(ind, "%s = %s;" % (typ, self.qchoice(g, t)))
        g.qchoices += 1
        g.scope.vars[nm] = ("qfp", t, False, 0)
        if self.r.random() < 0.35:
            self.qfp_assign(g, ind, nm)
        if self.r.random() < 0.6:
            self.quse(g, ind, t, nm)

    def qfp_assign(self, g, ind, nm=None):
        """A pointer of qfp_stmt (nm, or one in scope) assigned again (on
        some paths)."""
        ptrs = [(p, ft) for p, (kd, ft, _ro, _x) in g.scope.all().items()
                if kd == "qfp"]
        if not ptrs:
            return False
        if nm is None:
            nm, t = self.r.choice(ptrs)
        else:
            t = dict(ptrs)[nm]
        others = [o for o, ot in ptrs if ot == t and o != nm]
        k = self.r.randrange(3)
        if others and self.r.random() < 0.4:
            k = 2
        if k == 0:
            g.emit(ind, "%s = %s;" % (nm, self.qchoice(g, t)))
        elif k == 1 or not others:
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "%s = %s;" % (nm, self.qfunc(g, t)))
        else:
            g.emit(ind, "%s = %s;" % (nm, self.r.choice(others)))
        return True

    def qtab_stmt(self, g, ind):
        """A local const table of functions (static or not)."""
        t = self.r.choice(g.types)
        T = tname(t)
        nm = g.fresh("ops")
        n = self.r.randint(2, 4)
        tr = g.transc
        elems = []
        for _ in range(n):
            f = self.qfunc(g, t)
            while f in [nm2 for nm2, (kd, _t, _r, _x) in
                        g.scope.all().items() if kd in ("qfp", "rfp")]:
                # names of functions only (a pointer variable is no
                # known function: an error)
                f = "rcb%d_%s%s" % (self.r.choice([0, 1, 3]), t, TW)
            elems.append(f)
        trn = g.transc and not tr or any(FV in e or "rcb2" in e
                                         for e in elems)
        st = "static " if self.r.random() < 0.6 else ""
        if self.r.random() < 0.5:
            g.emit(ind, "%s%s (*const %s[])(%s) = {%s};" % (
                st, T, nm, T, ", ".join(elems)))
        else:
            g.emit(ind, "%sconst rfn_%s%s %s[%d] = {%s};" % (
                st, t, TW, nm, n, ", ".join(elems)))
        g.scope.vars[nm] = ("qtab", t, True, (n, trn))
        if trn:
            g.transc = True
        if self.r.random() < 0.7:
            self.quse(g, ind, t, "%s[%s]" % (nm, self.qindex(g, n)))

    # ------------------------------------------------------------ gpaths
    def qval(self, g, t):
        if t == "i":
            if self.r.random() < 0.6:
                return str(self.r.randint(1, 9))
            return "(%s) %% 100" % g.int_expr(1)
        return g.fexpr(t, 1)

    def qwrite(self, g, ind, in_loop):
        """A write of the global on some paths."""
        nm, t = g.qglobal
        g.qwrites += 1
        k = self.r.randrange(6)
        if k == 0 and not g.sret:
            # a status flag and an early return
            g.emit(ind, "if (%s) {" % g.cond(side=True))
            g.emit(ind + 1, "%s = %s;" % (nm, self.qval(g, t)))
            g.emit(ind + 1, "return %s;" % (
                "NAN" if self.r.random() < 0.4 else g.ret_expr()))
            g.emit(ind, "}")
        elif k <= 2:
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "%s = %s;" % (nm, self.qval(g, t)))
        elif k == 3 and (in_loop or ind > 1):
            g.emit(ind, "%s = %s;" % (nm, self.qval(g, t)))
        elif k == 4:
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "%s_put(%s);" % (nm, self.qval(g, t)))
        else:
            # a read after the write on the same path
            fw = g.vars_of("fd", writable=True)
            g.emit(ind, "if (%s) {" % g.cond(side=True))
            g.emit(ind + 1, "%s = %s;" % (nm, self.qval(g, t)))
            if fw:
                acc, at = self.r.choice(fw)
                g.emit(ind + 1, "%s = %s * %s + %s;" % (
                    acc, acc, g.lit_exact(at, 0.5), g.conv(nm, t, at)))
            g.emit(ind, "}")

    # ------------------------------------------------------------ stmts
    def qstmt(self, g, ind, in_loop):
        """A statement of the eleventh round, or False."""
        if g.is_helper:
            return False
        r = self.r.random()
        if r < 0.2 and g.qglobal and ind < 7:
            self.qwrite(g, ind, in_loop)
            return True
        if not self.qchoice_on():
            return False
        if 0.3 <= r < 0.38:
            self.qfp_stmt(g, ind)
            return True
        if 0.38 <= r < 0.44 and self.qfp_assign(g, ind):
            return True
        if 0.44 <= r < 0.48:
            self.qtab_stmt(g, ind)
            return True
        return False

    def quse(self, g, ind, t, f):
        """A call through the pointer or table element f just made."""
        fw = [(nm, at) for nm, at in g.vars_of("fd", writable=True)]
        call = ("(*%s)(%s)" if self.r.random() < 0.3 else "%s(%s)") % (
            f, g.fexpr(t, 2))
        if fw and self.r.random() < 0.6:
            acc, at = self.r.choice(fw)
            g.emit(ind, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.conv(call, t, at)))
        else:
            v = g.fresh("v")
            g.emit(ind, "%s %s = %s;" % (tname(t), v, call))
            g.scope.vars[v] = ("v", t, False, 0)

    def qbefore_return(self, g):
        """The global written at least once (no draw when it was)."""
        if g.qglobal and not g.qwrites:
            nm, t = g.qglobal
            g.qwrites += 1
            g.emit(1, "if (%s)" % g.cond(side=True))
            g.emit(2, "%s = %s;" % (nm, self.qval(g, t)))
