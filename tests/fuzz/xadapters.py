"""Adapters (as adapters.py) for functions with struct parameters by value
and array parameters (strided, BD_PACKED, BD_POINTERS; one- and
two-dimensional; ragged with a length parameter): the harness sees every
struct member and array element as a parameter of its own (a "flat"
parameter, passed as doubles); the adapters build the records and arrays
of each ABI (docs/abi.md, "Structs", "Array parameters", "Ragged
batches"). Used by genfile.py with --features."""


def ctype(t):
    return {"f": "float", "d": "double", "i": "int"}[t]


class CP:
    """One C parameter: kind 'v' (scalar: t), 's' (struct by value: st),
    'a' (array of t: dims, layout '', 'packed' or 'pointers', lenp the
    length parameter's CP for a ragged array), 'r' (array of dims[0]
    records st, strided). q0: its first flat index (record k's member j at
    q0 + k * members + j)."""

    def __init__(self, kind, nm, t=None, u=False, nd=False, st=None,
                 dims=None, layout="", lenp=None, lenmax=0):
        self.kind, self.nm, self.t, self.u, self.nd = kind, nm, t, u, nd
        self.st, self.dims, self.layout, self.lenp = st, dims, layout, lenp
        self.lenmax = lenmax  # an int parameter mapped to 1..lenmax
        # a ragged array declared 'const T *x' (features 'walks'): its
        # extent inferred from a walk; the ABI is that of 'x[len]'
        self.walk = None
        # interleaved records of k elements (features 'inter'): the extent
        # is k * len
        self.inter = 0
        self.looped = False  # a ragged array of records read in a loop
        self.q0 = 0
        # features of wfeatures.py: a narrow element type (C type of an
        # int array: 'unsigned char', '_Bool', ...); a declared extent of
        # the length parameter (C text 'ln1 + 1', and the Python format of
        # an example's extent as a C expression); read where C reads only
        # conditionally (sc), so allocated before a guard page (guard)
        self.ct = None
        self.extd = self.extf = self.wform = None
        self.sc = self.guard = False
        self.fold = False  # an output array summed into the value (nout)

    def size(self):
        if self.kind == "o":
            return 0  # an output array: no input of the harness
        if self.kind == "s":
            return len(self.st.members)
        if self.kind == "r":
            return self.dims[0] * len(self.st.members)
        if self.kind == "a":
            s = 1
            for d in self.dims:
                s *= d
            return s
        return 1

    def flat_types(self):
        if self.kind == "s":
            return [t for _, t in self.st.members]
        if self.kind == "r":
            return [t for _, t in self.st.members] * self.dims[0]
        return [self.t] * self.size()

    def flat_nd(self):
        """Per flat parameter: BD_NODIFF, or a union's bits (UType.ndm)."""
        ndm = getattr(self.st, "ndm", None)
        if self.kind in "sr" and ndm:
            per = [self.nd or m in ndm for m, _ in self.st.members]
            return per * (self.dims[0] if self.kind == "r" else 1)
        return [self.nd] * self.size()

    def diffable(self):
        if self.nd:
            return False
        return any(t != "i" for t in self.flat_types())


def flatten(cps):
    q = 0
    for cp in cps:
        cp.q0 = q
        q += cp.size()
    return q


def _rtype(t, how):
    """The C type of a value of type t in a rendering."""
    if t == "i":
        return "int"
    return {"s": ctype(t), "z": ctype(t), "f": ctype(t), "t": "double",
            "l": "long double"}[how]


def _scalar_conv(cp, src):
    if cp.lenmax:
        return "fz_len((int)%s, %d)" % (src, cp.lenmax)
    return "(%s)%s" % (ctype(cp.t), src)


# the weights of a struct return value's members (features 'sret'): the
# harness sees sum_j W_j * ret.m_j, NAME_grad's and NAME_hvp's d_ret
# records hold W_j (0 for an int member), NAME_jvp's tangent records are
# summed with them
SRET_W = ["1.0", "0.5", "-2.0", "0.25", "1.0", "-0.5", "2.0", "-0.25"]


def sret_sum(st, r, rt, floats_only=False):
    """sum_j W_j * r.m_j in the type rt (an expression)."""
    return " + ".join(
        "(%s)%s.%s * %s" % (rt, r, m, SRET_W[j % len(SRET_W)])
        for j, (m, t) in enumerate(st.members)
        if not (floats_only and t == "i")) or "0.0"


def sret_seeds(st, nm, L):
    """Lines making nm (n records, calloc'ed) the d_ret seeds W_j."""
    L.append("  %s *%s = calloc(m, sizeof *%s);" % (st.name, nm, nm))
    L.append("  for (size_t i = 0; i < n; i++) {")
    for j, (m, t) in enumerate(st.members):
        if t != "i":
            L.append("    %s[i].%s = (%s)%s;" % (
                nm, m, ctype(t), SRET_W[j % len(SRET_W)]))
    L.append("  }")


