"""The constructs of the thirteenth round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'bcalls' (c37b23e, fc97ad4, 2aa638d; docs/calls.md "Batch functions of
other files", tests/exec/test_batched_callee.c): calls of batch, diff
functions of another file. One to three callees `cb0` .. `cb2` (float,
double and int parameters, some BD_UNIFORM or BD_NODIFF, a float or
double result; random bodies with branches, loops, early returns) are
defined in a second translation unit, the part of the generated file
under `#ifdef FZ_OTHER_FILE`, which gen.py compiles with the plugin on
its own and links in; the main part declares them
`__attribute__((batch, diff))` with the same annotations. Annotated
functions call them as leaves of expressions (in branches, loops, `?:`
arms, conditions), and in loops and per-lane branches whose accumulator
goes through the call (`cv = cb0(acc, ...); acc = acc * 0.5 + cv / (1 +
fabs(cv));`), and in the final return, so NAME_batched calls the
callee's NAME_batched and NAME_grad / NAME_jvp its NAME_grad (the
partials on the tape). Arguments
of a BD_UNIFORM parameter are a literal or a uniform parameter of the
caller in half of the calls (one call for the lanes), else per example;
those of a BD_NODIFF parameter carry no derivative (a literal or an int:
else the error diff-batched-nodiff). Half of the functions call them;
such a caller asks for no NAME_hvp
(diff-batched-hvp) and is called by no later function. The twins call
the callee's twins (`cb0_tw`, `cb0_ld`, `cb0_zt`, `cb0_fe`), defined in
the main part.

'cwalks' (with 'walks'; 9b2325a, 5690fb3; docs/abi.md "Array
parameters", tests/arrays/test_lead_walk.c): the walked ragged parameter
(or one of its own) read as Cephes reads coefficients, the pointer the
parameter itself, a copy `const T *p = x;`, or a local declared first
and set by a statement (`const T *p; p = x;`), declared `const T *x` or
`const T x[]`: polevl's `s = *p++; i = n; do s = s * w + *p++; while
(--i);` (extent n + 1), chbevl's Clenshaw recurrence (n + 1), `while
(i--)` and `while (i-- > 0)` (n + 1), `i = n - 1; ... for (; i > 0;
i--)` (n), `do ... while (--i > 0)` from n - 1 (max(n, 2)), two reads
before `for (i = n; i-- > 0;)` (n + 2), and `x[0]` besides a walk of n
(n); and in any function, such walks over file-scope tables, local
arrays and chosen pointers with a constant or per-example count.

'achoice' (ca3486d, tests/exec/test_ptr_params.c): two or three
read-only array parameters of one type and one declared length (`const
double xc3[4], const double xc4[4]`; strided, BD_UNIFORM, BD_PACKED,
BD_POINTERS, BD_NODIFF) among which a pointer is chosen per example,
`const T *c = (v > 0.5) ? xc3 : xc4;` (a `?:` of `?:`, or of a
file-scope table at least as long), or set to one and re-pointed to
another under a per-lane branch, then used as an array of that length
(indices, polevl/wsum, pointer walks, the walks of 'cwalks').

Each draws random numbers only when enabled: the output of the other
features (the twelfth round's list among them) does not change."""
from markers import TW, tname

NEW13 = ("bcalls", "cwalks", "achoice")
# the walks of 'cwalks' (CP.walk): an example's extent (a C format of its
# length n, None: n) and the elements past the length's maximum N
CWALKS = {"cpolevl": ("(%s + 1)", 1), "cchb": ("(%s + 1)", 1),
          "cwhile": ("(%s + 1)", 1), "cwhilegt": ("(%s + 1)", 1),
          "cfordown": (None, 0), "cdogt": ("(%s > 2 ? %s : 2)", 0),
          "ctwo": ("(%s + 2)", 2), "cfirst": (None, 0)}


class OExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def oon(self):
        return bool(self.f & set(NEW13))

    def oinit(self):
        self.ocallees = []  # (name, rt, params, transc, hasfloat)
        self.other = []  # the second translation unit's text ('bcalls')

    @staticmethod
    def oattach(g):
        g.ocalls_left, g.ocalled = 0, False  # (osetup: half the functions)
        g.ochoices = 2  # 'achoice' statements left
        g.achoice_params = set()

    # ------------------------------------------------------------ callees
    def ocallees_make(self, fngen, counter):
        """'bcalls': the callees' declarations (the main part), their
        definitions (the other file, annotated) and their twins' text
        (markers: one rendering per twin). ([decl], [def], [twin])."""
        if "bcalls" not in self.f:
            return [], [], []
        decls, defs, twins = [], [], []
        for c in range(self.r.randint(1, 3)):
            types = self.r.choice(["d", "d", "f", "fd"])
            rt = self.r.choice(types)
            params = []
            for p in range(self.r.randint(1, 3)):
                t = self.r.choice(types + types + "i")
                params.append(["p%d" % p, t, self.r.random() < 0.2,
                               t != "i" and self.r.random() < 0.15])
            if all(t == "i" or nd for _, t, _, nd in params):
                params.append(["p%d" % len(params), rt, False, False])
            params = [tuple(p) for p in params]
            g = fngen(self.r, rt, params, [], False, counter)
            g.stmts_left = self.r.randint(3, 9)
            g.types = types
            g.allow_transc = self.r.random() < 0.6
            # no file data nor the main part's helpers (polevl_d, split_d:
            # the other file has none)
            g.ptr_left, g.arr_calls_left = 0, 0
            body = g.body()
            # the final return also depends on every parameter (random
            # bodies often return constants: the callers' derivatives
            # would not go through the partials)
            k = max(i for i, ln in enumerate(body)
                    if ln.startswith("  return "))
            dep = " + ".join("%s * %s" % (g.conv(nm, t, rt) if t != rt
                                          else nm, g.lit_exact(rt, 0.5))
                             for nm, t, _, _ in params)
            body[k] = "  return %s + %s;" % (body[k][len("  return "):-1],
                                             dep)
            name = "cb%d" % c
            sig = ", ".join("%s%s%s %s" % (
                "BD_UNIFORM " if u else "", "BD_NODIFF " if nd else "",
                tname(t), nm) for nm, t, u, nd in params)
            decls.append("__attribute__((batch, diff)) %s %s(%s);" % (
                tname(rt), name, sig))
            defs += ["BATCHDIFF %s %s(%s) {" % (tname(rt), name, sig)] + \
                body + ["}"]
            twins += ["static %s %s%s(%s) {" % (tname(rt), name, TW, ", ".join(
                "%s %s" % (tname(t), nm) for nm, t, _, _ in params))] + \
                body + ["}"]
            hf = g.hasfloat or "f" in types
            self.ocallees.append((name, rt, params, g.transc, hf))
        return decls, defs, twins

    def omutate(self, eps):
        """--mutate-callee: the other file's callees renamed cbK_real
        (before their definitions) and wrappers cbK, cbK_batched and
        cbK_grad around them (after), cbK_grad scaling the increments of
        its shadows (the partials the callers' NAME_grad and NAME_jvp
        use) by 1 + eps: a deliberate bug in the partials, which the
        oracle must find. ([before], [after]) in the annotated rendering."""
        if not eps or not self.ocallees:
            return [], []
        ct = {"f": "float", "d": "double", "i": "int"}
        pre, post = [], ["#include <stdlib.h>", "#include <string.h>"]
        for name, rt, params, _, _ in self.ocallees:
            pre.append("#define %s %s_real" % (name, name))
            post.append("#undef %s" % name)
            R = ct[rt]
            sig = ", ".join("%s %s" % (ct[t], nm) for nm, t, _, _ in params)
            bsig = ", ".join(("%s %s" if u else "const %s *%s") % (ct[t], nm)
                             for nm, t, u, _ in params)
            dif = [(nm, t, u) for nm, t, u, nd in params
                   if t != "i" and not nd]
            gsig = bsig + ", %s *ret, const %s *d_ret" % (R, R) + "".join(
                ", %s *d_%s" % (ct[t], nm) for nm, t, _ in dif)
            args = ", ".join(nm for nm, _, _, _ in params)
            gargs = args + ", ret, d_ret" + "".join(
                ", d_" + nm for nm, _, _ in dif)
            post += [
                "%s %s_real(%s);" % (R, name, sig),
                "void %s_real_batched(size_t n, %s, %s *ret);" % (name, bsig,
                                                                  R),
                "void %s_real_grad(size_t n, %s);" % (name, gsig),
                "%s %s(%s) { return %s_real(%s); }" % (R, name, sig, name,
                                                       args),
                "void %s_batched(size_t n, %s, %s *ret) {" % (name, bsig, R),
                "  %s_real_batched(n, %s, ret);" % (name, args), "}",
                "void %s_grad(size_t n, %s) {" % (name, gsig)]
            for nm, t, u in dif:
                k = "1" if u else "n"
                post += ["  %s *o_%s = d_%s ? malloc((%s + 1) * sizeof "
                         "*o_%s) : NULL;" % (ct[t], nm, nm, k, nm),
                         "  if (d_%s) memcpy(o_%s, d_%s, %s * sizeof *o_%s);"
                         % (nm, nm, nm, k, nm)]
            post.append("  %s_real_grad(n, %s);" % (name, gargs))
            for nm, t, u in dif:
                k = "1" if u else "n"
                post += ["  if (d_%s)" % nm,
                         "    for (size_t i = 0; i < %s; i++)" % k,
                         "      d_%s[i] = o_%s[i] + (d_%s[i] - o_%s[i]) * "
                         "(%s)(1 + %r);" % (nm, nm, nm, nm, ct[t], eps),
                         "  free(o_%s);" % nm]
            post.append("}")
            # the symbols naming the wrappers' ABIs, which the callers
            # reference (plugin/lower/LowerBatchedCall.cpp, abiDeclaration)
            for fl in ("batched", "grad"):
                abi = "%s %s(%s):%s" % (R, name, ", ".join(
                    ("uniform " if u else "") +
                    ("nodiff " if nd and fl == "grad" else "") + ct[t]
                    for _, t, u, nd in params), fl)
                post.append('const char fz_abi_%s_%s[1] __asm__('
                            '"batchdiff.abi:%s") = {0};' % (name, fl, abi))
            # and that they use no global (a caller that writes one before
            # the call, or reads one after it, references these:
            # plugin/lower/GlobalCalls.cpp)
            for what in ("sets", "uses"):
                post.append('const char fz_ng_%s_%s[1] __asm__('
                            '"batchdiff.%s-no-global:%s") = {0};'
                            % (name, what, what, name))
        return pre, post

    def ocall(self, g, t):
        """A call of one of the callees, converted to t (its arguments
        drawn here), or None."""
        if not self.ocallees:
            return None
        g.ocalls_left -= 1
        name, rt, params, transc, hf = self.r.choice(self.ocallees)
        unif = [nm for nm, pt, u, _ in g.params if u and pt != "i"]
        args = []
        for nm, pt, u, nd in params:
            if pt == "i":
                args.append(g.int_expr(2))
            elif nd:
                # no derivative (diff-batched-nodiff otherwise)
                args.append(g.lit(pt) if self.r.random() < 0.6 else
                            "(%s)%s" % (tname(pt), g.int_expr(2)))
            elif u and self.r.random() < 0.5:
                # one value for the lanes: one call (2aa638d)
                if unif and self.r.random() < 0.5:
                    args.append("(%s)%s" % (tname(pt), self.r.choice(unif)))
                else:
                    args.append(g.lit(pt))
            else:
                fl = g.vars_of(g.types)
                if fl and self.r.random() < 0.5:
                    nm, vt = self.r.choice(fl)
                    args.append(g.conv(nm, vt, pt))
                else:
                    args.append(g.fexpr(pt, 2))
        g.transc = g.transc or transc
        g.hasfloat = g.hasfloat or hf
        g.ocalled = True
        e = "%s%s(%s)" % (name, TW, ", ".join(args))
        return g.conv(e, rt, t) if rt != t else e

    def oret(self, g, ret):
        """The final return of a function calling the callees also adds a
        call (of the variables there): its derivative goes through the
        callee's partials on the path most examples take."""
        if "bcalls" not in self.f or g.is_helper or g.ocalls_left <= 0:
            return ret
        return "(%s) + %s * %s" % (ret, self.ocall(g, g.rtype),
                                   g.lit_exact(g.rtype, 0.5))

    def ofleaf(self, g, t):
        # (one call left for the final return: oret)
        if "bcalls" not in self.f or g.is_helper or g.ocalls_left <= 1 or \
                self.r.random() >= 0.06:
            return None
        return self.ocall(g, t)

    def ocall_stmt(self, g, ind):
        """A call per iteration of a loop, or under a per-lane branch,
        whose result feeds an accumulator (squashed: bounded)."""
        fw = g.vars_of("fd", writable=True)
        if not fw:
            return False
        acc, t = self.r.choice(fw)
        T = tname(t)
        loop = g.loop_depth < 2 and self.r.random() < 0.6
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        if loop:
            n, i = g.fresh("n"), g.fresh("i")
            g.emit(i1, "int %s = %s;" % (n, g.trip_expr()))
            g.emit(i1, "for (int %s = 0; %s < %s; %s++) {" % (i, i, n, i))
            g.scope.vars[i] = ("v", "i", True, 0)
        else:
            g.emit(i1, "if (%s) {" % g.cond(side=True))
        cv = g.fresh("cv")
        g.emit(i1 + 1, "%s %s = %s;" % (T, cv, self.ocall(g, t)))
        g.emit(i1 + 1, "%s = %s * %s + %s / (%s + %s(%s));" % (
            acc, acc, g.lit_exact(t, 0.5), cv, g.lit_exact(t, 1.0),
            g.m("fabs", t), cv))
        g.emit(i1, "}")
        g.pop()
        g.emit(ind, "}")
        return True

    # ------------------------------------------------------------ params
    def oparams(self, types, cps, cp_class):
        """'cwalks' on walked ragged parameters (or one of its own),
        'achoice' array parameters; whether NAME_hvp can be asked for."""
        from zfeatures import zflat
        hvp = True
        if "cwalks" in self.f and "walks" in self.f:
            for cp in cps:
                if cp.kind == "a" and not cp.inter and not cp.extd and \
                        cp.walk in ("for", "while", "end", "ptr") and \
                        self.r.random() < 0.5:
                    self.oform(cp)
            # (a function with a flat matrix has no walked parameter:
            # tfeatures)
            if not any(cp.walk or getattr(cp, "flat", False) for cp in cps) \
                    and self.r.random() < 0.4:
                N = self.r.randint(2, 6)
                if zflat(cps) + N + 2 <= 64:
                    ln = cp_class("v", "ln%d" % len(cps), "i",
                                  u=self.r.random() < 0.25, lenmax=N)
                    cps.append(ln)
                    cp = cp_class("a", "xw%d" % len(cps),
                                  self.r.choice(types), dims=(N,), lenp=ln)
                    cp.layout = self.r.choice(["", "", "packed", "pointers"])
                    cp.nd = self.r.random() < 0.1
                    cps.append(cp)
                    self.oform(cp)
                    hvp = not cp.layout or "precs" in self.f
        if "achoice" in self.f and self.r.random() < 0.45:
            t = self.r.choice(types)
            N = self.r.randint(2, 5)
            k = self.r.choice([2, 2, 3])
            if zflat(cps) + k * N <= 64:
                for _ in range(k):
                    cp = cp_class("a", "xc%d" % len(cps), t, dims=(N,))
                    cp.layout = self.r.choice(["", "", "packed",
                                               "pointers"])
                    cp.u = not cp.layout and self.r.random() < 0.2
                    cp.nd = self.r.random() < 0.1
                    cp.achoice = True
                    cps.append(cp)
                    if cp.layout and "precs" not in self.f:
                        hvp = False
        return hvp

    def oform(self, cp):
        form = self.r.choice(sorted(CWALKS))
        cp.walk = form
        cp.extf, more = CWALKS[form]
        cp.cbr = self.r.random() < 0.4  # declared 'const T x[]'
        # (N >= 2: cdogt's max(n, 2) fits)
        cp.dims = (cp.dims[0] + more,)

    # ------------------------------------------------------------ walks
    def owalk(self, g, ind):
        """The one walk of a ragged parameter in a 'cwalks' shape: its
        statements in the function's body (no braces at its top level:
        the loop must be a statement of the body)."""
        cp = g.walkp
        g.walked = True
        x, n = cp.nm, cp.lenp.nm
        brace = ind != 1
        if brace:
            g.emit(ind, "{")
            g.push()
            ind += 1
        style = self.r.randrange(3)
        p = x
        if style == 1:
            p = g.fresh("p")
            g.emit(ind, "const %s *%s = %s;" % (tname(cp.t), p, x))
        elif style == 2:
            p = g.fresh("p")
            g.emit(ind, "const %s *%s;" % (tname(cp.t), p))
            g.emit(ind, "%s = %s;" % (p, x))
        self.cephes_walk(g, ind, cp.t, p, cp.walk, n, x)
        if brace:
            g.pop()
            g.emit(ind - 1, "}")

    def cephes_walk(self, g, ind, t, p, form, n, x=None):
        """A Cephes-shaped walk of pointer p (counted by n, the count of
        the loop: C text), its value a fresh read-only variable folded
        into an accumulator; the loop's body may hold more statements."""
        T = tname(t)
        w = g.lit_exact(t, self.r.choice([0.5, -0.75, 1.25, -0.5]))
        s, i = g.fresh("s"), g.fresh("i")
        g.loop_depth += 1
        body = []  # the loop's first statements (the walk's step)
        tail = None
        if form == "cpolevl":
            g.emit(ind, "%s %s = *%s++;" % (T, s, p))
            g.emit(ind, "int %s = %s;" % (i, n))
            g.emit(ind, "do {")
            body = ["%s = %s * %s + *%s++;" % (s, s, w, p)]
            tail = "} while (--%s);" % i
        elif form == "cchb":
            b1, b2 = g.fresh("b"), g.fresh("b")
            g.emit(ind, "%s %s = *%s++, %s = 0, %s;" % (T, s, p, b1, b2))
            g.emit(ind, "int %s;" % i)
            g.emit(ind, "%s = %s;" % (i, n))
            g.emit(ind, "do {")
            body = ["%s = %s;" % (b2, b1), "%s = %s;" % (b1, s),
                    "%s = %s * %s - %s + *%s++;" % (s, w, b1, b2, p)]
            tail = "} while (--%s);" % i
        elif form in ("cwhile", "cwhilegt"):
            g.emit(ind, "%s %s = *%s++;" % (T, s, p))
            g.emit(ind, "int %s = %s;" % (i, n))
            g.emit(ind, "while (%s--%s) {" % (i, " > 0" if form ==
                                               "cwhilegt" else ""))
            body = ["%s = %s * %s + *%s++;" % (s, s, w, p)]
        elif form == "cfordown":
            g.emit(ind, "int %s = %s - 1;" % (i, n))
            g.emit(ind, "%s %s = *%s++;" % (T, s, p))
            g.emit(ind, "for (; %s > 0; %s--) {" % (i, i))
            body = ["%s = %s * %s + *%s++;" % (s, s, w, p)]
        elif form == "cdogt":
            g.emit(ind, "int %s = %s - 1;" % (i, n))
            g.emit(ind, "%s %s = *%s++;" % (T, s, p))
            g.emit(ind, "do {")
            body = ["%s = %s * %s + *%s++;" % (s, s, w, p)]
            tail = "} while (--%s > 0);" % i
        elif form == "ctwo":
            u = g.fresh("u")
            g.emit(ind, "%s %s = *%s++;" % (T, s, p))
            g.emit(ind, "%s %s = *%s++ * %s;" % (T, u, p, w))
            g.emit(ind, "int %s;" % i)
            g.emit(ind, "for (%s = %s; %s-- > 0;) {" % (i, n, i))
            body = ["%s = %s * %s + %s * *%s++;" % (s, s, w, u, p)]
            g.scope.vars[u] = ("v", t, True, 0)
        else:  # cfirst: x[0] besides a walk of n
            g.emit(ind, "%s %s = %s[0] * %s;" % (T, s, x or p, w))
            g.emit(ind, "for (int %s = 0; %s < %s; %s++) {" % (i, i, n, i))
            body = ["%s = %s * %s + *%s++;" % (s, s, w, p)]
        g.push()
        for ln in body:
            g.emit(ind + 1, ln)
        g.scope.vars[s] = ("v", t, True, 0)
        g.block(ind + 1, True, self.r.randint(0, 2))
        g.pop()
        g.emit(ind, tail or "}")
        g.loop_depth -= 1
        g.scope.vars[s] = ("v", t, True, 0)
        fw = g.vars_of("fd", writable=True)
        if fw:
            acc, at = self.r.choice(fw)
            g.emit(ind, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(at, 0.5), g.conv(s, t, at)))
        return s

    def owalk_stmt(self, g, ind):
        """A Cephes walk over a table, local array or chosen pointer of the
        function (at least 2 elements), counted by a constant or by a
        per-example count of at most what is left."""
        arrs = [a for a in g.arrays() if a[2] >= 2 and a[1] in "fd"]
        if not arrs or g.loop_depth >= 2:
            return False
        nm, t, sz = self.r.choice(arrs)
        off = self.r.randint(0, sz - 2)
        left = sz - off  # elements from the start of the walk
        form = self.r.choice(["cpolevl", "cchb", "cwhile", "cwhilegt",
                              "cfordown", "cdogt", "ctwo"])
        if form == "ctwo" and left < 3:
            form = "cwhile"
        k = {"ctwo": 2}.get(form, 1)  # reads before the loop
        # the count c: the loop reads c elements (cfordown, cdogt: c - 1,
        # at least 1 for cdogt) after the k before it
        most = left - k + (1 if form in ("cfordown", "cdogt") else 0)
        least = 2 if form == "cdogt" else (1 if form in ("cpolevl",
                                                           "cchb") else 0)
        if most < max(least, 1):
            return False
        if self.r.random() < 0.5:
            n = str(self.r.randint(max(least, 1), most))
        else:
            n = "(%d + %s %% %d)" % (least, g.nonneg(g.int_expr(1)),
                                    most - least + 1)
        p = g.fresh("p")
        T = tname(t)
        if self.r.random() < 0.5:
            g.emit(ind, "const %s *%s;" % (T, p))
            g.emit(ind, "%s = %s;" % (p, g.sub_array(nm, off)))
        else:
            g.emit(ind, "const %s *%s = %s;" % (T, p, g.sub_array(nm, off)))
        self.cephes_walk(g, ind, t, p, form, n)
        return True

    # ------------------------------------------------------------ choice
    def ochoice_stmt(self, g, ind):
        """'achoice': a pointer chosen per example among the function's
        read-only array parameters of one length."""
        cands = {}
        for nm, (k, t, ro, sz) in g.scope.all().items():
            if k == "a" and nm in g.achoice_params:
                cands.setdefault((t, sz), []).append(nm)
        groups = [(key, v) for key, v in sorted(cands.items())
                  if len(v) >= 2]
        if not groups:
            return False
        g.ochoices -= 1
        (t, sz), arrs = self.r.choice(groups)
        T = tname(t)
        # file-scope tables at least as long, as a third arm
        tabs = [nm for nm, (k, tt, ro, s2) in g.scope.all().items()
                if k == "a" and tt == t and isinstance(s2, int) and
                s2 >= sz and nm.startswith("T")]
        c = g.fresh("c")
        fl = g.vars_of(g.types)
        v = self.r.choice(fl)[0] if fl else None
        cond = "(%s > %s)" % (v, g.lit(g.scope.all()[v][1])) if v else \
            "(%s > 2)" % g.int_expr(1)
        a, b = self.r.sample(arrs, 2)
        form = self.r.randrange(3)
        if form == 0:
            if len(arrs) > 2 or tabs and self.r.random() < 0.5:
                third = self.r.choice([x for x in arrs if x not in (a, b)] +
                                      tabs)
                v2 = self.r.choice(fl)[0] if fl else None
                c2 = "(%s < %s)" % (v2, g.lit(g.scope.all()[v2][1])) if v2 \
                    else "1"
                b = "(%s ? %s : %s)" % (c2, b, third)
            g.emit(ind, "const %s *%s = %s ? %s : %s;" % (T, c, cond, a, b))
        elif form == 1:
            g.emit(ind, "const %s *%s = %s;" % (T, c, a))
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "%s = %s;" % (c, b))
        else:
            g.emit(ind, "const %s *%s = %s;" % (T, c, a))
            g.emit(ind, "if (%s) {" % g.cond(side=True))
            g.push()
            g.block(ind + 1, False, self.r.randint(0, 2))
            g.pop()
            g.emit(ind + 1, "%s = %s;" % (c, b))
            g.emit(ind, "}")
        g.scope.vars[c] = ("a", t, True, sz)
        # used at once: an element, or a helper's walk
        fw = g.vars_of(t, writable=True)
        if fw:
            acc = self.r.choice(fw)[0]
            g.emit(ind, "%s = %s * %s + %s[%s];" % (
                acc, acc, g.lit_exact(t, 0.5), c, g.index(sz)))
        return True

    # ------------------------------------------------------------ hooks
    def osetup(self, g, cps):
        # calls in half of the functions (the others keep NAME_hvp)
        if "bcalls" in self.f and self.ocallees and self.r.random() < 0.5:
            g.ocalls_left = 4
        g.achoice_params = set(cp.nm for cp in cps if getattr(
            cp, "achoice", False))

    def ostmt(self, g, ind, in_loop):
        """A statement of the thirteenth round, or False."""
        if g.is_helper:
            return False
        r = self.r.random()
        if r < 0.05 and "bcalls" in self.f and g.ocalls_left > 1 and \
                self.ocallees:
            return self.ocall_stmt(g, ind)
        if 0.05 <= r < 0.1 and "cwalks" in self.f:
            return self.owalk_stmt(g, ind)
        if 0.1 <= r < 0.25 and "achoice" in self.f and g.ochoices > 0:
            return self.ochoice_stmt(g, ind)
        return False
