"""C adapters of the generated functions for tests/fuzz/fuzz_harness.h:
every argument, result and shadow passed as doubles (floats and ints are
stored exactly), arrays of n values per varying parameter, one per uniform
one. Used by gen.py."""


def ctype(t):
    return {"f": "float", "d": "double", "i": "int"}[t]


def adapter(name, rt, params, hvp=True):
    L = []
    args = []
    for p, (nm, t, u, nd) in enumerate(params):
        args.append("(%s)a[%d]" % (ctype(t), p))
    L.append("static double %s_s(const double *a) { return %s(%s); }" % (
        name, name, ", ".join(args)))
    targs = ["(%s)a[%d]" % ("int" if t == "i" else "double", p)
             for p, (nm, t, u, nd) in enumerate(params)]
    L.append("static double %s_t(const double *a) { return %s_tw(%s); }" % (
        name, name, ", ".join(targs)))
    largs = ["(%s)a[%d]" % ("int" if t == "i" else "long double", p)
             for p, (nm, t, u, nd) in enumerate(params)]
    L.append("static long double %s_l(const long double *a) { "
             "return %s_ld(%s); }" % (name, name, ", ".join(largs)))
    L.append("static double %s_z(const double *a) { return %s_zt(%s); }" % (
        name, name, ", ".join(args)))
    L.append("static double %s_f(const double *a) { return %s_fe(%s); }" % (
        name, name, ", ".join(args)))
    # batched
    L.append("static void %s_b(size_t n, double *const *a, double *ret) {" %
             name)
    L.append("  size_t m = n ? n : 1;")
    bargs = []
    for p, (nm, t, u, nd) in enumerate(params):
        if u:
            bargs.append("(%s)a[%d][0]" % (ctype(t), p))
        else:
            L.append("  %s *x%d = malloc(m * sizeof *x%d);" % (ctype(t), p, p))
            L.append("  for (size_t i = 0; i < n; i++) x%d[i] = (%s)a[%d][i];"
                     % (p, ctype(t), p))
            bargs.append("x%d" % p)
    L.append("  %s *r = malloc(m * sizeof *r);" % ctype(rt))
    L.append("  %s_batched(n, %s, r);" % (name, ", ".join(bargs)))
    L.append("  for (size_t i = 0; i < n; i++) ret[i] = r[i];")
    L.append("  free(r);")
    for p, (nm, t, u, nd) in enumerate(params):
        if not u:
            L.append("  free(x%d);" % p)
    L.append("}")
    # grad
    L.append("static void %s_g(size_t n, double *const *a, double *ret, "
             "double *const *d) {" % name)
    L.append("  size_t m = n ? n : 1;")
    gargs = []
    frees = []
    for p, (nm, t, u, nd) in enumerate(params):
        if u:
            gargs.append("(%s)a[%d][0]" % (ctype(t), p))
        else:
            L.append("  %s *x%d = malloc(m * sizeof *x%d);" % (ctype(t), p, p))
            L.append("  for (size_t i = 0; i < n; i++) x%d[i] = (%s)a[%d][i];"
                     % (p, ctype(t), p))
            gargs.append("x%d" % p)
            frees.append("x%d" % p)
    L.append("  %s *r = ret ? malloc(m * sizeof *r) : NULL;" % ctype(rt))
    gargs.append("r")
    gargs.append("NULL")
    copyback = []
    for p, (nm, t, u, nd) in enumerate(params):
        if t == "i" or nd:
            continue
        cnt = "1" if u else "n"
        L.append("  %s *s%d = d[%d] ? malloc(m * sizeof *s%d) : NULL;" % (
            ctype(t), p, p, p))
        L.append("  if (s%d) for (size_t i = 0; i < %s; i++) s%d[i] = "
                 "(%s)d[%d][i];" % (p, cnt, p, ctype(t), p))
        gargs.append("s%d" % p)
        copyback.append("  if (s%d) for (size_t i = 0; i < %s; i++) d[%d][i] "
                        "= s%d[i];" % (p, cnt, p, p))
        frees.append("s%d" % p)
    L.append("  %s_grad(n, %s);" % (name, ", ".join(gargs)))
    L.append("  if (ret) for (size_t i = 0; i < n; i++) ret[i] = r[i];")
    L += copyback
    L.append("  free(r);")
    for f in frees:
        L.append("  free(%s);" % f)
    L.append("}")
    # jvp: tangents t[p] (NULL = zero direction), ret and d_ret may be NULL
    L.append("static void %s_j(size_t n, double *const *a, double *const *t, "
             "double *ret, double *dret) {" % name)
    L.append("  size_t m = n ? n : 1;")
    jargs = []
    frees = []
    for p, (nm, t, u, nd) in enumerate(params):
        if u:
            jargs.append("(%s)a[%d][0]" % (ctype(t), p))
        else:
            L.append("  %s *x%d = malloc(m * sizeof *x%d);" % (ctype(t), p, p))
            L.append("  for (size_t i = 0; i < n; i++) x%d[i] = (%s)a[%d][i];"
                     % (p, ctype(t), p))
            jargs.append("x%d" % p)
            frees.append("x%d" % p)
    for p, (nm, t, u, nd) in enumerate(params):
        if t == "i" or nd:
            continue
        cnt = "1" if u else "n"
        L.append("  %s *v%d = t[%d] ? malloc(m * sizeof *v%d) : NULL;" % (
            ctype(t), p, p, p))
        L.append("  if (v%d) for (size_t i = 0; i < %s; i++) v%d[i] = "
                 "(%s)t[%d][i];" % (p, cnt, p, ctype(t), p))
        jargs.append("v%d" % p)
        frees.append("v%d" % p)
    L.append("  %s *r = ret ? malloc(m * sizeof *r) : NULL;" % ctype(rt))
    L.append("  %s *dr = dret ? malloc(m * sizeof *dr) : NULL;" % ctype(rt))
    jargs += ["r", "dr"]
    L.append("  %s_jvp(n, %s);" % (name, ", ".join(jargs)))
    L.append("  if (ret) for (size_t i = 0; i < n; i++) ret[i] = r[i];")
    L.append("  if (dret) for (size_t i = 0; i < n; i++) dret[i] = dr[i];")
    L.append("  free(r);")
    L.append("  free(dr);")
    for f in frees:
        L.append("  free(%s);" % f)
    L.append("}")
    return "\n".join(L) + ("\n" + hvp_adapter(name, rt, params) if hvp
                           else "")


