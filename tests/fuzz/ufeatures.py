"""The constructs of the seventh round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'bdext' (with 'arrays'; c4aca7f): a ragged array parameter declared
`const T *x BD_EXTENT(len)`, its length parameter after it (as C code
writes `interp(const double *xs, int n, ...)`), read where nothing else
would explain its extent: at data-dependent indices, `x[(k % 1000 + 1000)
% len]`, and by a binary search, `while (lo < hi) { mid = (lo + hi) / 2;
if (x[mid] < t) lo = mid + 1; else hi = mid; } ... x[lo]`.

'loops1' (with 'walks'; 3e624d0): the walked ragged parameter `const T *x`
read by a 1-based loop `for (i = 1; i <= n; i++) ... x[i]` (extent n + 1,
Numerical Recipes) or by `while (n--) ... x[n]` (extent n, Horner).

'parms' (8473726): a pointer `?:` whose arms read the caller's memory,
`const T *c = ch ? (xa[k] < 0.5 ? Z0 : T0) : Z1;` (a fixed-size floating
array parameter) or `ch ? Z0 + (xn[k] % 1000 + 1000) % m : T0` (an integer
one), then used as an array of the shortest choice's length.

'ecalls' (cc069dc): calls of outside functions, declared in
fuzz_harness.h and defined after every function of the file
(fuzz_extern.h, so their bodies are not there when the calls are lowered):
`fz_ext_note(site, k);` and `fz_ext_msg("f", k);` as statements and
`fz_ext_code(site, k)` as an int leaf, in annotated functions only. They
record their calls (a count and an order-independent hash of the
arguments); the harness checks that NAME_batched, NAME_grad, NAME_jvp and
NAME_hvp make exactly the scalar loop's calls (fz_check_ext) in functions
without transcendental calls (elsewhere a math ULP may change an int
argument).

Each draws random numbers only when enabled: the output of the other
features does not change."""
from markers import TW, tname

NEW7 = ("bdext", "loops1", "parms", "ecalls")
# the walks of 'loops1' (CP.walk)
UWALKS = ("u1based", "uwhilen")


class UExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def uon(self):
        return bool(self.f & set(NEW7))

    # ------------------------------------------------------------ params
    def uparams(self, types, cps, cp_class):
        """'bdext' on ragged arrays (or one of its own), 'loops1' on walked
        ones; whether NAME_hvp can be asked for."""
        from zfeatures import zflat
        hvp = True
        if "bdext" in self.f and self.r.random() < 0.5:
            N = self.r.randint(2, 6)
            if zflat(cps) + N + 1 <= 64:
                ln = cp_class("v", "ln%d" % len(cps), "i",
                              u=self.r.random() < 0.25, lenmax=N)
                cps.append(ln)
                cp = cp_class("a", "xx%d" % len(cps), self.r.choice(types),
                              dims=(N,), lenp=ln)
                cp.layout = self.r.choice(["", "", "packed", "pointers"])
                cp.nd = self.r.random() < 0.1
                cp.bdext = True
                cps.append(cp)
                cps.append(cps.pop(-2))  # the length after the pointer
                hvp = not cp.layout or "precs" in self.f
        if "bdext" in self.f:
            for cp in list(cps):
                if cp.kind == "a" and cp.lenp and not cp.walk and \
                        not getattr(cp, "bdext", False) and \
                        not cp.inter and not cp.extd and not cp.ct and \
                        not cp.sc and len(cp.dims) == 1 and \
                        self.r.random() < 0.5:
                    cp.bdext = True
                    ln = cp.lenp
                    # the length after the pointer, unless another
                    # parameter's type names it
                    if not any(o.lenp is ln for o in cps if o is not cp):
                        cps.remove(ln)
                        cps.insert(cps.index(cp) + 1, ln)
        if "loops1" in self.f:
            for cp in cps:
                if cp.kind == "a" and cp.walk and not cp.inter and \
                        not cp.extd and self.r.random() < 0.35:
                    self.uform(cp, cps)
        return hvp

    def uform(self, cp, cps):
        from zfeatures import zflat
        form = self.r.choice(UWALKS)
        others = any(o.lenp is cp.lenp for o in cps if o is not cp)
        if form == "uwhilen" and others:
            form = "u1based"  # (the walk decrements the length)
        if form == "u1based":
            if cp.extf or zflat(cps) + 1 > 64:
                return
            # x[n] too: n + 1 elements (an example's extent len + 1)
            cp.extf = "(%s + 1)"
            cp.dims = (cp.dims[0] + 1,)
        else:
            if cp.extf:
                return
            cp.lenp.u = False  # the walk decrements it
        cp.walk = form

    @staticmethod
    def usig(cp, a, annotated):
        """The declaration of a 'bdext' parameter."""
        return "%sconst %s *%s%s" % (
            a, tname(cp.t), cp.nm,
            " BD_EXTENT(%s)" % cp.lenp.nm if annotated else "")

    def usetup(self, g, cps):
        g.uext = [cp for cp in cps if getattr(cp, "bdext", False)]
        # fixed-size one-dimensional array parameters: the caller's memory
        g.umem = [cp for cp in cps if cp.kind == "a" and not cp.lenp and
                  not cp.walk and len(cp.dims) == 1 and not cp.sc]
        g.ucalls = False

    # ------------------------------------------------------------ walks
    def uwalk(self, g, ind):
        """The one walk of a ragged parameter in a 'loops1' shape."""
        cp = g.walkp
        g.walked = True
        x, n, T, t = cp.nm, cp.lenp.nm, tname(cp.t), cp.t
        g.loop_depth += 1
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        v = g.fresh("v")
        if cp.walk == "u1based":
            i = g.fresh("i")
            g.emit(i1, "for (int %s = 1; %s <= %s; %s++) {" % (i, i, n, i))
            g.scope.vars[i] = ("v", "i", True, 0)
            e = "%s[%s]" % (x, i)
        else:
            g.emit(i1, "while (%s--) {" % n)
            e = "%s[%s]" % (x, n)
        g.emit(i1 + 1, "%s %s = %s;" % (T, v, e))
        g.scope.vars[v] = ("v", t, True, 0)
        fw = g.vars_of("fd", writable=True)
        if fw:
            acc, at = self.r.choice(fw)
            g.emit(i1 + 1, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.conv(v, t, at)))
        g.block(i1 + 1, True, self.r.randint(1, 3))
        g.emit(i1, "}")
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1

    # ------------------------------------------------------------ leaves
    def uext_in_scope(self, g):
        sc = g.scope.all()
        return [cp for cp in getattr(g, "uext", []) if cp.lenp.nm in sc]

    def ufleaf(self, g, t):
        """An element of a 'bdext' array at a data-dependent index, or
        None."""
        if "bdext" not in self.f or self.r.random() >= 0.1:
            return None
        arrs = self.uext_in_scope(g)
        ints = g.vars_of("i")
        if not arrs or not ints:
            return None
        cp = self.r.choice(arrs)
        e = "%s[%s %% %s]" % (cp.nm, g.nonneg(self.r.choice(ints)[0]),
                              cp.lenp.nm)
        return g.conv(e, cp.t, t) if cp.t != t else e

    def uileaf(self, g):
        """An outside function's int result, or None."""
        if "ecalls" not in self.f or g.is_helper or \
                self.r.random() >= 0.05:
            return None
        g.ucalls = True
        ints = g.vars_of("i")
        k = self.r.choice(ints)[0] if ints else str(self.r.randint(0, 9))
        return "fz_ext_code(%d, %s)" % (self.r.randint(0, 99), k)

    # ------------------------------------------------------------ stmts
    def ustmt(self, g, ind, in_loop):
        """A statement of the seventh round, or False."""
        if not self.uon():
            return False
        r = self.r.random()
        if r < 0.06 and "ecalls" in self.f and not g.is_helper:
            g.ucalls = True
            k = g.int_expr(1)
            if self.r.random() < 0.3:
                g.emit(ind, "fz_ext_msg(\"f%d\", %s);" % (
                    self.r.randint(0, 9), k))
            else:
                g.emit(ind, "fz_ext_note(%d, %s);" % (
                    self.r.randint(0, 99), k))
            return True
        if r < 0.14 and "parms" in self.f:
            return self.pmem_stmt(g, ind)
        if r < 0.2 and "bdext" in self.f and g.loop_depth < 2:
            return self.search_stmt(g, ind)
        return False

    def search_stmt(self, g, ind):
        """A binary search in a 'bdext' array: the index read is the
        data's."""
        arrs = self.uext_in_scope(g)
        fw = g.vars_of("fd", writable=True)
        if not arrs or not fw:
            return False
        cp = self.r.choice(arrs)
        x, n, t = cp.nm, cp.lenp.nm, cp.t
        acc, at = self.r.choice(fw)
        lo, hi, mid, q = g.fresh("lo"), g.fresh("hi"), g.fresh("mid"), \
            g.fresh("q")
        g.emit(ind, "{")
        g.emit(ind + 1, "const %s %s = %s;" % (tname(t), q, g.fexpr(t, 1)))
        g.emit(ind + 1, "int %s = 0, %s = %s - 1;" % (lo, hi, n))
        g.emit(ind + 1, "while (%s < %s) {" % (lo, hi))
        g.emit(ind + 2, "int %s = (%s + %s) / 2;" % (mid, lo, hi))
        g.emit(ind + 2, "if (%s[%s] < %s)" % (x, mid, q))
        g.emit(ind + 3, "%s = %s + 1;" % (lo, mid))
        g.emit(ind + 2, "else")
        g.emit(ind + 3, "%s = %s;" % (hi, mid))
        g.emit(ind + 1, "}")
        g.emit(ind + 1, "%s = %s * %s + %s;" % (
            acc, acc, g.lit_exact(at, 0.5), g.conv("%s[%s]" % (x, lo), t,
                                                   at)))
        g.emit(ind, "}")
        return True

    def pmem_stmt(self, g, ind):
        """`const T *c = ch ? ARM : ARM;` with an arm reading the caller's
        memory (an array parameter's element decides or offsets it)."""
        from zfeatures import TABLE
        t = self.r.choice(g.types)
        tabs = [(nm, sz) for nm, (k, at, ro, sz) in g.scope.all().items()
                if k == "a" and at == t and ro and TABLE.match(nm)]
        sc = g.scope.all()
        mem = [cp for cp in getattr(g, "umem", []) if cp.nm in sc]
        if len(tabs) < 2 or not mem:
            return False
        (a, la), (b, lb) = sorted(self.r.sample(tabs, 2), key=lambda x:
                                  -x[1])
        n = lb  # (a the longer: its arm may start further in)
        cp = self.r.choice(mem)
        k = self.r.randrange(cp.dims[0])
        if cp.t == "i":
            m = la - n + 1
            arm = "%s + (%s[%d] %% 1000 + 1000) %% %d" % (a, cp.nm, k, m)
        else:
            arm = "(%s[%d] < %s ? %s : %s)" % (
                cp.nm, k, g.lit_exact(cp.t, self.r.choice([0.5, -0.25, 1.0])),
                a, b)
        ch, c = g.fresh("ch"), g.fresh("c")
        g.emit(ind, "int %s = %s;" % (ch, g.cond(1)))
        arms = [arm, b]
        if self.r.random() < 0.5:
            arms.reverse()
        g.emit(ind, "const %s *%s = %s ? %s : %s;" % (tname(t), c, ch,
                                                      arms[0], arms[1]))
        g.scope.vars[c] = ("a", t, True, n)
        return True