def scalar_adapter(name, cps, how, sret=None):
    """f_s / f_t / f_l / f_z / f_f: one example, every flat parameter
    a[q]."""
    suf = {"s": "", "z": "_zt", "f": "_fe", "t": "_tw", "l": "_ld"}[how]
    fname = name + suf
    at = "long double" if how == "l" else "double"
    rt = "long double" if how == "l" else "double"
    L = ["static %s %s_%s(const %s *a) {" % (rt, name, how, at)]
    args = []
    for cp in cps:
        q = cp.q0
        if cp.kind == "v":
            if cp.lenmax:
                args.append("fz_len((int)a[%d], %d)" % (q, cp.lenmax))
            else:
                args.append("(%s)a[%d]" % (_rtype(cp.t, how), q))
        elif cp.kind == "s":
            args.append("(%s%s){%s}" % (cp.st.name, suf, ", ".join(
                "(%s)a[%d]" % (_rtype(t, how), q + j)
                for j, (_, t) in enumerate(cp.st.members))))
        elif cp.kind == "r":
            M = len(cp.st.members)
            L.append("  %s%s x%d[%d] = {%s};" % (
                cp.st.name, suf, q, cp.dims[0], ", ".join(
                    "{%s}" % ", ".join("(%s)a[%d]" % (_rtype(t, how),
                                                      q + k * M + j)
                                       for j, (_, t) in
                                       enumerate(cp.st.members))
                    for k in range(cp.dims[0]))))
            args.append("x%d" % q)
        elif cp.kind == "o":
            L += out_scalar(cp)
            args.append("o_" + cp.nm)
        elif cp.ct:
            # narrow: through int (a double out of its range is UB)
            L.append("  %s x%d[%d] = {%s};" % (
                cp.ct, q, cp.size(), ", ".join(
                    "(%s)(int)a[%d]" % (cp.ct, q + e)
                    for e in range(cp.size()))))
            args.append("x%d" % q)
        else:
            dims = "".join("[%d]" % d for d in cp.dims)
            L.append("  %s x%d%s = {%s};" % (
                _rtype(cp.t, how), q, dims, ", ".join(
                    "a[%d]" % (q + e) for e in range(cp.size()))))
            args.append("x%d" % q)
    fold = [cp for cp in cps if cp.kind == "o" and cp.fold]
    if sret:
        L.append("  %s%s r_ = %s(%s);" % (sret.name, suf, fname,
                                          ", ".join(args)))
        val = sret_sum(sret, "r_", rt)
    else:
        L.append("  %s r_ = %s(%s);" % (rt, fname, ", ".join(args)))
        val = "r_"
    if fold:
        # (integers: every sum exact, in any order)
        L.append("  %s oc_ = 0;" % rt)
        for cp in fold:
            L.append("  for (int e = 0; e < %s; e++) oc_ += (e + 1) * "
                     "(%s)o_%s[e];" % (_scalar_ext(cp), rt, cp.nm))
        val = "(%s) + oc_" % val
    L.append("  return %s;" % val)
    L.append("}")
    return L


# ---- output arrays (vfeatures 'nout') -------------------------------------
def _opat(cp, e):
    """The bytes an output holds before the call at an example's element e
    (C expression): the same in every adapter."""
    if cp.ct == "_Bool":
        return "(_Bool)((%s) %% 2)" % e
    if "short" in cp.ct:
        return "(%s)(0x5a5a + 977 * (int)(%s))" % (cp.ct, e)
    return "(%s)(0x5a + 37 * (int)(%s))" % (cp.ct, e)


def _ogap(cp):
    """The bytes between BD_PACKED examples."""
    return "(_Bool)1" if cp.ct == "_Bool" else "(%s)0x33" % cp.ct


def _scalar_ext(cp):
    if not cp.lenp:
        return str(cp.dims[0])
    return "fz_len((int)a[%d], %d)" % (cp.lenp.q0, cp.lenp.lenmax)


def out_scalar(cp):
    """The scalar adapter's output array (its largest extent)."""
    N = cp.dims[0]
    return ["  %s o_%s[%d];" % (cp.ct, cp.nm, N),
            "  for (int e = 0; e < %d; e++) o_%s[e] = %s;" % (
                N, cp.nm, _opat(cp, "e"))]


def out_primals(cp, L, args, frees):
    """An output array of NAME_batched (and the others) in its layout,
    before a guard page (BD_POINTERS: each example), filled with the
    pattern."""
    o, N, ct = "o_" + cp.nm, cp.dims[0], cp.ct
    ext = _len_of(cp, "b")
    if cp.layout == "":
        by = "m * %d * sizeof *%s" % (N, o)
        L.append("  %s *%s = gp_map(%s);" % (ct, o, by))
        L.append("  for (size_t b = 0; b < m; b++)")
        L.append("    for (int e = 0; e < %d; e++) %s[b * %d + e] = %s;" % (
            N, o, N, _opat(cp, "e")))
        args += [o, "(ptrdiff_t)%d" % N]
        frees.append(("  gp_unmap(%s, %s);" % (o, by), None))
    elif cp.layout == "packed":
        # ragged back to back, a gap of one element between examples
        oo, ot = "oo_" + cp.nm, "ot_" + cp.nm
        L.append("  size_t *%s = malloc(m * sizeof *%s), %s = 0;" % (
            oo, oo, ot))
        L.append("  for (size_t b = 0; b < n; b++) { %s[b] = %s; %s += %s + "
                 "(b + 1 < n); }" % (oo, ot, ot, ext))
        by = "(%s ? %s : 1) * sizeof(%s)" % (ot, ot, ct)
        L.append("  %s *%s = gp_map(%s);" % (ct, o, by))
        L.append("  for (size_t k = 0; k < %s; k++) %s[k] = %s;" % (
            ot, o, _ogap(cp)))
        L.append("  for (size_t b = 0; b < n; b++)")
        L.append("    for (int e = 0; e < %s; e++) %s[%s[b] + e] = %s;" % (
            ext, o, oo, _opat(cp, "e")))
        args += [o, oo]
        frees += [("  gp_unmap(%s, %s);" % (o, by), None), oo]
    else:
        L.append("  %s **%s = malloc(m * sizeof *%s);" % (ct, o, o))
        L.append("  for (size_t b = 0; b < n; b++) {")
        L.append("    %s[b] = gp_map(%s * sizeof **%s);" % (o, ext, o))
        L.append("    for (int e = 0; e < %s; e++) %s[b][e] = %s;" % (
            ext, o, _opat(cp, "e")))
        L.append("  }")
        args.append(o)
        frees.append(("  for (size_t b = 0; b < n; b++) gp_unmap(%s[b], %s * "
                      "sizeof **%s);" % (o, ext, o), o))


