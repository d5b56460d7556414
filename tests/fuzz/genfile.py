"""gen_file: one generated C file of K annotated functions with their
twins, adapters and main() (tests/fuzz/gen.py, README.md)."""
import random

from adapters import adapter, ctype
from features import Ext
from fngen import FnGen
from markers import DBL, FLT, LF, TW, mark_returns, render, tname
from wfeatures import written_names
from xadapters import flatten, xadapter


def gen_file(seed, K, mutate=0.0, features=(), mutate_ret=0.0,
             mutate_global=0, mutate_ulp=0, mutate_jvp=0.0,
             mutate_callee=0.0):
    rng = random.Random(seed)
    # the constructs of --features draw from rng only when asked for: the
    # default output of a seed stays what it was
    ext = Ext(rng, features) if features else None
    counter = [0]
    out = []
    twins = []
    ltwins = []
    zts = []
    fes = []  # flags twins (under FENV_ACCESS with the twins)
    adapters = []
    descs = []
    callees = []  # (name, rtype, ptypes, transc) usable from later functions
    # file-scope data (issue 13): coefficient tables (static, static const,
    # non-const) and globals that nothing writes, one copy per rendering
    # (exact literals: every copy holds the same values); helpers taking
    # arrays, one per element type
    data = {"tables": [], "globals": []}
    decls = []
    lits = [0.5, 1.5, -2.0, 0.25, -0.75, 1.25, 0.125, -1.0, 3.0, 0.375]
    for i in range(rng.randint(1, 2)):
        t = rng.choice("dfd")
        sz = rng.randint(3, 7)
        nm = "T%d%s" % (i, TW)
        vals = ", ".join(repr(rng.choice(lits)) + (LF if t == "f" else "")
                         for _ in range(sz))
        decls.append("%s%s %s[%s] = {%s};" % (
            rng.choice(["static ", "static const ", ""]), tname(t), nm,
            rng.choice([str(sz), ""]), vals))
        data["tables"].append((nm, t, sz))
    for i in range(rng.randint(0, 2)):
        t = rng.choice("df")
        nm = "G%d%s" % (i, TW)
        decls.append("%s%s %s = %s%s;" % (
            rng.choice(["", "static ", "static const "]), tname(t), nm,
            repr(rng.choice(lits)), LF if t == "f" else ""))
        data["globals"].append((nm, t))
    for t in "df":
        T = tname(t)
        h = "0.5" + (LF if t == "f" else "")
        decls += [
            "static inline %s polevl_%s%s(%s x, const %s *coef, int N) {" % (
                T, t, TW, T, T),
            "  const %s *p = coef;" % T, "  %s ans = *p++;" % T,
            "  int i = N;", "  do", "    ans = ans * x + *p++;",
            "  while (--i);", "  return ans;", "}",
            "static inline %s wsum_%s%s(const %s *a, int n, %s w) {" % (
                T, t, TW, T, T),
            "  %s s = 0;" % T, "  for (int i = 0; i < n; i++)",
            "    s = s * w + a[i];", "  return s;", "}",
            "static inline void split_%s%s(%s x, %s *hi, %s *lo) {" % (
                t, TW, T, T, T),
            "  *hi = x * %s;" % h, "  *lo = x - *hi;", "}",
            "static inline void fill_%s%s(%s *out, int n, %s x) {" % (
                t, TW, T, T),
            "  for (int i = 0; i < n; i++)",
            "    out[i] = out[i] * %s + x;" % h, "}"]
    # globals written by one function each (read and written only there)
    wglobals = {}
    for k in range(K):
        if rng.random() < 0.35:
            wglobals[k] = ("W%d%s" % (k, TW), None)
    if ext:
        decls += ext.file_decls()
    out.append(render("\n".join(decls), False))
    twins.append(render("\n".join(decls), True))
    ltwins.append(render("\n".join(decls), "ld"))
    zts.append(render("\n".join(decls), "zt"))
    fes.append(render("\n".join(decls), "fe"))
    # static inline helpers
    for h in range(rng.randint(1, 2)):
        types = rng.choice(["d", "f", "fd"])
        rt = rng.choice(types)
        np_ = rng.randint(1, 3)
        params = [("h%d_%d" % (h, p), rng.choice(types), False, False)
                  for p in range(np_)]
        g = FnGen(rng, rt, params, [], True, counter)
        if ext:
            ext.attach(g)
        g.types = types
        g.use_file_data(data)
        if ext:
            ext.use_tables(g)
        g.allow_transc = rng.random() < 0.5
        body = g.body()
        name = "helper%d" % h
        sig = ", ".join("%s %s" % (tname(t), nm) for nm, t, _, _ in params)
        txt = ["static inline %s %s%s(%s) {" % (tname(rt), name, TW, sig)] + \
            body + ["}"]
        out.append(render("\n".join(txt), False))
        twins.append(render("\n".join(txt), True))
        ltwins.append(render("\n".join(txt), "ld"))
        zts.append(render("\n".join(txt), "zt"))
        fes.append(render("\n".join(txt), "fe"))
        callees.append((name, rt, [t for _, t, _, _ in params], g.transc,
                        g.hasfloat or FLT in "\n".join(txt), len(txt)))
    # batch, diff functions of another file ('bcalls', ofeatures.py): the
    # main part declares them, the twins define theirs
    odecls, odefs, otwins = ext.ocallees_make(FnGen, counter) if ext else \
        ([], [], [])
    if odecls:
        out.append(render("\n".join(odecls), False))
        for r_, lst in ((True, twins), ("ld", ltwins), ("zt", zts),
                        ("fe", fes)):
            lst.append(render("\n".join(otwins), r_))
    for k in range(K):
        types = rng.choice(["d", "d", "f", "fd", "fd"])
        rt = rng.choice(types)
        params = []
        np_ = rng.randint(1, 5)
        for p in range(np_):
            t = rng.choice(types + types + "i")
            uni = rng.random() < 0.2
            nodiff = t != "i" and rng.random() < 0.1
            params.append(("p%d" % p, t, uni, nodiff))
        if not any(t == "i" for _, t, _, _ in params) and rng.random() < 0.6:
            params.append(("p%d" % np_, "i", rng.random() < 0.3, False))
        if all(t == "i" or nd for _, t, _, nd in params):
            params.append(("p%d" % len(params), rt, False, False))
        cps, hvp = ext.params(types, params) if ext else (None, True)
        sret = ext.sret if ext else None  # a struct return type ('sret')
        g = FnGen(rng, rt, params, callees, False, counter)
        g.stmts_left = rng.randint(6, 18)
        g.types = types
        if ext:
            ext.setup(g, cps)
        g.use_file_data(data)
        if ext:
            ext.use_tables(g)
        g.allow_transc = rng.random() < 0.5
        wg = None
        if k in wglobals:
            wg = (wglobals[k][0], rng.choice(types))
            g.wglobal = wg
            for r_, lst in ((False, out), (True, twins), ("ld", ltwins),
                            ("zt", zts), ("fe", fes)):
                lst.append(render("%s %s;" % (tname(wg[1]), wg[0]), r_))
        elif ext and ext.qon():
            # a global written on some paths only (qfeatures 'gpaths')
            qg = ext.qglobal_pick(k, types)
            if qg:
                g.qglobal = qg
                for r_, lst in ((False, out), (True, twins), ("ld", ltwins),
                                ("zt", zts), ("fe", fes)):
                    lst.append(render("\n".join(ext.qglobal_decls(qg)), r_))
        body = g.body()
        if getattr(g, "ocalled", False):
            hvp = False  # diff-batched-hvp (docs/calls.md)
        if getattr(g, "qglobal", None):
            wg = g.qglobal  # checked as the global written first is
        if ext:
            body = ext.vprotos(g, body, callees)
        # self-check: a BD_NODIFF parameter whose bits are rebuilt into a
        # float is never written (else the plugin's diff-union error is
        # right: seed 92 of the seventh round)
        bad = written_names(body, g.nd_bits)
        assert not bad, "seed %d f%d: BD_NODIFF %s written and its bits " \
            "rebuilt (wfeatures.nodiff_bits)" % (seed, k, ", ".join(bad))
        name = "f%d" % k
        sig = ", ".join("%s%s%s %s" % ("BD_UNIFORM " if u else "",
                                         "BD_NODIFF " if nd else "",
                                         tname(t), nm)
                        for nm, t, u, nd in params)
        twin_sig = ", ".join("%s %s" % (tname(t), nm)
                             for nm, t, u, nd in params)
        xp = cps and (any(cp.kind != "v" for cp in cps) or sret)
        if xp:
            sig, twin_sig = Ext.sig(cps, True), Ext.sig(cps, False)
        rtn = sret.name if sret else tname(rt)
        head = "BATCHDIFF BD_JVP%s %s %s%s(%s) {" % (
            " BD_HVP" if hvp else "", rtn, name, TW, sig)
        txt = "\n".join([head] + body + ["}"])
        out.append(render(txt, False))
        twin_txt = "\n".join(
            ["static %s %s%s(%s) {" % (rtn, name, TW, twin_sig)] +
            mark_returns(name, body) + ["}"])
        twins.append(render(twin_txt, True))
        # the return the long twin and the flags twin took (fz_path_ok)
        ltwins.append("static int fz_rt_%s_ld;\n" % name +
                      render(twin_txt, "ld"))
        zts.append(render(twin_txt, "zt"))
        fes.append("static int fz_rt_%s_fe;\n" % name +
                   render(twin_txt, "fe"))
        hf = g.hasfloat or FLT in txt
        # larger ones would blow up the inlined code; a function writing a
        # global is called by nobody (a call on some paths only would write
        # it on some paths only: an error)
        # (nor one making a recursive call: tfeatures 'recur')
        # (nor one using a scratch global: rfeatures 'gscratch')
        if len(body) < 30 and not wg and not xp and \
                not getattr(g, "trec", False) and \
                not getattr(g, "rscr_any", False) and \
                not getattr(g, "ocalled", False):
            callees.append((name, rt, [t for _, t, _, _ in params], g.transc,
                            hf, len(body)))
        if xp:
            for cp in cps:
                # output arrays: their sums join the compared value when it
                # is compared bit for bit (vfeatures 'nout')
                cp.fold = cp.kind == "o" and not g.transc
            nflat = flatten(cps)
            assert nflat <= 64, "more flat parameters than FZ_MAXP"
            adapters.append(render(xadapter(name, rt, cps, hvp, sret),
                                   False))
            if sret:
                rt = "f" if "f" in sret.ftypes else "d"
            fl = [(t, "1" if cp.u else "0", "1" if nd else "0")
                  for cp in cps
                  for t, nd in zip(cp.flat_types(), cp.flat_nd())]
            # NAME_grad and NAME_hvp both sort a batch by a varying length
            # (e097ea6): their uniform sums are compared bit for bit
            srt = False
            elem = "".join(
                ("S" if srt and cp.u else "1") if cp.kind in "ar" else
                ("s" if srt and cp.u else "0")
                for cp in cps for _ in cp.flat_types())
        else:
            adapters.append(adapter(name, rt, params, hvp))
            nflat = len(params)
            fl = [(t, "1" if u else "0", "1" if nd else "0")
                  for _, t, u, nd in params]
        gacc = ""
        if xp:
            # the global accessors' places, then the elements
            gacc = ", NULL, NULL"
        if wg:
            gname = render(wg[0], False)
            adapters.append(
                "static double %s_gg(void) { return (double)%s; }\n"
                "static void %s_gs(double v) { %s = (%s)v; }\n"
                "static double %s_ggz(void) { return (double)%s; }\n"
                "static void %s_gsz(double v) { %s = (%s)v; }" % (
                    name, gname, name, gname, ctype(wg[1]), name,
                    render(wg[0], "zt"), name, render(wg[0], "zt"),
                    ctype(wg[1])))
            gacc = ", %s_gg, %s_gs" % (name, name)
        if xp:
            gacc += ', "%s"' % elem
        if wg:
            # the tie twin's copy of the global (check 4's ULP explanation)
            gacc += "%s, %s_ggz, .gtset = %s_gsz" % ("" if xp else ", NULL",
                                                     name, name)
        if getattr(g, "ucalls", False) and not g.transc:
            # calls of outside functions, compared (ufeatures 'ecalls')
            gacc += ", .ext = 1"
        descs.append('  {"%s", %d, "%s", "%s", "%s", \'%s\', %d, %d, %s_s, '
                     '%s_t, %s_l, %s_b, %s_g, %s_j, %s, %s_z, %s_f%s},' % (
                         name, nflat, "".join(f[0] for f in fl),
                         "".join(f[1] for f in fl), "".join(f[2] for f in fl),
                         rt, 1 if g.transc else 0, 0 if hf else 1,
                         name, name, name, name, name, name,
                         name + "_h" if hvp else "NULL", name, name,
                         gacc + ", .rtl = &fz_rt_%s_ld, .rtf = &fz_rt_%s_fe" % (
                             name, name)))
    src = ["/* generated by tests/fuzz/gen.py --seed %d --k %d */" % (seed, K)]
    if odefs:
        # the other file: compiled alone with -DFZ_OTHER_FILE (gen.py)
        pre, post = ext.omutate(mutate_callee)
        src += ["#ifdef FZ_OTHER_FILE", "#include <batchdiff.h>",
                "#include <math.h>"] + pre + \
            [render("\n".join(odefs), False)] + post + ["#else"]
    src += ["#include <batchdiff.h>", "#include <math.h>",
           # a wrong gradient on purpose: the oracle's self-test
           "#define FZ_MUTATE %r" % mutate,
           "#define FZ_MUTATE_RET %r" % mutate_ret,
           "#define FZ_MUTATE_GLOBAL %d" % mutate_global,
           "#define FZ_MUTATE_ULP %d" % mutate_ulp] \
        + (["#define FZ_MUTATE_JVP %s" % ("HUGE_VAL" if mutate_jvp == float(
            "inf") else repr(mutate_jvp))] if mutate_jvp else []) \
        + ['#include "fuzz_harness.h"', ""]
    # The twins run under FENV_ACCESS: no speculated operation (such as the
    # division on the untaken side of a ?:) raises a flag the path did not
    # raise, so the harness's overflow test sees the path's own flags.
    src += out + [""] + ["#pragma STDC FENV_ACCESS ON",
                         "/* twins: every float made double */"] + twins + \
        [""] + ["/* long twins: every floating type long double */"] + \
        ltwins + ["", "/* flags twins: the function's own code, its "
                  "overflow flags */"] + fes + \
        ["#pragma STDC FENV_ACCESS OFF", "",
                  "/* tie twins: fmin/fmax count ties of opposite zeros */"] + \
        zts + [""] + adapters + ["", '#define FZ_EXT_DEFINE',
                                 '#include "fuzz_extern.h"',
                                 "static const fz_fn fz_fns[] = {"] + \
        descs + \
        ["};", "",
         "int main(void) {",
         "  return fz_main(fz_fns, (int)(sizeof fz_fns / sizeof fz_fns[0]), "
         "%dul);" % seed, "}"] + (["#endif"] if odefs else []) + [""]
    return "\n".join(src)
