"""FnGen: one random function body in the supported subset
(tests/fuzz/gen.py, README.md)."""
from markers import LF, MD, MF, TW, Scope, tname


class FnGen:
    """Generates one function body (annotated function or helper)."""

    def __init__(self, rng, rtype, params, callees, is_helper, counter):
        self.r = rng
        self.rtype = rtype
        self.params = params  # list of (name, type, uniform, nodiff)
        self.callees = callees  # list of (name, rtype, [ptypes], transc)
        self.is_helper = is_helper
        self.transc = False
        self.types = "fd"  # floating types used in the body
        self.allow_transc = True
        self.hasfloat = False  # float arithmetic: the twin is not exact
        self.counter = counter
        self.loop_depth = 0
        self.stmts_left = 16 if not is_helper else 6
        self.calls_left = 2
        self.lines = []
        # goto and switch: labels a goto may jump to from here (forward
        # labels after the enclosing skip block, retry labels with their
        # counters, the label after the final return), and budgets
        self.fwd_labels = []
        self.retry_labels = []
        self.tail = None
        self.jumps_left = 2
        self.switch_left = 1
        self.switch_depth = 0
        self.scope = Scope()
        for (nm, t, _u, _nd) in params:
            self.scope.vars[nm] = ("v", t, False, 0)
        self.arr_calls_left = 2
        self.ptr_left = 3
        self.param_names = set(nm for (nm, _t, _u, _nd) in params)
        self.wglobal = None
        # BD_NODIFF parameters whose bits are rebuilt into a float
        # (wfeatures.nodiff_bits): read-only, never written (genfile checks)
        self.nd_bits = []
        self.ext = None  # features.Ext with gen.py --features
        self.nogoto = False  # a pointer parameter walked (features 'walks')
        self.sret = None  # a struct return type (features 'sret')

    def use_file_data(self, data):
        """File-scope tables and read-only globals of the body's types
        (names carry the twin suffix: each rendering has its own copy)."""
        for nm, t, sz in data["tables"]:
            if t in self.types:
                self.scope.vars[nm] = ("a", t, True, sz)
        for nm, t in data["globals"]:
            if t in self.types:
                self.scope.vars[nm] = ("v", t, True, 0)

    def write_global(self, nm, t):
        """The global every example writes first (before any read, on every
        path: the first statement); afterwards an ordinary variable."""
        self.emit(1, "%s = %s;" % (nm, self.fexpr(t)))
        self.scope.vars[nm] = ("v", t, False, 0)

    # ------------------------------------------------------------ utils
    def fresh(self, base):
        self.counter[0] += 1
        # never a parameter's name ("p3"): the counter moves on only where
        # it would have been one (a file that did not compile)
        while "%s%d" % (base, self.counter[0]) in self.param_names:
            self.counter[0] += 1
        return "%s%d" % (base, self.counter[0])

    def vars_of(self, kind_types, writable=False):
        out = []
        for nm, (k, t, ro, sz) in self.scope.all().items():
            if k == "v" and t in kind_types and not (writable and ro):
                out.append((nm, t))
        return out

    def arrays(self, writable=False):
        return [(nm, t, sz) for nm, (k, t, ro, sz) in self.scope.all().items()
                if k == "a" and not (writable and ro)]

    def lit(self, t, lo=-3.0, hi=3.0):
        choices = [0.5, 1.5, 2.0, 0.25, 3.0, 0.75, 1.25, 0.125, 1.0, 0.1, 0.3]
        v = self.r.choice(choices)
        if self.r.random() < 0.3:
            v = -v
        s = repr(v) + (LF if t == "f" else "")
        return "(%s)" % s if v < 0 else s

    def m(self, fname, t):
        return fname + (MF if t == "f" else MD)

    def conv(self, expr, frm, to):
        if frm == to:
            return expr
        if to == "i":
            # clamp first: no undefined float->int conversion
            return "(int)%s(%s(%s, %s), %s)" % (
                self.m("fmin", frm), self.m("fmax", frm), expr,
                self.lit_exact(frm, -50.0), self.lit_exact(frm, 50.0))
        return "(%s)(%s)" % (tname(to), expr)

    def lit_exact(self, t, v):
        s = repr(float(v)) + (LF if t == "f" else "")
        return "(%s)" % s if v < 0 else s

    # ------------------------------------------------------------ ints
    def int_expr(self, depth=0):
        r = self.r.random()
        ints = self.vars_of("i")
        if depth > 1 or r < 0.35:
            e = self.ext.ileaf(self) if self.ext else None
            if e:
                return e
            if ints and self.r.random() < 0.8:
                return self.r.choice(ints)[0]
            return str(self.r.randint(0, 9))
        if r < 0.5:
            return "(%s + %s)" % (self.int_expr(depth + 1),
                                  self.int_expr(depth + 1))
        if r < 0.6:
            return "(%s - %s)" % (self.int_expr(depth + 1),
                                  self.int_expr(depth + 1))
        if r < 0.7:
            return "(%s * %d)" % (self.int_expr(depth + 1),
                                  self.r.randint(-3, 3))
        if r < 0.78:
            return "(%s %% %d)" % (self.int_expr(depth + 1),
                                   self.r.randint(2, 9))
        if r < 0.85:
            return "(%s / %d)" % (self.int_expr(depth + 1),
                                  self.r.randint(2, 5))
        if r < 0.92:
            # float -> int, clamped
            t = self.r.choice(self.types)
            return self.conv(self.fexpr(t, depth + 1), t, "i")
        return "(%s ? %s : %s)" % (self.cond(depth + 1),
                                   self.int_expr(depth + 1),
                                   self.int_expr(depth + 1))

    def nonneg(self, e):
        # a non-negative int in 0..999 from any small int expression
        return "((%s) %% 1000 + 1000)" % e

    def index(self, size):
        r = self.r.random()
        ints = self.vars_of("i")
        if r < 0.3 or not ints:
            return str(self.r.randint(0, size - 1))
        return "(%s %% %d)" % (self.nonneg(self.int_expr(1)), size)

    # ------------------------------------------------------------ floats
    def fleaf(self, t):
        e = self.ext.fleaf(self, t) if self.ext else None
        if e:
            return e
        r = self.r.random()
        fl = self.vars_of("fd")
        if r < 0.6 and fl:
            nm, vt = self.r.choice(fl)
            return self.conv(nm, vt, t) if vt != t else nm
        if r < 0.7:
            arrs = self.arrays()
            if arrs:
                nm, at, sz = self.r.choice(arrs)
                e = "%s[%s]" % (nm, self.index(sz))
                return self.conv(e, at, t) if at != t else e
        if r < 0.8 and self.vars_of("i"):
            return "(%s)%s" % (tname(t), self.r.choice(self.vars_of("i"))[0])
        return self.lit(t)

    def fexpr(self, t, depth=0):
        if depth >= 3:
            return self.fleaf(t)
        r = self.r.random()
        d = depth + 1
        if r < 0.05 and self.arr_calls_left > 0 and self.arrays_of(t, 2):
            self.arr_calls_left -= 1
            return self.array_call(t, d)
        if r < 0.2:
            return self.fleaf(t)
        if r < 0.35:
            op = self.r.choice("+-*")
            return "(%s %s %s)" % (self.fexpr(t, d), op, self.fexpr(t, d))
        if r < 0.45:
            # contraction candidates: a*b + c, c - a*b, -(a*b) + c, a*b - c
            a, b, c = self.fexpr(t, d + 1), self.fexpr(t, d + 1), \
                self.fexpr(t, d)
            form = self.r.randrange(4)
            return ["(%s * %s + %s)", "(%s - %s * %s)", "(-(%s * %s) + %s)",
                    "(%s * %s - %s)"][form] % (
                ((a, b, c), (c, a, b), (a, b, c), (a, b, c))[form])
        if r < 0.5:
            # safe division
            den = self.fexpr(t, d + 1)
            return "(%s / (%s + %s(%s)))" % (self.fexpr(t, d),
                                            self.lit_exact(t, 0.5),
                                            self.m("fabs", t), den)
        if r < 0.54:
            return "(-%s)" % self.fexpr(t, d)
        if r < 0.62:
            if self.r.random() < 0.3:
                # a division guarded by ?: (0 often: int expressions are
                # small): the untaken arm's partial 1 / 0 must not turn the
                # zero adjoint into NaN (docs/abi.md, NAME_grad)
                # (leaves: arms without calls stay a select)
                k = self.int_expr(1)
                return "((%s) != 0 ? %s / (%s)(%s) : %s)" % (
                    k, self.fleaf(t), tname(t), k, self.fleaf(t))
            return "(%s ? %s : %s)" % (self.cond(d), self.fexpr(t, d),
                                       self.fexpr(t, d))
        if r < 0.8:
            return self.mathcall(t, d)
        if r < 0.86 and len(self.types) > 1:
            o = "d" if t == "f" else "f"
            return self.conv(self.fexpr(o, d), o, t)
        if r < 0.92 and self.callees and self.calls_left > 0:
            self.calls_left -= 1
            return self.call(t, d)
        if r < 0.95:
            # softsign squash (exact operations)
            e = self.fexpr(t, d)
            return "(%s / (%s + %s(%s)))" % (e, self.lit_exact(t, 1.0),
                                            self.m("fabs", t), e)
        return self.fleaf(t)

    # ------------------------------------------------------------ arrays
    def arrays_of(self, t, min_size, writable=False):
        return [a for a in self.arrays(writable) if a[1] == t and
                a[2] >= min_size]

    def clamp1(self, e, t):
        """e clamped to [-1, 1]: polynomials in it stay bounded."""
        return "%s(%s(%s, %s), %s)" % (self.m("fmin", t), self.m("fmax", t),
                                       e, self.lit_exact(t, -1.0),
                                       self.lit_exact(t, 1.0))

    def sub_array(self, nm, k):
        """The array from element k: whole, a + k or &a[k]."""
        if k == 0 and self.r.random() < 0.5:
            return nm
        return self.r.choice(["%s + %d", "&%s[%d]"]) % (nm, k)

    def array_call(self, t, d):
        """A helper given a table, local array or sub-array: polevl walking
        it with *p++, or a weighted sum indexing it with p[i]."""
        nm, _, sz = self.r.choice(self.arrays_of(t, 2))
        k = self.r.randint(0, sz - 2)
        m = self.r.randint(1, sz - k - 1)
        base = self.sub_array(nm, k)
        x = self.clamp1(self.fexpr(t, d + 1), t)
        if self.r.random() < 0.6:
            return "polevl_%s%s(%s, %s, %d)" % (t, TW, x, base, m)
        return "wsum_%s%s(%s, %d, %s)" % (t, TW, base, m + 1, x)

    def data_stmt(self, ind):
        """Statements over file-scope data and pointers (issue 13): static
        const local tables, pointer locals walking arrays, writes through
        pointers, helpers writing into array arguments and out-parameters.
        False if nothing fits here."""
        k = self.r.randrange(6)
        if k == 0:
            t = self.r.choice(self.types)
            nm = self.fresh("tab")
            sz = self.r.randint(2, 6)
            self.emit(ind, "static const %s %s[%d] = {%s};" % (
                tname(t), nm, sz, ", ".join(self.lit(t) for _ in range(sz))))
            self.scope.vars[nm] = ("a", t, True, sz)
            return True
        if k == 1:
            t = self.r.choice(self.types)
            nm = self.fresh("c")
            self.emit(ind, "static %s %s = %s;" % (tname(t), nm, self.lit(t)))
            self.scope.vars[nm] = ("v", t, True, 0)
            return True
        t = self.r.choice(self.types)
        if k == 2 and self.arrays_of(t, 2):
            # a pointer walking an array: *p++ (polevl), p[i], *(p + j)
            nm, _, sz = self.r.choice(self.arrays_of(t, 2))
            off = self.r.randint(0, sz - 2)
            m = self.r.randint(1, sz - off - 1)
            p, v = self.fresh("p"), self.fresh("v")
            self.emit(ind, "const %s *%s = %s;" % (tname(t), p,
                                                   self.sub_array(nm, off)))
            form = self.r.randrange(3)
            if form == 0:
                i = self.fresh("k")
                self.emit(ind, "%s %s = *%s++;" % (tname(t), v, p))
                self.emit(ind, "int %s = %d;" % (i, m))
                self.emit(ind, "do")
                self.emit(ind + 1, "%s = %s * %s + *%s++;" % (
                    v, v, self.clamp1(self.fexpr(t, 2), t), p))
                self.emit(ind, "while (--%s);" % i)
            elif form == 1:
                self.emit(ind, "%s %s = %s[%s] * %s + %s[%s];" % (
                    tname(t), v, p, self.index(m + 1), self.fexpr(t, 2), p,
                    self.index(m + 1)))
            else:
                self.emit(ind, "%s %s = *(%s + %d) - *%s;" % (
                    tname(t), v, p, self.r.randint(0, m), p))
            self.scope.vars[v] = ("v", t, False, 0)
            return True
        if k == 3 and self.arrays_of(t, 1, writable=True):
            # writes through a pointer into a local array
            nm, _, sz = self.r.choice(self.arrays_of(t, 1, writable=True))
            off = self.r.randint(0, sz - 1)
            q = self.fresh("q")
            self.emit(ind, "%s *%s = %s;" % (tname(t), q,
                                             self.sub_array(nm, off)))
            self.emit(ind, "*%s = %s;" % (q, self.fexpr(t, 1)))
            if sz - off >= 2:
                self.emit(ind, "%s[1] %s %s;" % (q, self.r.choice(["=", "+="]),
                                                 self.fexpr(t, 1)))
            return True
        if k == 4:
            # out-parameters: two distinct local scalars or elements
            locs = [nm for nm, vt in self.vars_of(t, writable=True)
                    if nm not in self.param_names and TW not in nm]
            arrs = self.arrays_of(t, 2, writable=True)
            if len(locs) >= 2 and (not arrs or self.r.random() < 0.5):
                a, b = self.r.sample(locs, 2)
                self.emit(ind, "split_%s%s(%s, &%s, &%s);" % (
                    t, TW, self.fexpr(t, 1), a, b))
                return True
            if arrs:
                nm, _, sz = self.r.choice(arrs)
                i, j = self.r.sample(range(sz), 2)
                self.emit(ind, "split_%s%s(%s, &%s[%d], %s);" % (
                    t, TW, self.fexpr(t, 1), nm, i, self.sub_array(nm, j)))
                return True
            return False
        if k == 5 and self.arrays_of(t, 1, writable=True):
            # a helper updating an array argument in place
            nm, _, sz = self.r.choice(self.arrays_of(t, 1, writable=True))
            off = self.r.randint(0, sz - 1)
            self.emit(ind, "fill_%s%s(%s, %d, %s);" % (
                t, TW, self.sub_array(nm, off), self.r.randint(1, sz - off),
                self.fexpr(t, 1)))
            return True
        return False

    def mathcall(self, t, d):
        k = self.r.randrange(13)
        if not self.allow_transc:
            k = self.r.choice([2, 6, 7, 8, 9, 11, 12])
        e = self.fexpr(t, d)
        if k == 0:
            self.transc = True
            return "%s(%s(%s, %s))" % (self.m("exp", t), self.m("fmin", t), e,
                                       self.lit_exact(t, 4.0))
        if k == 1:
            self.transc = True
            return "%s(%s * %s + %s)" % (self.m("log", t), e, e,
                                         self.lit_exact(t, 0.25))
        if k == 2:
            return "%s(%s * %s + %s)" % (self.m("sqrt", t), e, e,
                                         self.lit_exact(t, 0.125))
        if k == 3:
            self.transc = True
            return "%s(%s)" % (self.m("sin", t), e)
        if k == 4:
            self.transc = True
            return "%s(%s)" % (self.m("cos", t), e)
        if k == 5:
            self.transc = True
            return "%s(%s)" % (self.m("tanh", t), e)
        if k == 6:
            return "%s(%s)" % (self.m("fabs", t), e)
        if k == 7:
            return "%s(%s, %s)" % (self.m("fmin", t), e, self.fexpr(t, d))
        if k == 8:
            return "%s(%s, %s)" % (self.m("fmax", t), e, self.fexpr(t, d))
        if k == 9:
            # bounded: above 2^52 floor is the identity in double, and its
            # steps are finer than any difference quotient's
            return "%s(%s(%s(%s, %s), %s))" % (
                self.m("floor", t), self.m("fmin", t), self.m("fmax", t), e,
                self.lit_exact(t, -1e6), self.lit_exact(t, 1e6))
        if k == 10:
            self.transc = True
            return "%s(%s(%s) + %s)" % (self.m("log", t), self.m("fabs", t),
                                        e, self.lit_exact(t, 0.5))
        if k == 11:
            # away from 0, where sqrt's derivative is infinite (AD gives
            # inf * 0 = NaN where the true derivative may be finite)
            return "%s(%s(%s) + %s)" % (self.m("sqrt", t), self.m("fabs", t),
                                        e, self.lit_exact(t, 0.0625))
        return "%s(%s(%s, %s), %s)" % (
            self.m("fmin", t), self.m("fmax", t), e,
            self.lit_exact(t, -4.0), self.lit_exact(t, 4.0))

    def call(self, t, d):
        ok = [c for c in self.callees
              if (self.allow_transc or not c[3]) and
              (self.types == "fd" or not c[4])]
        if not ok:
            return self.fleaf(t)
        name, rt, ptypes, transc, hf, cost = self.r.choice(ok)
        if transc:
            self.transc = True
        if hf:
            self.hasfloat = True
        args = []
        for pt in ptypes:
            if pt == "i":
                args.append(self.int_expr(2))
            else:
                args.append(self.fexpr(pt, d + 1))
        e = "%s%s(%s)" % (name, TW, ", ".join(args))
        return self.conv(e, rt, t) if rt != t else e

    # ------------------------------------------------------------ conditions
    def cond(self, depth=0, side=False):
        """A condition; side effects only where side (a statement's whole
        condition, or the right operand of its top-level && / ||), so
        that no full expression reads a variable it also writes unsequenced."""
        r = self.r.random()
        if r < 0.55 or depth >= 2:
            t = self.r.choice(self.types)
            op = self.r.choice(["<", ">", "<=", ">=", "<", ">", "!=", "=="]
                               if self.r.random() < 0.2 else
                               ["<", ">", "<=", ">="])
            return "(%s %s %s)" % (self.fexpr(t, 2), op, self.fexpr(t, 2))
        if r < 0.67:
            op = self.r.choice(["<", ">", "==", "!=", ">=", "<="])
            return "(%s %s %d)" % (self.int_expr(1), op,
                                   self.r.randint(-2, 6))
        if r < 0.82:
            op = self.r.choice(["&&", "||"])
            rhs = self.cond(depth + 1)
            if side and self.r.random() < 0.35:
                rhs = self.side_effect_cond()
            return "(%s %s %s)" % (self.cond(depth + 1), op, rhs)
        if r < 0.9:
            return "(!%s)" % self.cond(depth + 1)
        return self.side_effect_cond() if side else self.cond(2)

    def side_effect_cond(self):
        iw = self.vars_of("i", writable=True)
        fw = self.vars_of("fd", writable=True)
        r = self.r.random()
        if iw and r < 0.5:
            nm = self.r.choice(iw)[0]
            return "(%s%s > %d)" % (nm, self.r.choice(["++", "--"]),
                                    self.r.randint(-1, 4))
        if fw:
            nm, t = self.r.choice(fw)
            return "((%s = %s * %s) > %s)" % (nm, nm, self.lit_exact(t, 0.5),
                                              self.lit_exact(t, 0.125))
        return self.cond(2)

    # ------------------------------------------------------------ statements
    def emit(self, ind, s):
        self.lines.append("  " * ind + s)

    def push(self):
        self.scope = Scope(self.scope)

    def pop(self):
        self.scope = self.scope.parent

    def ret_expr(self):
        if self.sret:
            return self.ext.sret_expr(self, self.sret)
        return self.fexpr(self.rtype, 1)

    def stmt(self, ind, in_loop):
        self.stmts_left -= 1
        if self.ext and self.ext.stmt(self, ind, in_loop):
            return
        if self.r.random() < 0.15 and self.ptr_left > 0 and self.data_stmt(ind):
            self.ptr_left -= 1
            return
        r = self.r.random()
        fw = self.vars_of("fd", writable=True)
        iw = self.vars_of("i", writable=True)
        if r < 0.14:
            t = self.r.choice(self.types)
            nm = self.fresh("v")
            self.emit(ind, "%s %s = %s;" % (tname(t), nm, self.fexpr(t)))
            self.scope.vars[nm] = ("v", t, False, 0)
        elif r < 0.16 and fw:
            # an assignment used as a value (nothing else in the statement
            # touches the assigned variable)
            w, t = self.r.choice(fw)
            nm = self.fresh("v")
            self.emit(ind, "%s %s = (%s %s %s);" % (
                tname(t), nm, w, self.r.choice(["+=", "-=", "="]),
                self.fexpr(t, 1)))
            self.scope.vars[nm] = ("v", t, False, 0)
        elif r < 0.19:
            nm = self.fresh("k")
            self.emit(ind, "int %s = %s;" % (nm, self.int_expr()))
            self.scope.vars[nm] = ("v", "i", False, 0)
        elif r < 0.33 and fw:
            nm, t = self.r.choice(fw)
            op = self.r.choice(["=", "+=", "-=", "=", "*=", "/=", "++", "--"])
            if op in ("++", "--"):
                self.emit(ind, "%s%s;" % (nm, op) if self.r.random() < 0.5
                          else "%s%s;" % (op, nm))
            elif op == "*=":
                self.emit(ind, "%s *= %s;" % (nm, self.lit(t)))
            elif op == "/=":
                self.emit(ind, "%s /= (%s + %s(%s));" % (
                    nm, self.lit_exact(t, 1.0), self.m("fabs", t),
                    self.fexpr(t, 1)))
            elif op == "=" and self.r.random() < 0.3:
                # bounded update (keeps loop values in range)
                self.emit(ind, "%s = %s * %s + %s;" % (
                    nm, nm, self.lit_exact(t, 0.5), self.fexpr(t, 1)))
            else:
                self.emit(ind, "%s %s %s;" % (nm, op, self.fexpr(t)))
        elif r < 0.38 and iw:
            nm = self.r.choice(iw)[0]
            if self.r.random() < 0.4:
                self.emit(ind, "%s%s;" % (nm, self.r.choice(["++", "--"])))
            else:
                self.emit(ind, "%s = (%s) %% 1000;" % (nm, self.int_expr()))
        elif r < 0.45:
            t = self.r.choice(self.types)
            nm = self.fresh("arr")
            sz = self.r.randint(2, 6)
            inits = ", ".join(self.fexpr(t, 2)
                              for _ in range(self.r.randint(0, sz)))
            self.emit(ind, "%s %s[%d] = {%s};" % (tname(t), nm, sz,
                                                  inits or "0"))
            self.scope.vars[nm] = ("a", t, False, sz)
        elif r < 0.5 and self.arrays(writable=True):
            self.array_write(ind)
        elif r < 0.64 and ind < 7:
            self.if_stmt(ind, in_loop)
        elif r < 0.7 and (ind < 7):
            self.emit(ind, "if (%s)" % self.cond(side=True))
            self.emit(ind + 1, "return %s;" % self.ret_expr())
        elif r < 0.84 and self.loop_depth < 2 and not self.is_helper:
            self.loop(ind)
        elif r < 0.87 and (in_loop or self.switch_depth):
            kw = self.r.choice(["break", "continue", "return"]
                               if in_loop else ["break", "return"])
            self.emit(ind, "if (%s)" % self.cond(side=True))
            if kw == "return":
                self.emit(ind + 1, "return %s;" % self.ret_expr())
            else:
                self.emit(ind + 1, "%s;" % kw)
        elif r < 0.9 and self.goto_targets():
            self.goto_stmt(ind)
        elif r < 0.93 and self.jumps_left > 0 and ind < 7:
            self.jumps_left -= 1
            if self.r.random() < 0.5:
                self.skip_block(ind, in_loop)
            else:
                self.retry_block(ind, in_loop)
        elif r < 0.96 and self.switch_left > 0 and ind < 7:
            self.switch_left -= 1
            self.switch_stmt(ind, in_loop)
        elif fw:
            nm, t = self.r.choice(fw)
            self.emit(ind, "%s = %s;" % (nm, self.fexpr(t)))
        else:
            nm = self.fresh("v")
            self.emit(ind, "%s %s = %s;" % (tname(self.rtype), nm,
                                            self.fexpr(self.rtype)))
            self.scope.vars[nm] = ("v", self.rtype, False, 0)

    # ------------------------------------------------------------ arrays
    def array_write(self, ind):
        """Element writes, including overwrites whose old value carried a
        derivative: by a constant, in a loop over the array, under a
        per-lane branch, partial, and +=/-=."""
        nm, t, sz = self.r.choice(self.arrays(writable=True))
        k = self.r.randrange(6)
        if k == 0:
            self.emit(ind, "%s[%s] = %s;" % (nm, self.index(sz), self.lit(t)))
        elif k == 1:
            i = self.fresh("j")
            self.emit(ind, "for (int %s = 0; %s < %d; %s++)" % (i, i, sz, i))
            self.emit(ind + 1, "%s[%s] = %s[%s] * %s + %s;" % (
                nm, i, nm, i, self.lit_exact(t, 0.5), self.fexpr(t, 1)))
        elif k == 2:
            self.emit(ind, "if (%s)" % self.cond(side=True))
            self.emit(ind + 1, "%s[%s] = %s;" % (nm, self.index(sz),
                                                 self.fexpr(t, 1)))
        else:
            op = self.r.choice(["=", "+=", "-="])
            self.emit(ind, "%s[%s] %s %s;" % (nm, self.index(sz), op,
                                              self.fexpr(t, 1)))

    # ------------------------------------------------------------ goto
    def goto_targets(self):
        out = [("f", l) for l in self.fwd_labels]
        out += [("r", l) for l in self.retry_labels]
        if self.tail:
            out.append(("t", self.tail))
        # blocks whose statements from the label on return (tfeatures)
        out += [("t", l) for l in getattr(self, "tlabels", [])]
        return out

    def goto_stmt(self, ind):
        kind, lab = self.r.choice(self.goto_targets())
        if kind == "r":
            label, cnt, bound = lab
            self.emit(ind, "if (%s++ < %d && %s)" % (
                cnt, bound, self.cond(1, side=True)))
            self.emit(ind + 1, "goto %s;" % label)
        else:
            self.emit(ind, "if (%s)" % self.cond(side=True))
            self.emit(ind + 1, "goto %s;" % lab)

    def skip_block(self, ind, in_loop):
        """{ if (c) goto L; ...; } L: ; -- a forward goto (also from inside
        loops and switches in the block) to a label after it."""
        label = self.fresh("skip")
        self.emit(ind, "{")
        self.emit(ind + 1, "if (%s)" % self.cond(side=True))
        self.emit(ind + 2, "goto %s;" % label)
        self.fwd_labels.append(label)
        self.block(ind + 1, in_loop, self.r.randint(1, 3))
        self.fwd_labels.pop()
        self.emit(ind, "}")
        self.emit(ind, "%s:;" % label)

    def retry_block(self, ind, in_loop):
        """L: { ... } if (tries++ < B && c) goto L; -- a backward goto (also
        from inside the block), at most B times per entry."""
        label = self.fresh("retry")
        cnt = self.fresh("tries")
        bound = self.r.randint(1, 3)
        self.emit(ind, "int %s = 0;" % cnt)
        self.scope.vars[cnt] = ("v", "i", True, 0)
        self.emit(ind, "%s: {" % label)
        self.retry_labels.append((label, cnt, bound))
        self.block(ind + 1, in_loop, self.r.randint(1, 3))
        self.retry_labels.pop()
        self.emit(ind, "}")
        self.emit(ind, "if (%s++ < %d && %s)" % (cnt, bound,
                                                 self.cond(1, side=True)))
        self.emit(ind + 1, "goto %s;" % label)

    # ------------------------------------------------------------ switch
    def switch_stmt(self, ind, in_loop):
        """switch on a small int (negative: default or nothing): cases with
        and without break (fallthrough), several labels on one case, default
        anywhere; break/continue/return/goto inside."""
        m = self.r.randint(2, 5)
        self.emit(ind, "switch ((%s) %% %d) {" % (self.int_expr(1), m))
        vals = self.r.sample(range(-1, m), self.r.randint(1, min(3, m + 1)))
        labels = [["case %d:" % v] for v in vals]
        if self.r.random() < 0.3 and len(labels) > 1:
            labels[0] += labels.pop()
        if self.r.random() < 0.6:
            labels.insert(self.r.randrange(len(labels) + 1), ["default:"])
        self.switch_depth += 1
        for ls in labels:
            for l in ls:
                self.emit(ind, l)
            # braces: a declaration in one case is not seen by the next
            self.emit(ind + 1, "{")
            self.block(ind + 2, in_loop, self.r.randint(1, 2))
            self.emit(ind + 1, "}")
            if self.r.random() < 0.6:
                self.emit(ind + 1, "break;")
        self.switch_depth -= 1
        self.emit(ind, "}")

    def block(self, ind, in_loop, count):
        self.push()
        for _ in range(count):
            if self.stmts_left <= 0:
                break
            self.stmt(ind, in_loop)
        self.pop()

    def if_stmt(self, ind, in_loop):
        self.emit(ind, "if (%s) {" % self.cond(side=True))
        self.block(ind + 1, in_loop, self.r.randint(1, 3))
        if self.r.random() < 0.6:
            if self.r.random() < 0.3 and ind < 6:
                self.emit(ind, "} else if (%s) {" % self.cond(side=True))
                self.block(ind + 1, in_loop, self.r.randint(1, 2))
            self.emit(ind, "} else {")
            self.block(ind + 1, in_loop, self.r.randint(1, 3))
        self.emit(ind, "}")

    def trip_expr(self):
        r = self.r.random()
        ints = [nm for (nm, t, u, nd) in self.params if t == "i"]
        if r < 0.4 and ints:
            return "%s %% %d" % (self.r.choice(ints), self.r.randint(5, 8))
        if r < 0.75:
            t = self.r.choice(self.types)
            return "(int)%s(%s(%s * %s, %s), %s)" % (
                self.m("fmin", t), self.m("fmax", t), self.fexpr(t, 2),
                self.lit_exact(t, 2.0), self.lit_exact(t, -1.0),
                self.lit_exact(t, float(self.r.randint(3, 8))))
        return str(self.r.randint(0, 5))

    def loop(self, ind):
        self.loop_depth += 1
        kind = self.r.randrange(4)
        do_cond = None
        self.emit(ind, "{")
        self.push()
        i1 = ind + 1
        # a loop-carried float accumulator, updated in a bounded way
        acc = None
        fw = self.vars_of("fd", writable=True)
        if fw and self.r.random() < 0.7:
            acc = self.r.choice(fw)
        if kind == 0:
            k = self.fresh("n")
            i = self.fresh("i")
            self.emit(i1, "int %s = %s;" % (k, self.trip_expr()))
            self.scope.vars[k] = ("v", "i", True, 0)
            self.emit(i1, "for (int %s = 0; %s < %s; %s++) {" % (i, i, k, i))
            self.push()
            self.scope.vars[i] = ("v", "i", True, 0)
        elif kind == 1:
            # convergence loop with an iteration cap (it++ in the condition
            # so that continue cannot skip it)
            it = self.fresh("it")
            t = self.r.choice(self.types)
            dv = self.fresh("c")
            self.emit(i1, "%s %s = %s;" % (tname(t), dv, self.fexpr(t, 1)))
            self.scope.vars[dv] = ("v", t, False, 0)
            self.emit(i1, "int %s = 0;" % it)
            self.scope.vars[it] = ("v", "i", True, 0)
            self.emit(i1, "while (%s++ < %d && %s(%s) > %s) {" % (
                it, self.r.randint(3, 14), self.m("fabs", t), dv,
                self.lit_exact(t, self.r.choice([0.01, 0.1, 1e-3]))))
            self.push()
            self.emit(i1 + 1, "%s = %s * %s + %s;" % (
                dv, dv, self.lit_exact(t, self.r.choice([0.5, -0.5, 0.75])),
                self.fexpr(t, 2)))
        elif kind == 2:
            it = self.fresh("it")
            k = self.fresh("n")
            self.emit(i1, "int %s = %s;" % (k, self.trip_expr()))
            self.scope.vars[k] = ("v", "i", True, 0)
            self.emit(i1, "int %s = 0;" % it)
            self.scope.vars[it] = ("v", "i", True, 0)
            self.emit(i1, "do {")
            self.push()
            do_cond = "while (++%s < %s && %s);" % (it, k,
                                                     self.cond(1, side=True))
        else:
            # while with an explicit counter (decremented at the top)
            k = self.fresh("n")
            self.emit(i1, "int %s = %s;" % (k, self.trip_expr()))
            self.scope.vars[k] = ("v", "i", True, 0)
            self.emit(i1, "while (%s-- > 0) {" % k)
            self.push()
        if acc:
            nm, t = acc
            self.emit(i1 + 1, "%s = %s * %s + %s;" % (
                nm, nm, self.lit_exact(t, self.r.choice([0.5, 0.25, -0.5])),
                self.fexpr(t, 1)))
        self.block(i1 + 1, True, self.r.randint(1, 4))
        self.pop()
        if kind == 2:
            self.emit(i1, "} " + do_cond)
        else:
            self.emit(i1, "}")
        self.pop()
        self.emit(ind, "}")
        self.loop_depth -= 1

    def body(self):
        if not self.is_helper and self.r.random() < 0.3 and \
                not self.nogoto:
            self.tail = self.fresh("tail")
        if self.wglobal:
            self.write_global(*self.wglobal)
        self.block(1, False, 100)
        if self.ext:
            self.ext.finish(self)
        ret = self.ext.sret_expr(self, self.sret) if self.sret else \
            self.fexpr(self.rtype)
        if self.ext and not self.sret:
            ret = self.ext.final_ret(self, ret)
        self.emit(1, "return %s;" % ret)
        if self.tail:
            # a label after the return (goto small;): the parameters only,
            # as locals declared after a goto to it are not initialised
            used = any(("goto %s;" % self.tail) in l for l in self.lines)
            if used:
                saved = self.scope
                self.scope = Scope()
                for (nm, t, _u, _nd) in self.params:
                    self.scope.vars[nm] = ("v", t, nm in self.nd_bits, 0)
                self.emit(0, "%s:" % self.tail)
                self.emit(1, "return %s;" % self.ret_expr())
                self.scope = saved
        if self.ext:
            self.ext.after_return(self)
        return self.lines