def out_post(name, cps):
    """After the call: bytes outside each example's extent unchanged
    (strided padding, packed gaps); oc_[b], the sum a folded output adds to
    example b's value (0 where none)."""
    outs = [cp for cp in cps if cp.kind == "o"]
    if not outs:
        return []
    L = ["  double *oc_ = calloc(m, sizeof *oc_);"]
    for cp in outs:
        o, N = "o_" + cp.nm, cp.dims[0]
        ext = _len_of(cp, "b")
        at = {"": "%s[b * %d + e]" % (o, N), "packed": "%s[oo_%s[b] + e]" % (
            o, cp.nm), "pointers": "%s[b][e]" % o}[cp.layout]
        fail = "fz_out_fail(\"%s\", \"%s\", b)" % (name, cp.nm)
        L.append("  for (size_t b = 0; b < n; b++) {")
        if cp.fold:
            L.append("    for (int e = 0; e < %s; e++) oc_[b] += (e + 1) * "
                     "(double)%s;" % (ext, at))
        if cp.layout == "":
            L.append("    for (int e = %s; e < %d; e++)" % (ext, N))
            L.append("      if (%s != %s) %s;" % (at, _opat(cp, "e"), fail))
        elif cp.layout == "packed":
            L.append("    if (b + 1 < n && %s[oo_%s[b] + %s] != %s) %s;" % (
                o, cp.nm, ext, _ogap(cp), fail))
        L.append("  }")
    return L


def _len_of(cp, b):
    """Example b's extent of array cp (a C expression)."""
    if not cp.lenp:
        return str(cp.dims[0] if cp.kind == "o" else cp.size())
    lp = cp.lenp
    if getattr(cp, "lenp2", None):
        # a flat r x c matrix (tfeatures 'flat')
        return "(%s * %s)" % tuple(
            "fz_len((int)a[%d][%s], %d)" % (p.q0, "0" if p.u else b,
                                            p.lenmax)
            for p in (lp, cp.lenp2))
    if cp.extf:
        return cp.extf.replace("%s", "fz_len((int)a[%d][%s], %d)" % (
            lp.q0, "0" if lp.u else b, lp.lenmax))
    return "%sfz_len((int)a[%d][%s], %d)" % (
        "%d * " % cp.inter if cp.inter else "", lp.q0, "0" if lp.u else b,
        lp.lenmax)


def _nrec(cp, b):
    """Example b's number of records of the array of records cp."""
    if not cp.lenp:
        return str(cp.dims[0])
    lp = cp.lenp
    return "fz_len((int)a[%d][%s], %d)" % (lp.q0, "0" if lp.u else b,
                                           lp.lenmax)


def _rec_fill(cp, dst, b, k, src, L, ind):
    """Lines setting record dst's members from flat src[...][b] (record
    k of the example)."""
    M = len(cp.st.members)
    for j, (mn, t) in enumerate(cp.st.members):
        L.append("%s%s.%s = (%s)%s[%d + %s * %d][%s];" % (
            ind, dst, mn, ctype(t), src, cp.q0 + j, k, M, b))


def _rec_poison(cp, dst, L, ind):
    """Members of a record no example owns: NaN (-1 for int members)."""
    for mn, t in cp.st.members:
        L.append("%s%s.%s = %s;" % (ind, dst, mn,
                                    "-1" if t == "i" else "NAN"))


