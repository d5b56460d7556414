"""The constructs of the eighth round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'flat' (with 'arrays'; cdb37d5): a flat row-major matrix parameter
`const T *A` of r x c elements, r and c int parameters (the adapters map
them to 1..R and 1..C; c is r in a quarter: a square matrix), read only
under `for (i = 0; i < r; i++) for (j = 0; j < c; j++)` at `A[i * c + j]`
(terms and factors in either order) or through a row pointer `const T *row
= A + i * c` (`&A[i * c]`) read as `row[j]`; the plugin infers the
extent r * c. The first such loop is the function's first statement; a
function with such a parameter has no walked one.

'recur' (a75ca56): recursion of numbers, made once per example on the
scalar function: recursive `static` helpers (`rdig(k)` of ints, `rpow(x,
k)` and the mutual pair `reven`/`rodd` of floats), called with bounded
depths (`(e % 1000 + 1000) % 8`) as int leaves, as floating leaves of
integer arguments only (no derivative needed) and, of any floating
argument, only compared (`(rpow(e, k) < 0.5 ? a : b)`); and an annotated
function of scalar parameters calling itself, as its first statement,
with an int parameter as its depth (`if (p2 > 0) { double r = f0(p0, p1,
(p2 > 3 ? 3 : p2) - 1); if (r < 0.5) ... }`), its value only compared. In
a diff function a recursive value that reaches the function's value is
the plugin's diff-recursion error, and a function writing a global may
make no recursive call (recursion-global): neither is generated, and a
function with a recursive call is called by no other.

'gotoin' (00acbd2): a goto into a block whose statements from the label
on always return, reading only the parameters (as the label after the
final return): `if (c) { ...; under: p0 = p0 * 0.5 + 1.0; return ...; }`
at the top level (also one `if` deeper, as cephes gamma's `goto
gamnan;`), reached later by `goto under;` from anywhere (loops, switches,
retry blocks; backward, as cephes erfc's `goto under;`) and from a
`goto` just before it (forward).

Each draws random numbers only when enabled: the output of the other
features does not change."""
from markers import LF, TW, Scope, tname

NEW8 = ("flat", "recur", "gotoin")
# the flat indices of row i and column j of a row-major matrix with c
# columns
FLATIDX = ("%(i)s * %(c)s + %(j)s", "%(j)s + %(i)s * %(c)s",
           "%(c)s * %(i)s + %(j)s", "%(j)s + %(c)s * %(i)s")
ROWPTR = ("%(a)s + %(i)s * %(c)s", "&%(a)s[%(i)s * %(c)s]",
          "%(a)s + %(c)s * %(i)s", "&%(a)s[%(c)s * %(i)s]")


class TExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def ton(self):
        return bool(self.f & set(NEW8))

    def tinit(self):
        self.tfn = -1  # the index of the annotated function being made
        self.tself = None  # its self-call (name, scalar parameters)

    # ------------------------------------------------------------ file
    def tfile_decls(self):
        """The recursive helpers ('recur'), one copy per rendering."""
        if "recur" not in self.f:
            return []
        out = ["static int rdig%s(int k) {" % TW,
               "  return k <= 0 ? 0 : k %% 3 + 2 * rdig%s(k / 2 - 1);" % TW,
               "}"]
        for t in "df":
            T = tname(t)
            h = "0.5" + (LF if t == "f" else "")
            q = "0.25" + (LF if t == "f" else "")
            one = "1.0" + (LF if t == "f" else "")
            out += [
                "static %s rpow_%s%s(%s x, int k) {" % (T, t, TW, T),
                "  return k <= 0 ? %s : x * rpow_%s%s(x, k - 1) * %s + %s;"
                % (one, t, TW, h, q), "}",
                "static %s rodd_%s%s(%s x, int k);" % (T, t, TW, T),
                "static %s reven_%s%s(%s x, int k) {" % (T, t, TW, T),
                "  return k <= 0 ? %s : %s + x * rodd_%s%s(x, k - 1);" % (
                    one, one, t, TW), "}",
                "static %s rodd_%s%s(%s x, int k) {" % (T, t, TW, T),
                "  return k <= 0 ? x : x - reven_%s%s(x * %s, k - 1);" % (
                    t, TW, h), "}"]
        return out

    # ------------------------------------------------------------ params
    def tparams(self, types, cps, cp_class):
        """A flat matrix parameter ('flat'); the self-call of 'recur'.
        Whether NAME_hvp can be asked for."""
        from zfeatures import zflat
        self.tself = None
        hvp = True
        walked = any(cp.kind in "ar" and cp.walk for cp in cps)
        if "flat" in self.f and not walked and self.r.random() < 0.4:
            R, C = self.r.randint(1, 4), self.r.randint(1, 4)
            square = self.r.random() < 0.25
            if square:
                C = R
            if zflat(cps) + R * C + 2 <= 64:
                lr = cp_class("v", "lr%d" % len(cps), "i",
                              u=self.r.random() < 0.25, lenmax=R)
                cps.append(lr)
                lc = lr
                if not square:
                    lc = cp_class("v", "lc%d" % len(cps), "i",
                                  u=self.r.random() < 0.25, lenmax=C)
                    cps.append(lc)
                cp = cp_class("a", "xf%d" % len(cps), self.r.choice(types),
                              dims=(R * C,), lenp=lr)
                cp.lenp2 = lc
                cp.flat = True
                cp.layout = self.r.choice(["", "", "packed", "pointers"])
                cp.nd = self.r.random() < 0.1
                cps.append(cp)
                hvp = not cp.layout or "precs" in self.f
        if "recur" in self.f and not self.sret and \
                all(cp.kind == "v" and not cp.lenmax for cp in cps) and \
                any(cp.t == "i" for cp in cps) and self.r.random() < 0.3:
            self.tself = ("f%d%s" % (self.tfn, TW), list(cps))
        return hvp

    def tscalar(self, cps):
        """Whether the function takes its scalar parameters only (a
        function calling itself passes no pointer or struct: 'recur'
        makes some so, and their self-call); and the function's index."""
        self.tfn += 1
        self.tself = None
        if "recur" not in self.f or self.r.random() >= 0.2:
            return False
        self.sret = None
        if any(cp.t == "i" for cp in cps):
            self.tself = ("f%d%s" % (self.tfn, TW), list(cps))
        return True

    @staticmethod
    def tsig(cp, a):
        return "%sconst %s *%s" % (a, tname(cp.t), cp.nm)

    @staticmethod
    def tattach(g):
        g.tflat, g.tflat_read, g.tself = [], False, None
        g.trec = False  # a recursive call: called by no other function
        g.tlabels = []  # labels of 'gotoin' blocks a goto may reach

    def tsetup(self, g, cps):
        g.tflat = [cp for cp in cps if getattr(cp, "flat", False)]
        g.tself = self.tself

    def trec_ok(self, g):
        # (nor a global written on some paths: qfeatures 'gpaths')
        return "recur" in self.f and not g.is_helper and not g.wglobal \
            and not getattr(g, "qglobal", None)

    # ------------------------------------------------------------ leaves
    def tfleaf(self, g, t):
        """A recursive helper's value: of integer arguments, or only
        compared; or None."""
        if not self.trec_ok(g) or self.r.random() >= 0.05:
            return None
        g.trec = True
        fn = self.r.choice(["rpow", "reven", "rodd"])
        T = tname(t)
        k = g.index(8)
        if self.r.random() < 0.4:
            # no differentiated input: its value may be the leaf
            x = "(%s)%s * %s" % (T, g.index(8), g.lit_exact(t, 0.25))
            return "%s_%s%s(%s, %s)" % (fn, t, TW, x, k)
        return "(%s_%s%s(%s, %s) < %s ? %s : %s)" % (
            fn, t, TW, g.fexpr(t, 2), k, g.lit(t), g.fexpr(t, 2),
            g.fexpr(t, 2))

    def tileaf(self, g):
        if not self.trec_ok(g) or self.r.random() >= 0.04:
            return None
        g.trec = True
        return "rdig%s(%s)" % (TW, g.index(16))

    # ------------------------------------------------------------ stmts
    def tfirst(self, g, ind):
        """The self-call and the first read of a flat matrix come first
        (no draw when neither is pending)."""
        if g.loop_depth or g.is_helper:
            return False
        if g.tself and self.trec_ok(g):
            self.self_call(g, ind)
            return True
        if g.tflat and not g.tflat_read:
            self.flat_loop(g, ind, g.tflat[0])
            return True
        return False

    def tstmt(self, g, ind, in_loop):
        """A statement of the eighth round, or False."""
        r = self.r.random()
        if r < 0.08 and g.tflat and g.loop_depth == 0 and ind < 6:
            self.flat_loop(g, ind, self.r.choice(g.tflat))
            return True
        if r < 0.35 and "gotoin" in self.f and ind == 1 and \
                not g.loop_depth and not g.switch_depth and \
                not g.nogoto and not g.is_helper and len(g.tlabels) < 2:
            self.goto_block(g, ind)
            return True
        if 0.35 <= r < 0.42 and self.trec_ok(g) and ind < 7:
            # a recursive float value only compared, deciding a branch
            t = self.r.choice(g.types)
            g.trec = True
            g.emit(ind, "if (%s_%s%s(%s, %s) %s %s) {" % (
                self.r.choice(["rpow", "reven", "rodd"]), t, TW,
                g.fexpr(t, 1), g.index(6), self.r.choice(["<", ">"]),
                g.lit(t)))
            g.block(ind + 1, in_loop, self.r.randint(1, 2))
            g.emit(ind, "}")
            return True
        return False

    def self_call(self, g, ind):
        """The annotated function calls itself once, first, with a depth
        of at most 3 below it (the parameter is not written yet)."""
        name, cps = g.tself
        g.tself = None
        g.trec = True
        ints = [cp for cp in cps if cp.t == "i"]
        d = self.r.choice(ints).nm
        lim = self.r.randint(1, 3)
        args = ["(%s > %d ? %d : %s) - 1" % (d, lim, lim, cp.nm)
                if cp.nm == d else cp.nm for cp in cps]
        t = g.rtype
        v = g.fresh("rv")
        g.emit(ind, "if (%s > 0) {" % d)
        g.emit(ind + 1, "%s %s = %s(%s);" % (tname(t), v, name,
                                             ", ".join(args)))
        fw = g.vars_of("fd", writable=True)
        # only compared: its derivative is unknown (diff-recursion)
        g.emit(ind + 1, "if (%s(%s) %s %s)" % (
            g.m("fabs", t), v, self.r.choice(["<", ">"]),
            g.lit_exact(t, self.r.choice([0.5, 1.0, 2.0]))))
        if fw:
            acc, at = self.r.choice(fw)
            g.emit(ind + 2, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.fexpr(at, 1)))
        else:
            g.emit(ind + 2, "return %s;" % g.ret_expr())
        g.emit(ind, "}")

    def flat_loop(self, g, ind, cp):
        """Row-major reads of a flat matrix under i < r, j < c."""
        g.tflat_read = True
        a, r, c, T = cp.nm, cp.lenp.nm, cp.lenp2.nm, tname(cp.t)
        i, j, v = g.fresh("i"), g.fresh("j"), g.fresh("v")
        g.loop_depth += 1
        g.emit(ind, "for (int %s = 0; %s < %s; %s++) {" % (i, i, r, i))
        g.push()
        g.scope.vars[i] = ("v", "i", True, 0)
        names = {"a": a, "i": i, "j": j, "c": c}
        row = None
        if self.r.random() < 0.4:
            row = g.fresh("row")
            g.emit(ind + 1, "const %s *%s = %s;" % (
                T, row, self.r.choice(ROWPTR) % names))
        g.loop_depth += 1
        j0 = self.r.choice([0, 0, 0, 1])
        g.emit(ind + 1, "for (int %s = %d; %s < %s; %s++) {" % (
            j, j0, j, c, j))
        g.push()
        g.scope.vars[j] = ("v", "i", True, 0)
        e = "%s[%s]" % (row, j) if row else "%s[%s]" % (
            a, self.r.choice(FLATIDX) % names)
        g.emit(ind + 2, "%s %s = %s;" % (T, v, e))
        g.scope.vars[v] = ("v", cp.t, True, 0)
        fw = g.vars_of("fd", writable=True)
        if fw:
            acc, at = self.r.choice(fw)
            g.emit(ind + 2, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.conv(v, cp.t, at)))
        g.block(ind + 2, True, self.r.randint(0, 2))
        g.pop()
        g.emit(ind + 1, "}")
        g.loop_depth -= 1
        g.block(ind + 1, True, self.r.randint(0, 1))
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1

    def goto_block(self, g, ind):
        """if (c) { ...; L: [p = ...;] return ...; } whose tail reads only
        the parameters: later gotos reach L (backward), and one just
        before it (forward)."""
        lab = g.fresh("under")
        fwd = self.r.random() < 0.4
        if fwd:
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "goto %s;" % lab)
        g.emit(ind, "if (%s) {" % g.cond(side=True))
        g.block(ind + 1, False, self.r.randint(0, 2))
        deep = self.r.random() < 0.3
        i1 = ind + 1
        if deep:
            g.emit(i1, "if (%s) {" % g.cond(side=True))
            i1 += 1
        # the tail: the parameters only (a goto from elsewhere sees no
        # local of this block), as fngen's label after the final return
        saved = g.scope
        g.scope = Scope()
        for (nm, t, _u, _nd) in g.params:
            g.scope.vars[nm] = ("v", t, nm in g.nd_bits, 0)
        g.emit(i1 - 1, "%s:" % lab)
        fw = g.vars_of("fd", writable=True)
        if fw and self.r.random() < 0.5:
            p, t = self.r.choice(fw)
            g.emit(i1, "%s = %s * %s + %s;" % (
                p, p, g.lit_exact(t, 0.5), g.fexpr(t, 1)))
        g.emit(i1, "return %s;" % g.ret_expr())
        g.scope = saved
        if deep:
            g.emit(ind + 1, "}")
            g.block(ind + 1, False, self.r.randint(0, 1))
        g.emit(ind, "}")
        g.tlabels.append(lab)
