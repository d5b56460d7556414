"""The constructs of the third round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'inter' (with 'arrays'): a ragged array parameter holding interleaved
records of k = 2 or 3 elements (x0 y0 x1 y1 ..., xyz triples), k * len
elements for a length parameter len, in one of five forms, each the
parameter's only use, emitted as the function's first statement: declared
`const T x[k * len]` read as `x[k * i + c]` under `for (i = 0; i < len;
i++)`; the same indices on `const T *x`; a local copy `const T *q = x`
read as `q[0]` (or `*q`) ... `q[k-1]` in a loop counted by len and stepped
by `q += k` as the loop's last statement (`for`, `while (len--)`) or in
the for increment (`i++, q += k`); such a walk has no goto (a condition of
the inference, docs/abi.md "Array parameters").

'dense' (with 'structs'): one more struct type of 5 to 8 members of one
floating type (scalars `m0` ... `m7`, an array member `T q[M]`, or a
two-dimensional one `T m[2][C]`), which the plugin reads and writes as
dense records (transposed in registers, docs/abi.md "Structs"), used as
the other struct types are (parameters by value, records, locals, helpers).

'precs' (with 'recs'): arrays of records in every layout: strided,
`BD_PACKED` (offsets in records) and `BD_POINTERS`, of a fixed number of
records or ragged (`const S r[len]`, or `const S *r` read only in the loop
`for (i = 0; i < len; i++)`, each `r[i]` a read-only struct of its body);
and `NAME_hvp` on functions with `BD_PACKED`/`BD_POINTERS` parameters
(arrays of scalars and of records), which was an error before e097ea6 and
8da7f80.

Each draws random numbers only when enabled: the output of the other
features does not change."""
from markers import TW, tname

NEW3 = ("inter", "dense", "precs")


class YExt:
    """Mixin of features.Ext (self.r, self.f, self.structs)."""

    # ------------------------------------------------------------ file
    def dense_decl(self, idx, struct_type):
        """The 'dense' struct type: 5-8 members of one floating type."""
        t = self.r.choice("ddf")
        shape = self.r.randrange(3)
        if shape == 0:
            M = self.r.randint(5, 8)
            return struct_type(idx, [("m%d" % j, t) for j in range(M)])
        if shape == 1:
            M = self.r.randint(5, 8)
            return struct_type(idx, [("q[%d]" % e, t) for e in range(M)],
                               {"q": (t, M)})
        C = self.r.randint(3, 4)
        return struct_type(idx, [("m[%d][%d]" % (i, j), t) for i in range(2)
                                 for j in range(C)], {"m": (t, (2, C))})

    # ------------------------------------------------------------ params
    def inter_param(self, cp, ln):
        """Make the ragged array cp (length parameter ln) interleaved
        records of k elements, in one of the five forms."""
        k = self.r.randint(2, 3)
        cp.inter = k
        cp.dims = (k * ln.lenmax,)
        cp.walk = self.r.choice(["idecl", "iidx", "iwalk", "iinc", "iwhile"])
        if cp.walk == "iwhile":
            ln.u = False  # the walk decrements it

    def rec_layout(self, cps, rec, cp_class):
        """'precs': the layout of the array of records rec (and, in half of
        the cases, a ragged extent: a length parameter before it)."""
        if "precs" not in self.f:
            return
        big = len(rec.st.members) > 4  # at most 64 flat parameters
        rec.layout = self.r.choice(["", "packed", "pointers"])
        if rec.layout:
            rec.u = False  # an error with BD_UNIFORM
        if self.r.random() < 0.5:
            N = self.r.randint(1, 2 if big else 4)
            ln = cp_class("v", "ln%d" % len(cps), "i",
                          u=self.r.random() < 0.25, lenmax=N)
            cps.append(ln)
            rec.dims, rec.lenp, rec.u = (N,), ln, False
            rec.walk = self.r.choice([None, "ptr"])

    # ------------------------------------------------------------ body
    def ystmt(self, g, ind):
        """A loop over a ragged array of records, or False."""
        if not g.rragged or "precs" not in self.f:
            return False
        # a 'const S *r' has its extent from such a loop: the first one
        # comes as soon as possible
        first = [cp for cp in g.rragged if cp.walk and not cp.looped]
        if first and g.loop_depth == 0:
            cp = first[0]
        elif self.r.random() >= 0.15 or g.loop_depth >= 2 or ind >= 7:
            return False
        else:
            cp = self.r.choice(g.rragged)
        cp.looped = True
        g.loop_depth += 1
        i = g.fresh("i")
        g.emit(ind, "for (int %s = 0; %s < %s; %s++) {" % (
            i, i, cp.lenp.nm, i))
        g.push()
        g.scope.vars[i] = ("v", "i", True, 0)
        rec = "%s[%s]" % (cp.nm, i)
        self.add_struct(g, rec, cp.st, True)
        fw = g.vars_of(cp.st.ftypes, writable=True)
        if fw:
            nm, t = self.r.choice(fw)
            m, mt = self.r.choice([m for m in cp.st.members if m[1] != "i"])
            g.emit(ind + 1, "%s = %s * %s + %s;" % (
                nm, nm, g.lit_exact(t, 0.5), g.conv("%s.%s" % (rec, m), mt,
                                                   t)))
        elif cp.walk:
            # a 'const S *r' must be read in the loop (its extent comes
            # from the read; seed 167 of the seventh round's all read
            # nothing there: "cannot infer the extent"): a local of its
            # first floating member, no draw
            m, mt = [m for m in cp.st.members if m[1] != "i"][0]
            v = g.fresh("v")
            g.emit(ind + 1, "%s %s = %s.%s;" % (tname(mt), v, rec, m))
            g.scope.vars[v] = ("v", mt, False, 0)
        g.block(ind + 1, True, self.r.randint(1, 3))
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1
        return True

    def inter_walk(self, g, ind):
        """The one use of an interleaved array parameter (its extent is
        k * len: docs/abi.md)."""
        cp = g.walkp
        g.walked = True
        x, ln, T, k = cp.nm, cp.lenp.nm, tname(cp.t), cp.inter
        g.loop_depth += 1
        g.emit(ind, "{")
        g.push()
        i1 = ind + 1
        i = g.fresh("i")
        q = x
        step = cp.walk in ("iwalk", "iinc", "iwhile")
        if step:
            q = g.fresh("q")
            g.emit(i1, "const %s *%s = %s;" % (T, q, x))
        if cp.walk == "iwhile":
            g.emit(i1, "while (%s%s) {" % (ln, self.r.choice(
                ["--", "-- > 0"])))
        else:
            g.emit(i1, "for (int %s = 0; %s < %s; %s++%s) {" % (
                i, i, ln, i, ", %s += %d" % (q, k) if cp.walk == "iinc"
                else ""))
            g.scope.vars[i] = ("v", "i", True, 0)
        vs = []
        for c in self.r.sample(range(k), k):
            v = g.fresh("v")
            if step:
                e = "*%s" % q if c == 0 and self.r.random() < 0.5 else \
                    "%s[%d]" % (q, c)
            else:
                e = "%s[%d * %s%s]" % (x, k, i, " + %d" % c if c else "")
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
        if cp.walk in ("iwalk", "iwhile"):
            g.emit(i1 + 1, "%s += %d;" % (q, k))
        g.emit(i1, "}")
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1