def rec_primals(cp, L, args, frees):
    """An array of records in the layouts of features 'precs': strided
    ragged (records past an example's own NaN), BD_PACKED (ragged: back to
    back; fixed: reversed with gaps), BD_POINTERS."""
    q, N, S = cp.q0, cp.dims[0], cp.st.name
    nr = _nrec(cp, "b")
    if cp.layout == "":
        L.append("  %s *x%d = malloc(m * %d * sizeof *x%d);" % (S, q, N, q))
        L.append("  for (size_t b = 0; b < n; b++)")
        L.append("    for (int k = 0; k < %d; k++) {" % N)
        L.append("      if (k < %s) {" % nr)
        _rec_fill(cp, "x%d[b * %d + k]" % (q, N), "b", "k", "a", L, "        ")
        L.append("      } else {")
        _rec_poison(cp, "x%d[b * %d + k]" % (q, N), L, "        ")
        L.append("      }")
        L.append("    }")
        args += ["x%d" % q, "(ptrdiff_t)%d" % N]
        frees.append("x%d" % q)
    elif cp.layout == "packed":
        L.append("  size_t *xo%d = malloc(m * sizeof *xo%d), tot%d = 0;" % (
            q, q, q))
        if cp.lenp:
            L.append("  for (size_t b = 0; b < n; b++) { xo%d[b] = tot%d; "
                     "tot%d += %s; }" % (q, q, q, nr))
        else:
            L.append("  for (size_t b = 0; b < n; b++) xo%d[b] = "
                     "(n - 1 - b) * %d;" % (q, N + 1))
            L.append("  tot%d = n * %d;" % (q, N + 1))
        L.append("  %s *x%d = malloc((tot%d ? tot%d : 1) * sizeof *x%d);" % (
            S, q, q, q, q))
        L.append("  for (size_t i = 0; i < tot%d; i++) {" % q)
        _rec_poison(cp, "x%d[i]" % q, L, "    ")
        L.append("  }")
        L.append("  for (size_t b = 0; b < n; b++)")
        L.append("    for (int k = 0; k < %s; k++) {" % nr)
        _rec_fill(cp, "x%d[xo%d[b] + k]" % (q, q), "b", "k", "a", L, "      ")
        L.append("    }")
        args += ["x%d" % q, "xo%d" % q]
        frees += ["x%d" % q, "xo%d" % q]
    else:
        L.append("  %s **x%d = malloc(m * sizeof *x%d);" % (S, q, q))
        L.append("  for (size_t b = 0; b < n; b++) {")
        L.append("    x%d[b] = malloc(%s * sizeof **x%d);" % (q, nr, q))
        L.append("    for (int k = 0; k < %s; k++) {" % nr)
        _rec_fill(cp, "x%d[b][k]" % q, "b", "k", "a", L, "      ")
        L.append("    }")
        L.append("  }")
        args.append("(const %s *const *)x%d" % (S, q))
        frees.append(("  for (size_t b = 0; b < n; b++) free(x%d[b]);" % q,
                      "x%d" % q))


def rec_shadows(cp, src, nm, anyp, cq, L, args, back, frees):
    """Shadows or tangents of a BD_PACKED / BD_POINTERS array of records,
    in the primal's layout (the same offsets; a pointer per example)."""
    q, M, S = cp.q0, len(cp.st.members), cp.st.name
    nr = _nrec(cp, "b")
    if cp.layout == "packed":
        L.append("  %s *%s = %s ? calloc(tot%d ? tot%d : 1, sizeof *%s) : "
                 "NULL;" % (S, nm, anyp, q, q, nm))
        at = "%s[xo%d[b] + k]" % (nm, q)
        args.append(nm)
        frees.append(nm)
    else:
        L.append("  %s **%s = %s ? malloc(m * sizeof *%s) : NULL;" % (
            S, nm, anyp, nm))
        at = "%s[b][k]" % nm
        args.append("(%s%s *const *)%s" % (cq, S, nm))
        frees.append(("  if (%s) for (size_t b = 0; b < n; b++) free(%s[b]);"
                      % (nm, nm), nm))
    L.append("  if (%s) for (size_t b = 0; b < n; b++) {" % nm)
    if cp.layout == "pointers":
        L.append("    %s[b] = calloc(%s, sizeof **%s);" % (nm, nr, nm))
    L.append("    for (int k = 0; k < %s; k++) {" % nr)
    back.append("  if (%s) for (size_t b = 0; b < n; b++)" % nm)
    back.append("    for (int k = 0; k < %s; k++) {" % nr)
    for j, (mn, t) in enumerate(cp.st.members):
        if t == "i":
            continue
        L.append("      if (%s[%d + k * %d]) %s.%s = (%s)%s[%d + k * %d][b];"
                 % (src, q + j, M, at, mn, ctype(t), src, q + j, M))
        back.append("      if (%s[%d + k * %d]) %s[%d + k * %d][b] = %s.%s;"
                    % (src, q + j, M, src, q + j, M, at, mn))
    L += ["    }", "  }"]
    back.append("    }")


