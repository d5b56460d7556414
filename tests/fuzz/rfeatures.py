"""The constructs of the tenth round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'gotofall' (Lowerer::Entries, tests/exec/test_goto_enter.c): a forward
goto into ifs whose statements from the label on fall through, cephes
round.c's `if (r > 0.5) goto up; if (r == 0.5) { ...; if (...) { up: y +=
1.0; } }`: at the top level (one per function), one to three gotos to the label (`if (c)
goto fallN;` just before, a loop before leaving into it) and then `if (c)
{ ...; [if (c2) { ...;] fallN: ...; [} ...] }` (the label in the then
side, one `if` deeper, in the else side or in an else-if's then side);
the statements the entering lanes skip on the way hold no declaration at
their level, no label and no goto; the statements from the label on are
any, reading what was declared before the gotos (the entering lanes
skipped the rest). Not in functions with a walked parameter (no goto
there).

'fptrs' (test_callbacks.c): helpers taking function pointers, one copy per
rendering: `rsimp_T(f, a, b)` (Simpson's rule on four panels),
`rtwice_T(f, x)` (`(*f)((*f)(x))`) and `rapply_T(f, g, x)` (passes its
parameters on to rtwice_T), given the static callbacks `rcb0_T` (exact
arithmetic), `rcb1_T` (x / (1 + |x|)) and `rcb2_T` (exp(-x * x): a
transcendental call), and local function pointers initialised with one
and never assigned, `T (*fpN)(T) = rcb1_T;` (`&rcb1_T`), called as
`fpN(e)` and `(*fpN)(e)` and passed on; in annotated functions only.

'gscratch' (test_scratch_globals.c): nrutil.h's static file-scope scratch
globals behind macros, `RSQ_D(a)` (`((rsq_d = (a)) == 0.0 ? 0.0 : rsq_d *
rsq_d)`), `RMAX_D(a, b)` (`(rmx1_d = (a), rmx2_d = (b), rmx1_d > rmx2_d ?
rmx1_d : rmx2_d)`), their float forms and the int `RIMIN(a, b)`, as
leaves of annotated functions. A global is used at most once in a full
expression (two uses unsequenced against each other are undefined in C),
and a function using one is called by no other (a call's body may run
between an operand's write and read: indeterminately sequenced).

'sscratch' (test_statics.c): static locals written before every read, in
a block of their own: `{ static T suN[M]; <every element written: at
constant indices, by a filling loop, or two elements then a recurrence
u[k] = f(u[k - 1], u[k - 2])>; [static T ssN; ssN = e;] [static T saN,
sbN; split_T(e, &saN, &sbN);] ...uses (reads, writes, helpers)... }`,
with no label in the block (a label starts the plugin's scan again); not
in a function calling itself.

'views' (test_nr_views.c): the walked ragged parameter (or one of its
own, in 15% of the functions without one) read through an offset
view, `const T *aN = x - 1;` (`&x[-1]`) at a[1] ..
a[len], counting up (`i <= len`) or down (`i >= 1`), or passed as `x - 1`
to a 1-based helper `rnsum_T(const T *a, int n, T w)` (its extent
inferred through the helper).

Each draws random numbers only when enabled: the output of the other
features (the ninth round's list among them) does not change."""
import re

from markers import LF, MD, MF, TW, tname

NEW10 = ("gotofall", "fptrs", "gscratch", "sscratch", "views")
# the walks of 'views' (CP.walk)
RWALKS = ("rview",)
# the scratch macros of 'gscratch': name, type, arity
RSCR = (("RSQ_D", "d", 1, "sq_d"), ("RSQ_F", "f", 1, "sq_f"),
        ("RMAX_D", "d", 2, "mx_d"), ("RMAX_F", "f", 2, "mx_f"))


# a use of a scratch macro, and its function without the global
RSCR_USE = re.compile(r"\b(RSQ_D|RSQ_F|RMAX_D|RMAX_F|RIMIN)%s\(" % TW)
RFIX = {"RSQ_D": "rsqv_d", "RSQ_F": "rsqv_f", "RMAX_D": "rmaxv_d",
        "RMAX_F": "rmaxv_f", "RIMIN": "riminv"}


class RExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def ron(self):
        return bool(self.f & set(NEW10))

    # ------------------------------------------------------------ file
    def rfile_decls(self):
        """Callbacks and helpers taking them ('fptrs'), scratch globals
        and their macros ('gscratch'), 1-based helpers ('views'); one copy
        per rendering (names carry TW)."""
        out = []
        for t in "df":
            T = tname(t)
            lf = LF if t == "f" else ""
            m = MF if t == "f" else MD
            if "fptrs" in self.f:
                out += [
                    "static %s rcb0_%s%s(%s x) { return x * x * 0.5%s + "
                    "0.25%s; }" % (T, t, TW, T, lf, lf),
                    "static %s rcb1_%s%s(%s x) { return x / (1.0%s + "
                    "fabs%s(x)); }" % (T, t, TW, T, lf, m),
                    "static %s rcb2_%s%s(%s x) { return exp%s(-x * x); }" % (
                        T, t, TW, T, m),
                    "static %s rsimp_%s%s(%s (*f)(%s), %s a, %s b) {" % (
                        T, t, TW, T, T, T, T),
                    "  %s h = (b - a) * 0.25%s;" % (T, lf),
                    "  %s s = f(a) + f(b);" % T,
                    "  for (int i = 1; i < 4; i++)",
                    "    s += (i %% 2 ? 4.0%s : 2.0%s) * f(a + i * h);" % (
                        lf, lf),
                    "  return s * h / 3.0%s;" % lf, "}",
                    "static %s rtwice_%s%s(%s (*f)(%s), %s x) {" % (
                        T, t, TW, T, T, T),
                    "  return (*f)((*f)(x));", "}",
                    "static %s rapply_%s%s(%s (*f)(%s), %s (*g)(%s), %s x) {"
                    % (T, t, TW, T, T, T, T, T),
                    "  if (x > 1.0%s)" % lf,
                    "    return rtwice_%s%s(f, x) + g(x);" % (t, TW),
                    "  return rtwice_%s%s(g, x) * f(x);" % (t, TW), "}"]
            if "gscratch" in self.f:
                U = t.upper()
                sq, m1, m2 = ("rsq_%s%s" % (t, TW), "rmx1_%s%s" % (t, TW),
                              "rmx2_%s%s" % (t, TW))
                out += [
                    "static %s %s;" % (T, sq),
                    "#define RSQ_%s%s(a) ((%s = (a)) == 0.0%s ? 0.0%s : "
                    "%s * %s)" % (U, TW, sq, lf, lf, sq, sq),
                    "static %s %s, %s;" % (T, m1, m2),
                    "#define RMAX_%s%s(a, b) (%s = (a), %s = (b), %s > %s "
                    "? %s : %s)" % (U, TW, m1, m2, m1, m2, m1, m2),
                    # the same values without the globals (rfix)
                    "static inline %s rsqv_%s%s(%s a) { return a == 0.0%s ? "
                    "0.0%s : a * a; }" % (T, t, TW, T, lf, lf),
                    "static inline %s rmaxv_%s%s(%s a, %s b) { return a > b "
                    "? a : b; }" % (T, t, TW, T, T)]
            if "views" in self.f:
                out += [
                    "static %s rnsum_%s%s(const %s *a, int n, %s w) {" % (
                        T, t, TW, T, T),
                    "  %s s = 0;" % T,
                    "  for (int i = 1; i <= n; i++)",
                    "    s = s * w + a[i];", "  return s;", "}"]
        if "gscratch" in self.f:
            out += ["static int rmn1%s, rmn2%s;" % (TW, TW),
                    "#define RIMIN%s(a, b) (rmn1%s = (a), rmn2%s = (b), "
                    "rmn1%s < rmn2%s ? rmn1%s : rmn2%s)" % ((TW,) * 7),
                    "static inline int riminv%s(int a, int b) { return a < b "
                    "? a : b; }" % TW]
        return out

    # ------------------------------------------------------------ params
    def rparams(self, types, cps, cp_class):
        """'views' on walked ragged parameters of the first rounds' walk
        forms; whether NAME_hvp can be asked for."""
        if "views" in self.f:
            for cp in cps:
                if cp.kind == "a" and cp.walk in ("for", "while", "end",
                                                  "ptr") and \
                        not cp.inter and not cp.extd and not cp.extf and \
                        self.r.random() < 0.3:
                    cp.walk = "rview"
        if "views" not in self.f or any(cp.walk for cp in cps) or \
                any(getattr(cp, "flat", False) for cp in cps) or \
                self.r.random() >= 0.15:
            return True
        # a walked ragged parameter of its own (one walk per function)
        from zfeatures import zflat
        N = self.r.randint(2, 6)
        if zflat(cps) + N + 2 > 64:
            return True
        ln = cp_class("v", "ln%d" % len(cps), "i", u=self.r.random() < 0.25,
                      lenmax=N)
        cps.append(ln)
        cp = cp_class("a", "xv%d" % len(cps), self.r.choice(types),
                      dims=(N,), lenp=ln)
        cp.layout = self.r.choice(["", "", "packed", "pointers"])
        cp.nd = self.r.random() < 0.1
        cp.walk = "rview"
        cps.append(cp)
        return not cp.layout or "precs" in self.f

    @staticmethod
    def rattach(g):
        g.rfall = 0  # gotofall blocks made
        g.rscr = set()  # scratch globals used in this full expression
        g.rscr_any = False  # a scratch global used: called by no other
        g.rstatic_ok = True  # no self-call: static scratch allowed

    def rsetup(self, g, cps):
        g.rstatic_ok = not g.tself

    # ------------------------------------------------------------ leaves
    def rfleaf(self, g, t):
        """A call of a helper taking a function pointer, a local function
        pointer's call, or a scratch macro; or None."""
        if g.is_helper:
            return None
        r = self.r.random()
        if r < 0.006 and "fptrs" in self.f:
            return self.fptr_call(g, t)
        if 0.05 <= r < 0.06 and "gscratch" in self.f:
            cand = [s for s in RSCR if s[1] == t and s[3] not in g.rscr]
            if not cand:
                return None
            nm, _, ar, key = self.r.choice(cand)
            g.rscr.add(key)
            g.rscr_any = True
            args = [g.fexpr(t, self.r.choice([2, 3])) for _ in range(ar)]
            return "%s%s(%s)" % (nm, TW, ", ".join(args))
        return None

    def rileaf(self, g):
        if g.is_helper or "gscratch" not in self.f or "mn" in g.rscr or \
                self.r.random() >= 0.04:
            return None
        g.rscr.add("mn")
        g.rscr_any = True
        return "RIMIN%s(%s, %s)" % (TW, g.int_expr(1), g.int_expr(1))

    def callback(self, g, t):
        """A function to pass: a callback's name or a local function
        pointer in scope (of type t)."""
        loc = [(nm, k) for nm, (kind, ft, _ro, k) in g.scope.all().items()
               if kind == "rfp" and ft == t]
        if loc and self.r.random() < 0.5:
            nm, k = self.r.choice(loc)
        else:
            k = self.r.choice([0, 0, 1, 1, 2] if g.allow_transc else [0, 1])
            nm = "rcb%d_%s%s" % (k, t, TW)
            if self.r.random() < 0.2:
                nm = "&" + nm
        if k == 2:
            g.transc = True
        return nm

    def fptr_call(self, g, t):
        k = self.r.randrange(4)
        loc = [nm for nm, (kind, ft, _ro, _k) in g.scope.all().items()
               if kind == "rfp" and ft == t]
        if k == 0:
            return "rsimp_%s%s(%s, %s, %s)" % (
                t, TW, self.callback(g, t), g.fexpr(t, 3), g.fexpr(t, 3))
        if k == 1:
            return "rtwice_%s%s(%s, %s)" % (t, TW, self.callback(g, t),
                                           g.fexpr(t, 2))
        if k == 2 or not loc:
            return "rapply_%s%s(%s, %s, %s)" % (
                t, TW, self.callback(g, t), self.callback(g, t),
                g.fexpr(t, 2))
        nm = self.r.choice(loc)
        if g.scope.all()[nm][3] == 2:
            g.transc = True
        form = "(*%s)(%s)" if self.r.random() < 0.4 else "%s(%s)"
        return form % (nm, g.fexpr(t, 2))

    # ------------------------------------------------------------ stmts
    def rstmt(self, g, ind, in_loop):
        """A statement of the tenth round, or False."""
        g.rscr = set()  # a new full expression
        r = self.r.random()
        if r < 0.15 and "gotofall" in self.f and ind == 1 and \
                not g.loop_depth and not g.switch_depth and \
                not g.nogoto and not g.is_helper and g.rfall < 1:
            self.fall_block(g, ind)
            return True
        if 0.25 <= r < 0.28 and "sscratch" in self.f and \
                not g.is_helper and g.rstatic_ok and ind < 6:
            self.static_block(g, ind, in_loop)
            return True
        if 0.33 <= r < 0.36 and "fptrs" in self.f and not g.is_helper:
            t = self.r.choice(g.types)
            T = tname(t)
            nm = g.fresh("fp")
            k = self.r.randrange(3 if g.allow_transc else 2)
            g.emit(ind, "%s (*%s)(%s) = %srcb%d_%s%s;" % (
                T, nm, T, "&" if self.r.random() < 0.3 else "", k, t, TW))
            g.scope.vars[nm] = ("rfp", t, True, k)
            return True
        return False

    def no_jumps(self, g):
        """Take away every label and goto target (restored by
        jumps_back)."""
        saved = (g.fwd_labels, g.retry_labels, g.tail, g.tlabels,
                 g.slabels, g.jumps_left, g.switch_left)
        g.fwd_labels, g.retry_labels, g.tail = [], [], None
        g.tlabels, g.slabels = [], []
        g.jumps_left = g.switch_left = 0
        return saved

    @staticmethod
    def jumps_back(g, saved):
        (g.fwd_labels, g.retry_labels, g.tail, g.tlabels, g.slabels,
         g.jumps_left, g.switch_left) = saved
        g.rscr = set()

    def skipped(self, g, ind, n):
        """Statements that lanes entering the block skip: no declaration
        at this level, no label and no goto."""
        saved = self.no_jumps(g)
        for _ in range(n):
            if g.stmts_left <= 0:
                break
            g.stmts_left -= 1
            g.rscr = set()
            fw = g.vars_of("fd", writable=True)
            if fw and self.r.random() < 0.6:
                p, t = self.r.choice(fw)
                g.emit(ind, "%s = %s * %s + %s;" % (
                    p, p, g.lit_exact(t, 0.5), g.fexpr(t, 1)))
            else:
                g.emit(ind, "if (%s) {" % g.cond(side=True))
                g.block(ind + 1, False, self.r.randint(1, 2))
                g.emit(ind, "}")
        self.jumps_back(g, saved)

    def fall_block(self, g, ind):
        """Gotos, then `if (c) { ...; L: ...; }` (or L in the else side,
        in an else-if, one if deeper): the lanes that took a goto enter
        the ifs without evaluating their conditions."""
        lab = g.fresh("fall")
        g.rfall += 1
        how = self.r.random()
        if how < 0.35:
            self.pre_loop(g, ind, lab)  # sfeatures: leaving into it
        if how >= 0.2:
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "goto %s;" % lab)
            if self.r.random() < 0.2:
                g.emit(ind, "if (%s)" % g.cond(side=True))
                g.emit(ind + 1, "goto %s;" % lab)
        g.rscr = set()
        form = self.r.choice(["then", "then", "else", "elif"])
        g.emit(ind, "if (%s) {" % g.cond(side=True))
        if form != "then":
            g.block(ind + 1, False, self.r.randint(1, 2))
            if form == "elif":
                g.emit(ind, "} else if (%s) {" % g.cond(side=True))
            else:
                g.emit(ind, "} else {")
        g.push()
        self.skipped(g, ind + 1, self.r.randint(0, 2))
        deep = self.r.random() < 0.35
        i1 = ind + 1
        if deep:
            g.emit(i1, "if (%s) {" % g.cond(side=True))
            g.push()
            i1 += 1
            self.skipped(g, i1, self.r.randint(0, 1))
        g.emit(i1 - 1, "%s:" % lab)
        # from the label on: what every entering lane has (the scope
        # before the gotos: nothing was declared at the skipped levels)
        fw = g.vars_of("fd", writable=True)
        if fw:
            p, t = self.r.choice(fw)
            g.emit(i1, "%s = %s * %s + %s;" % (
                p, p, g.lit_exact(t, 0.5), g.fexpr(t, 1)))
        g.block(i1, False, self.r.randint(0, 2))
        if deep:
            g.pop()
            g.emit(ind + 1, "}")
            g.block(ind + 1, False, self.r.randint(0, 1))
        g.pop()
        if form == "elif" or (form == "then" and self.r.random() < 0.3):
            g.emit(ind, "} else {")
            g.block(ind + 1, False, self.r.randint(1, 2))
        g.emit(ind, "}")

    def static_block(self, g, ind, in_loop):
        """{ static T u[N]; <every element written>; ...uses... } (and
        static scalars written first): no label in the block."""
        saved = self.no_jumps(g)
        t = self.r.choice(g.types)
        T = tname(t)
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        n = self.r.randint(2, 4)
        u = g.fresh("su")
        g.emit(i1, "static %s %s[%d];" % (T, u, n))
        form = self.r.randrange(3)
        if form == 0:
            for k in range(n):
                g.rscr = set()
                g.emit(i1, "%s[%d] = %s;" % (u, k, g.fexpr(t, 2)))
        elif form == 1 or n < 3:
            i = g.fresh("i")
            hi = self.r.choice(["%s < %d" % (i, n), "%s <= %d" % (i, n - 1)])
            g.emit(i1, "for (int %s = 0; %s; %s) %s[%s] = %s * (%s)%s + "
                   "%s;" % (i, hi, self.r.choice([i + "++", "++" + i]), u, i,
                            g.fexpr(t, 2), T, i, g.fexpr(t, 2)))
        else:
            g.emit(i1, "%s[0] = %s;" % (u, g.fexpr(t, 2)))
            g.rscr = set()
            g.emit(i1, "%s[1] = %s;" % (u, g.fexpr(t, 2)))
            k = g.fresh("k")
            c = g.clamp1(g.fexpr(t, 2), t)
            g.emit(i1, "for (int %s = 2; %s < %d; %s++)" % (k, k, n, k))
            g.emit(i1 + 1, "%s[%s] = %s[%s - 1] * %s + %s[%s - 2] * %s;" % (
                u, k, u, k, c, u, k, g.lit_exact(t, 0.5)))
        g.scope.vars[u] = ("a", t, False, n)
        g.rscr = set()
        if self.r.random() < 0.4:
            s = g.fresh("ss")
            g.emit(i1, "static %s %s;" % (T, s))
            g.emit(i1, "%s = %s;" % (s, g.fexpr(t, 2)))
            g.scope.vars[s] = ("v", t, False, 0)
        if self.r.random() < 0.3:
            a, b = g.fresh("sa"), g.fresh("sb")
            g.emit(i1, "static %s %s, %s;" % (T, a, b))
            g.emit(i1, "split_%s%s(%s, &%s, &%s);" % (t, TW, g.fexpr(t, 2),
                                                     a, b))
            g.scope.vars[a] = ("v", t, False, 0)
            g.scope.vars[b] = ("v", t, False, 0)
        g.rscr = set()
        fw = g.vars_of("fd", writable=True)
        fw = [v for v in fw if g.scope.vars.get(v[0]) is None]
        if fw:
            acc, at = self.r.choice(fw)
            if self.r.random() < 0.5:
                e = "wsum_%s%s(%s, %d, %s)" % (t, TW, u, n, g.clamp1(
                    g.fexpr(t, 2), t))
            else:
                e = "%s[%s]" % (u, g.index(n))
            g.emit(i1, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.conv(e, t, at)))
        g.block(i1, in_loop, self.r.randint(0, 2))
        g.pop()
        g.emit(ind, "}")
        self.jumps_back(g, saved)

    # ------------------------------------------------------------ end
    def rfix(self, g):
        """A full expression (one line) uses each scratch global once: a
        generated expression's text may be repeated in it (the softsign
        `e / (1 + fabs(e))`, `sqrt(e * e + c)`, `k != 0 ? x / k : y`), and
        two writes of one global unsequenced against each other are
        undefined in C. Later uses in a line become the same function of
        the arguments without the global (no draw)."""
        if "gscratch" not in self.f:
            return
        for k, ln in enumerate(g.lines):
            seen = set()

            def sub(m):
                if m.group(1) in seen:
                    return RFIX[m.group(1)] + TW + "("
                seen.add(m.group(1))
                return m.group(0)
            g.lines[k] = RSCR_USE.sub(sub, ln)

    # ------------------------------------------------------------ walks
    def rwalk(self, g, ind):
        """The one walk of a ragged parameter through an offset view."""
        cp = g.walkp
        g.walked = True
        x, n, T, t = cp.nm, cp.lenp.nm, tname(cp.t), cp.t
        fw = g.vars_of("fd", writable=True)
        if self.r.random() < 0.25:
            # a 1-based helper given 'x - 1'
            v = g.fresh("v")
            g.emit(ind, "%s %s = rnsum_%s%s(%s - 1, %s, %s);" % (
                T, v, t, TW, x, n, g.clamp1(g.fexpr(t, 2), t)))
            g.scope.vars[v] = ("v", t, False, 0)
            return
        a = g.fresh("a")
        g.emit(ind, "const %s *%s = %s;" % (T, a, self.r.choice(
            ["%s - 1", "&%s[-1]"]) % x))
        g.loop_depth += 1
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        v, i = g.fresh("v"), g.fresh("i")
        if self.r.random() < 0.5:
            g.emit(i1, "for (int %s = 1; %s <= %s; %s++) {" % (i, i, n, i))
        else:
            g.emit(i1, "for (int %s = %s; %s >= 1; %s--) {" % (i, n, i, i))
        g.scope.vars[i] = ("v", "i", True, 0)
        g.emit(i1 + 1, "%s %s = %s[%s];" % (T, v, a, i))
        g.scope.vars[v] = ("v", t, True, 0)
        if fw:
            acc, at = self.r.choice(fw)
            g.emit(i1 + 1, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.conv(v, t, at)))
        g.block(i1 + 1, True, self.r.randint(1, 3))
        g.emit(i1, "}")
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1