def hvp_adapter(name, rt, params):
    """NAME_hvp with every argument as doubles: tangents t[p] (NULL = zero
    direction), d_ret NULL (seed 1), gradient shadows d[p] and H.v shadows
    h[p] (NULL = not wanted; both +=)."""
    L = ["static void %s_h(size_t n, double *const *a, double *const *t, "
         "double *ret, double *const *d, double *const *h) {" % name,
         "  size_t m = n ? n : 1;"]
    xs, vs, ds, hs, frees, back = [], [], [], [], [], []
    for p, (nm, t, u, nd) in enumerate(params):
        if u:
            xs.append("(%s)a[%d][0]" % (ctype(t), p))
            continue
        L.append("  %s *x%d = malloc(m * sizeof *x%d);" % (ctype(t), p, p))
        L.append("  for (size_t i = 0; i < n; i++) x%d[i] = (%s)a[%d][i];"
                 % (p, ctype(t), p))
        xs.append("x%d" % p)
        frees.append("x%d" % p)
    for p, (nm, t, u, nd) in enumerate(params):
        if t == "i" or nd:
            continue
        cnt = "1" if u else "n"
        for pre, src, lst in (("v", "t", vs), ("s", "d", ds), ("w", "h", hs)):
            L.append("  %s *%s%d = %s[%d] ? malloc(m * sizeof *%s%d) : NULL;"
                     % (ctype(t), pre, p, src, p, pre, p))
            L.append("  if (%s%d) for (size_t i = 0; i < %s; i++) %s%d[i] = "
                     "(%s)%s[%d][i];" % (pre, p, cnt, pre, p, ctype(t), src,
                                         p))
            lst.append("%s%d" % (pre, p))
            frees.append("%s%d" % (pre, p))
            if src != "t":
                back.append("  if (%s%d) for (size_t i = 0; i < %s; i++) "
                            "%s[%d][i] = %s%d[i];" % (pre, p, cnt, src, p,
                                                      pre, p))
    L.append("  %s *r = ret ? malloc(m * sizeof *r) : NULL;" % ctype(rt))
    L.append("  %s_hvp(%s);" % (name, ", ".join(
        ["n"] + xs + vs + ["r", "NULL"] + ds + hs)))
    L.append("  if (ret) for (size_t i = 0; i < n; i++) ret[i] = r[i];")
    L += back
    L.append("  free(r);")
    for f in frees:
        L.append("  free(%s);" % f)
    L.append("}")
    return "\n".join(L)