def warray_primals(cp, L, args, frees):
    """A narrow array (cp.ct: its values through int, poison -77 past an
    example's extent) or one read where C reads only conditionally
    (cp.guard: its data end where a PROT_NONE page begins, gp_map: the
    batch's last example strided and BD_PACKED, every example
    BD_POINTERS, the one BD_UNIFORM example), in the layouts of
    primals()."""
    q, sz = cp.q0, cp.size()
    T = cp.ct or ctype(cp.t)

    def cv(e):
        return "(%s)(int)%s" % (T, e) if cp.ct else "(%s)%s" % (T, e)
    poison = "(%s)-77" % T if cp.ct else "NAN"

    def alloc(nm, bytes_):
        if cp.guard:
            frees.append(("  gp_unmap(%s, %s);" % (nm, bytes_), None))
            return "gp_map(%s)" % bytes_
        frees.append(nm)
        return "malloc(%s)" % bytes_
    if cp.u and cp.guard:
        L.append("  %s *x%d = %s;" % (T, q, alloc("x%d" % q, "%d * sizeof *x%d"
                                                  % (sz, q))))
        L.append("  for (int e = 0; e < %d; e++) x%d[e] = %s;" % (
            sz, q, cv("a[%d + e][0]" % q)))
        args.append("x%d" % q)
    elif cp.u:
        L.append("  %s x%d[%d];" % (T, q, sz))
        L.append("  for (int e = 0; e < %d; e++) x%d[e] = %s;" % (
            sz, q, cv("a[%d + e][0]" % q)))
        args.append("x%d" % q)
    elif cp.layout == "":
        L.append("  %s *x%d = %s;" % (T, q, alloc(
            "x%d" % q, "m * %d * sizeof *x%d" % (sz, q))))
        L.append("  for (size_t b = 0; b < n; b++)")
        L.append("    for (int e = 0; e < %d; e++) x%d[b * %d + e] = "
                 "e < %s ? %s : %s;" % (sz, q, sz, _len_of(cp, "b"),
                                        cv("a[%d + e][b]" % q), poison))
        args += ["x%d" % q, "(ptrdiff_t)%d" % sz]
    elif cp.layout == "packed":
        # ragged: back to back; fixed size: reversed, with gaps (none after
        # example 0, the last: at the guard page)
        L.append("  size_t *xo%d = malloc(m * sizeof *xo%d), tot%d = 0;" % (
            q, q, q))
        if cp.lenp:
            L.append("  for (size_t b = 0; b < n; b++) { xo%d[b] = tot%d; "
                     "tot%d += %s; }" % (q, q, q, _len_of(cp, "b")))
        else:
            L.append("  for (size_t b = 0; b < n; b++) xo%d[b] = "
                     "(n - 1 - b) * %d;" % (q, sz + 1))
            L.append("  tot%d = n * %d%s;" % (
                q, sz + 1, " - (n ? 1 : 0)" if cp.guard else ""))
        L.append("  %s *x%d = %s;" % (T, q, alloc(
            "x%d" % q, "(tot%d ? tot%d : 1) * sizeof *x%d" % (q, q, q))))
        L.append("  for (size_t i = 0; i < tot%d; i++) x%d[i] = %s;" % (
            q, q, poison))
        L.append("  for (size_t b = 0; b < n; b++)")
        L.append("    for (int e = 0; e < %s; e++) x%d[xo%d[b] + e] = %s;" % (
            _len_of(cp, "b"), q, q, cv("a[%d + e][b]" % q)))
        args += ["x%d" % q, "xo%d" % q]
        frees.append("xo%d" % q)
    else:
        ext = _len_of(cp, "b")
        L.append("  %s **x%d = malloc(m * sizeof *x%d);" % (T, q, q))
        L.append("  for (size_t b = 0; b < n; b++) {")
        L.append("    x%d[b] = %s(%s * sizeof **x%d);" % (
            q, "gp_map" if cp.guard else "malloc", ext, q))
        L.append("    for (int e = 0; e < %s; e++) x%d[b][e] = %s;" % (
            ext, q, cv("a[%d + e][b]" % q)))
        L.append("  }")
        args.append("(const %s *const *)x%d" % (T, q))
        if cp.guard:
            frees.append(("  for (size_t b = 0; b < n; b++) gp_unmap(x%d[b], "
                          "%s * sizeof **x%d);" % (q, ext, q), "x%d" % q))
        else:
            frees.append(("  for (size_t b = 0; b < n; b++) free(x%d[b]);" %
                          q, "x%d" % q))


