"""The constructs of the twelfth round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'passon' (944ab07, 48451d5, tests/exec/test_extern_passon.c): pointers
passed on to functions of another file, called once per example (their
bodies come after every function: fuzz_extern.h), in annotated functions
only. A narrow array parameter (with 'narrow': fixed extents, ragged
`x[len]`, every layout, BD_UNIFORM) whole or from an element on,
`fz_ext_nsum_uc(site, xn3 + 1, 2)`, `fz_ext_nsum_sh(site, xn4, ln3)`, as
an int leaf; the address of a fresh int local the call writes,
`int pw5 = 0; fz_ext_put(site, k, &pw5);`, then read by the int leaves
after it; a null pointer, `fz_ext_put(site, k, NULL)` (the callee skips
the write); and both through the file's helpers passing their pointer
parameter on, `pput(site, k, &pw5)`, `pw5 = pget(site, k, &pw5)` and
`pget(site, k, NULL)` (the helper reads the value back where the pointer
is not null). The callees record each call with its arguments and the
elements they read (fz_ext_h); the harness compares those records of NAME_batched,
NAME_grad, NAME_jvp and NAME_hvp with the scalar loop's (fz_check_ext)
in functions without transcendental calls, as for 'ecalls'.

Each draws random numbers only when enabled: the output of the other
features (the eleventh round's list among them) does not change."""
from markers import TW

NEW12 = ("passon",)


class PExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def pon(self):
        return "passon" in self.f

    # ------------------------------------------------------------ file
    def pfile_decls(self):
        """The helpers passing their pointer parameter on (one copy per
        rendering: the names carry TW)."""
        if not self.pon():
            return []
        return [
            "static void pput%s(int site, int k, int *s) {" % TW,
            "  fz_ext_put(site, k, s);", "}",
            "static int pget%s(int site, int k, int *s) {" % TW,
            "  fz_ext_put(site, k + 1, s);",
            "  return s ? *s + 1 : 0;", "}"]

    # ------------------------------------------------------------ leaves
    def pileaf(self, g):
        """An outside function reading a narrow array parameter, or None."""
        if g.is_helper or self.r.random() >= 0.08 or "narrow" not in self.f:
            return None
        from wfeatures import NCTYPES
        fixed = [(nm, sz) for nm, (kk, at, _, sz) in g.scope.all().items()
                 if kk == "a" and at == "i" and nm in self.wparams_ct and
                 isinstance(sz, int) and sz > 0]
        rg = [cp for cp in g.ragged if cp.ct]
        site = self.r.randint(0, 99)
        if fixed and (not rg or self.r.random() < 0.6):
            nm, sz = self.r.choice(fixed)
            tag = [r[1] for r in NCTYPES if r[0] == self.ctypes[nm]][0]
            j = self.r.randint(0, sz - 1)
            arg, n = g.sub_array(nm, j), str(self.r.randint(1, sz - j))
        elif rg:
            cp = self.r.choice(rg)
            tag = [r[1] for r in NCTYPES if r[0] == cp.ct][0]
            arg, n = cp.nm, cp.lenp.nm
        else:
            return None
        g.ucalls = True
        return "fz_ext_nsum_%s(%d, %s, %s)" % (tag, site, arg, n)

    # ------------------------------------------------------------ stmts
    def pstmt(self, g, ind, in_loop):
        """An outside call writing an int local through its address (or
        given a null pointer), directly or through a helper; or False."""
        if g.is_helper or self.r.random() >= 0.05:
            return False
        g.ucalls = True
        site, k = self.r.randint(0, 99), g.int_expr(1)
        how = self.r.randrange(4)
        if self.r.random() < 0.25:
            if how == 3:
                acc = self.r.choice(g.vars_of("i", writable=True) or
                                    [(None, "i")])[0]
                if acc:
                    g.emit(ind, "%s = %s + pget%s(%d, %s, NULL);" % (
                        acc, acc, TW, site, k))
                    return True
            g.emit(ind, "%s(%d, %s, NULL);" % (
                "pput" + TW if how >= 2 else "fz_ext_put", site, k))
            return True
        nm = g.fresh("pw")
        g.emit(ind, "int %s = 0;" % nm)
        if how == 3:
            # (the call's write is sequenced before the assignment's)
            g.emit(ind, "%s = pget%s(%d, %s, &%s);" % (nm, TW, site, k, nm))
        else:
            g.emit(ind, "%s(%d, %s, &%s);" % (
                "pput" + TW if how == 2 else "fz_ext_put", site, k, nm))
        g.scope.vars[nm] = ("v", "i", False, 0)
        return True