def primals(cps):
    """Lines building each argument of NAME_batched, the arguments, frees."""
    L, args, frees = [], [], []
    for cp in cps:
        q = cp.q0
        T = ctype(cp.t) if cp.t else None
        if cp.kind == "v":
            if cp.u:
                args.append(_scalar_conv(cp, "a[%d][0]" % q))
                continue
            L.append("  %s *x%d = malloc(m * sizeof *x%d);" % (T, q, q))
            L.append("  for (size_t i = 0; i < n; i++) x%d[i] = %s;" % (
                q, _scalar_conv(cp, "a[%d][i]" % q)))
            args.append("x%d" % q)
            frees.append("x%d" % q)
        elif cp.kind == "s":
            mem = cp.st.members
            if cp.u:
                args.append("(%s){%s}" % (cp.st.name, ", ".join(
                    "(%s)a[%d][0]" % (ctype(t), q + j)
                    for j, (_, t) in enumerate(mem))))
                continue
            L.append("  %s *x%d = malloc(m * sizeof *x%d);" % (
                cp.st.name, q, q))
            for j, (mn, t) in enumerate(mem):
                L.append("  for (size_t i = 0; i < n; i++) x%d[i].%s = "
                         "(%s)a[%d][i];" % (q, mn, ctype(t), q + j))
            args.append("x%d" % q)
            frees.append("x%d" % q)
        elif cp.kind == "r" and (cp.layout or cp.lenp):
            rec_primals(cp, L, args, frees)
        elif cp.kind == "o":
            out_primals(cp, L, args, frees)
        elif cp.kind == "a" and (cp.ct or cp.guard):
            warray_primals(cp, L, args, frees)
        elif cp.kind == "r":
            N, M, S = cp.dims[0], len(cp.st.members), cp.st.name
            if cp.u:
                L.append("  %s x%d[%d];" % (S, q, N))
            else:
                L.append("  %s *x%d = malloc(m * %d * sizeof *x%d);" % (
                    S, q, N, q))
            L.append("  for (size_t b = 0; b < %s; b++)" % (
                "1" if cp.u else "n"))
            L.append("    for (int k = 0; k < %d; k++) {" % N)
            for j, (mn, t) in enumerate(cp.st.members):
                L.append("      x%d[b * %d + k].%s = (%s)a[%d + k * %d][b];" % (
                    q, N, mn, ctype(t), q + j, M))
            L.append("    }")
            args.append("x%d" % q)
            if not cp.u:
                args.append("(ptrdiff_t)%d" % N)
                frees.append("x%d" % q)
        elif cp.u:
            L.append("  %s x%d[%d];" % (T, q, cp.size()))
            L.append("  for (int e = 0; e < %d; e++) x%d[e] = (%s)a[%d + e][0];"
                     % (cp.size(), q, T, q))
            args.append("x%d" % q)
        elif cp.layout == "":
            # padded to the largest extent; past an example's own extent NaN
            sz = cp.size()
            L.append("  %s *x%d = malloc(m * %d * sizeof *x%d);" % (
                T, q, sz, q))
            L.append("  for (size_t b = 0; b < n; b++)")
            L.append("    for (int e = 0; e < %d; e++) x%d[b * %d + e] = "
                     "e < %s ? (%s)a[%d + e][b] : NAN;" % (
                         sz, q, sz, _len_of(cp, "b"), T, q))
            args += ["x%d" % q, "(ptrdiff_t)%d" % sz]
            frees.append("x%d" % q)
        elif cp.layout == "packed":
            # ragged: back to back (CSR); fixed size: reversed, with gaps
            sz = cp.size()
            L.append("  size_t *xo%d = malloc(m * sizeof *xo%d), tot%d = 0;"
                     % (q, q, q))
            if cp.lenp:
                L.append("  for (size_t b = 0; b < n; b++) { xo%d[b] = tot%d; "
                         "tot%d += %s; }" % (q, q, q, _len_of(cp, "b")))
            else:
                L.append("  for (size_t b = 0; b < n; b++) xo%d[b] = "
                         "(n - 1 - b) * %d;" % (q, sz + 1))
                L.append("  tot%d = n * %d;" % (q, sz + 1))
            L.append("  %s *x%d = malloc((tot%d ? tot%d : 1) * sizeof *x%d);"
                     % (T, q, q, q, q))
            L.append("  for (size_t i = 0; i < tot%d; i++) x%d[i] = NAN;" % (
                q, q))
            L.append("  for (size_t b = 0; b < n; b++)")
            L.append("    for (int e = 0; e < %s; e++) x%d[xo%d[b] + e] = "
                     "(%s)a[%d + e][b];" % (_len_of(cp, "b"), q, q, T, q))
            args += ["x%d" % q, "xo%d" % q]
            frees += ["x%d" % q, "xo%d" % q]
        else:
            L.append("  %s **x%d = malloc(m * sizeof *x%d);" % (T, q, q))
            L.append("  for (size_t b = 0; b < n; b++) {")
            L.append("    x%d[b] = malloc(%s * sizeof **x%d);" % (
                q, _len_of(cp, "b"), q))
            L.append("    for (int e = 0; e < %s; e++) x%d[b][e] = "
                     "(%s)a[%d + e][b];" % (_len_of(cp, "b"), q, T, q))
            L.append("  }")
            args.append("(const %s *const *)x%d" % (T, q))
            L2 = "  for (size_t b = 0; b < n; b++) free(x%d[b]);" % q
            frees.append((L2, "x%d" % q))
    return L, args, frees


def shadows(cps, src, pre, const):
    """Shadows (src 'd', 'h') or tangents (src 't', const) of the
    differentiable parameters, laid out as their primals: lines, arguments,
    copy-back lines, frees. A record or array is passed when any of its
    flat parameters has a shadow (the others zero, not copied back)."""
    L, args, back, frees = [], [], [], []
    cq = "const " if const else ""
    for cp in cps:
        if not cp.diffable() or (cp.kind == "v" and cp.t == "i"):
            continue
        q = cp.q0
        nm = "%s%d" % (pre, q)
        cnt = "1" if cp.u else "n"
        anyp = "(" + " || ".join("%s[%d]" % (src, q + j)
                                 for j in range(cp.size())) + ")"
        if cp.kind == "v":
            T = ctype(cp.t)
            L.append("  %s *%s = %s[%d] ? malloc(m * sizeof *%s) : NULL;" % (
                T, nm, src, q, nm))
            L.append("  if (%s) for (size_t i = 0; i < %s; i++) %s[i] = "
                     "(%s)%s[%d][i];" % (nm, cnt, nm, T, src, q))
            back.append("  if (%s) for (size_t i = 0; i < %s; i++) %s[%d][i] "
                        "= %s[i];" % (nm, cnt, src, q, nm))
            args.append(nm)
            frees.append(nm)
        elif cp.kind == "s":
            S = cp.st.name
            L.append("  %s *%s = %s ? calloc(m, sizeof *%s) : NULL;" % (
                S, nm, anyp, nm))
            for j, (mn, t) in enumerate(cp.st.members):
                if t == "i":
                    continue
                L.append("  if (%s && %s[%d]) for (size_t i = 0; i < %s; i++) "
                         "%s[i].%s = (%s)%s[%d][i];" % (
                             nm, src, q + j, cnt, nm, mn, ctype(t), src,
                             q + j))
                back.append("  if (%s && %s[%d]) for (size_t i = 0; i < %s; "
                            "i++) %s[%d][i] = %s[i].%s;" % (
                                nm, src, q + j, cnt, src, q + j, nm, mn))
            args.append(nm)
            frees.append(nm)
        elif cp.kind == "r" and cp.layout:
            rec_shadows(cp, src, nm, anyp, cq, L, args, back, frees)
        elif cp.kind == "r":
            N, M, S = cp.dims[0], len(cp.st.members), cp.st.name
            rows = "1" if cp.u else "m"
            cnt_b = "1" if cp.u else "n"
            L.append("  %s *%s = %s ? calloc(%s * %d, sizeof *%s) : NULL;" % (
                S, nm, anyp, rows, N, nm))
            L.append("  if (%s) for (size_t b = 0; b < %s; b++)" % (nm, cnt_b))
            L.append("    for (int k = 0; k < %d; k++) {" % N)
            back.append("  if (%s) for (size_t b = 0; b < %s; b++)" % (
                nm, cnt_b))
            back.append("    for (int k = 0; k < %d; k++) {" % N)
            for j, (mn, t) in enumerate(cp.st.members):
                if t == "i":
                    continue
                L.append("      if (%s[%d + k * %d]) %s[b * %d + k].%s = "
                         "(%s)%s[%d + k * %d][b];" % (
                             src, q + j, M, nm, N, mn, ctype(t), src, q + j,
                             M))
                back.append("      if (%s[%d + k * %d]) %s[%d + k * %d][b] = "
                            "%s[b * %d + k].%s;" % (
                                src, q + j, M, src, q + j, M, nm, N, mn))
            L.append("    }")
            back.append("    }")
            args.append(nm)
            if not cp.u:
                args.append("(ptrdiff_t)%d" % N)
            frees.append(nm)
        elif cp.u or cp.layout == "":
            T = ctype(cp.t)
            sz = cp.size()
            rows = "1" if cp.u else "m"
            cnt_b = "1" if cp.u else "n"
            if cp.guard:
                # before a guard page as the primal (zero-filled)
                by = "%s * %d * sizeof *%s" % (rows, sz, nm)
                L.append("  %s *%s = %s ? gp_map(%s) : NULL;" % (
                    T, nm, anyp, by))
                frees.append(("  gp_unmap(%s, %s);" % (nm, by), None))
            else:
                L.append("  %s *%s = %s ? calloc(%s * %d, sizeof *%s) : "
                         "NULL;" % (T, nm, anyp, rows, sz, nm))
                frees.append(nm)
            L.append("  if (%s) for (size_t b = 0; b < %s; b++)" % (
                nm, cnt_b))
            L.append("    for (int e = 0; e < %d; e++) if (%s[%d + e]) "
                     "%s[b * %d + e] = (%s)%s[%d + e][b];" % (
                         sz, src, q, nm, sz, T, src, q))
            back.append("  if (%s) for (size_t b = 0; b < %s; b++)" % (
                nm, cnt_b))
            back.append("    for (int e = 0; e < %d; e++) if (%s[%d + e]) "
                        "%s[%d + e][b] = %s[b * %d + e];" % (
                            sz, src, q, src, q, nm, sz))
            args.append(nm)
            if not cp.u:
                args.append("(ptrdiff_t)%d" % sz)
        elif cp.layout == "packed":
            T = ctype(cp.t)
            if cp.guard:
                by = "(tot%d ? tot%d : 1) * sizeof *%s" % (q, q, nm)
                L.append("  %s *%s = %s ? gp_map(%s) : NULL;" % (
                    T, nm, anyp, by))
                frees.append(("  gp_unmap(%s, %s);" % (nm, by), None))
            else:
                L.append("  %s *%s = %s ? calloc(tot%d ? tot%d : 1, sizeof "
                         "*%s) : NULL;" % (T, nm, anyp, q, q, nm))
                frees.append(nm)
            L.append("  if (%s) for (size_t b = 0; b < n; b++)" % nm)
            L.append("    for (int e = 0; e < %s; e++) if (%s[%d + e]) "
                     "%s[xo%d[b] + e] = (%s)%s[%d + e][b];" % (
                         _len_of(cp, "b"), src, q, nm, q, T, src, q))
            back.append("  if (%s) for (size_t b = 0; b < n; b++)" % nm)
            back.append("    for (int e = 0; e < %s; e++) if (%s[%d + e]) "
                        "%s[%d + e][b] = %s[xo%d[b] + e];" % (
                            _len_of(cp, "b"), src, q, src, q, nm, q))
            args.append(nm)
        else:
            T = ctype(cp.t)
            L.append("  %s **%s = %s ? malloc(m * sizeof *%s) : NULL;" % (
                T, nm, anyp, nm))
            L.append("  if (%s) for (size_t b = 0; b < n; b++) {" % nm)
            by = "%s * sizeof **%s" % (_len_of(cp, "b"), nm)
            L.append("    %s[b] = %s;" % (nm, "gp_map(%s)" % by if cp.guard
                                          else "calloc(%s, sizeof **%s)" % (
                                              _len_of(cp, "b"), nm)))
            L.append("    for (int e = 0; e < %s; e++) if (%s[%d + e]) "
                     "%s[b][e] = (%s)%s[%d + e][b];" % (
                         _len_of(cp, "b"), src, q, nm, T, src, q))
            L.append("  }")
            back.append("  if (%s) for (size_t b = 0; b < n; b++)" % nm)
            back.append("    for (int e = 0; e < %s; e++) if (%s[%d + e]) "
                        "%s[%d + e][b] = %s[b][e];" % (
                            _len_of(cp, "b"), src, q, src, q, nm))
            args.append("(%s%s *const *)%s" % (cq, T, nm))
            frees.append(("  if (%s) for (size_t b = 0; b < n; b++) %s;" % (
                nm, "gp_unmap(%s[b], %s)" % (nm, by) if cp.guard else
                "free(%s[b])" % nm), nm))
    return L, args, back, frees


def _free_lines(frees):
    out = []
    for f in frees:
        if isinstance(f, tuple):
            # (a loop freeing the parts, the array), or (a line, None)
            out += [f[0]] + (["  free(%s);" % f[1]] if f[1] else [])
        else:
            out.append("  free(%s);" % f)
    return out


def xadapter(name, rt, cps, hvp, sret=None):
    """The adapters of adapters.adapter() for a function with C parameters
    cps (CP, flattened), returning rt or the struct sret."""
    R = sret.name if sret else ctype(rt)
    L = []
    for how in "stlzf":
        L += scalar_adapter(name, cps, how, sret)

    post = out_post(name, cps)  # output arrays: checks, their sums oc_
    pfree = ["  free(oc_);"] if post else []
    fold = any(cp.kind == "o" and cp.fold for cp in cps)

    def ret_of(i):
        v = sret_sum(sret, "r[%s]" % i, "double") if sret else "r[%s]" % i
        return "(%s) + oc_[%s]" % (v, i) if fold else v
    seeds = []  # NAME_grad's and NAME_hvp's d_ret
    if sret:
        sret_seeds(sret, "dr_", seeds)
    dret = "dr_" if sret else "NULL"
    pl, pargs, pfrees = primals(cps)
    L.append("static void %s_b(size_t n, double *const *a, double *ret) {" %
             name)
    L.append("  size_t m = n ? n : 1;")
    L += pl
    L.append("  %s *r = malloc(m * sizeof *r);" % R)
    L.append("  %s_batched(%s);" % (name, ", ".join(["n"] + pargs + ["r"])))
    L += post
    L.append("  for (size_t i = 0; i < n; i++) ret[i] = %s;" % ret_of("i"))
    L += ["  free(r);"] + pfree
    L += _free_lines(pfrees) + ["}"]
    # grad
    sl, sargs, sback, sfrees = shadows(cps, "d", "s", False)
    L.append("static void %s_g(size_t n, double *const *a, double *ret, "
             "double *const *d) {" % name)
    L.append("  size_t m = n ? n : 1;")
    L += pl + sl + seeds
    L.append("  %s *r = ret ? malloc(m * sizeof *r) : NULL;" % R)
    L.append("  %s_grad(%s);" % (name, ", ".join(
        ["n"] + pargs + ["r", dret] + sargs)))
    L += post
    L.append("  if (ret) for (size_t i = 0; i < n; i++) ret[i] = %s;" %
             ret_of("i"))
    L += sback + ["  free(r);"] + pfree + _free_lines(
        pfrees + sfrees + (["dr_"] if sret else [])) + ["}"]
    # jvp
    tl, targs, _, tfrees = shadows(cps, "t", "v", True)
    L.append("static void %s_j(size_t n, double *const *a, double *const *t, "
             "double *ret, double *dret) {" % name)
    L.append("  size_t m = n ? n : 1;")
    L += pl + tl
    L.append("  %s *r = ret ? malloc(m * sizeof *r) : NULL;" % R)
    L.append("  %s *dr = dret ? malloc(m * sizeof *dr) : NULL;" % R)
    L.append("  %s_jvp(%s);" % (name, ", ".join(
        ["n"] + pargs + targs + ["r", "dr"])))
    L += post
    L.append("  if (ret) for (size_t i = 0; i < n; i++) ret[i] = %s;" %
             ret_of("i"))
    L.append("  if (dret) for (size_t i = 0; i < n; i++) dret[i] = %s;" % (
        sret_sum(sret, "dr[i]", "double", True) if sret else "dr[i]"))
    L += ["  free(r);", "  free(dr);"] + pfree + _free_lines(
        pfrees + tfrees) + ["}"]
    if hvp:
        hl, hargs, hback, hfrees = shadows(cps, "h", "w", False)
        L.append("static void %s_h(size_t n, double *const *a, "
                 "double *const *t, double *ret, double *const *d, "
                 "double *const *h) {" % name)
        L.append("  size_t m = n ? n : 1;")
        L += pl + tl + sl + hl + seeds
        L.append("  %s *r = ret ? malloc(m * sizeof *r) : NULL;" % R)
        L.append("  %s_hvp(%s);" % (name, ", ".join(
            ["n"] + pargs + targs + ["r", dret] + sargs + hargs)))
        L += post
        L.append("  if (ret) for (size_t i = 0; i < n; i++) ret[i] = %s;" %
                 ret_of("i"))
        L += sback + hback + ["  free(r);"] + pfree + \
            _free_lines(pfrees + tfrees + sfrees + hfrees +
                        (["dr_"] if sret else [])) + ["}"]
    return "\n".join(L)
