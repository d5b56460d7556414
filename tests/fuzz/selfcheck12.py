"""Check 9 of selfcheck.py: the twelfth round's constructs (pfeatures.py,
'passon') are made in all their forms and keep their rules: the outside
functions taking pointers are called in annotated functions only (in the
file's helpers only in pput/pget, which pass their parameter on), a
narrow array parameter's elements from j on are read at most to its end,
and a local given by address is a fresh int declared right before.

A made-up function breaking each rule fails it (check_twelfth_fails)."""
import re

NAMES = ("nsum_whole", "nsum_from", "nsum_ragged", "put_addr", "put_null",
         "pput_addr", "pput_null", "pget_addr", "pget_null")


def check_calls(name, head, lines, why, counts):
    fixed = dict((nm, int(n)) for nm, n in re.findall(
        r"\b(xn\d+)\[(\d+)\]", head))
    for k, ln in enumerate(lines):
        for m in re.finditer(r"fz_ext_nsum_\w\w\(\d+, ([^,]+), ([^)]+)\)",
                             ln):
            arg, n = m.group(1), m.group(2)
            a = re.match(r"(xn\d+)(?: \+ (\d+))?$|&(xn\d+)\[(\d+)\]$", arg)
            if not a:
                why.append("nsum of %s" % arg)
                continue
            nm = a.group(1) or a.group(3)
            j = int(a.group(2) or a.group(4) or 0)
            if nm in fixed:
                counts["nsum_from" if j else "nsum_whole"] += 1
                if not n.isdigit() or j + int(n) > fixed[nm]:
                    why.append("nsum past the end of %s: %s" % (nm, m.group(0)))
            else:
                counts["nsum_ragged"] += 1
                if j:
                    why.append("ragged %s read from %d" % (nm, j))
        for f, key in (("fz_ext_put", "put"), ("pput", "pput"),
                       ("pget", "pget")):
            for m in re.finditer(r"\b%s\(\d+, .*?, (NULL|&(\w+))\);" % f, ln):
                if m.group(1) == "NULL":
                    counts[key + "_null"] += 1
                    continue
                counts[key + "_addr"] += 1
                v = m.group(2)
                if not any(re.match(r"\s*int %s = 0;$" % v, lines[i])
                           for i in range(max(0, k - 1), k)):
                    why.append("&%s not a fresh int right before" % v)


def check_twelfth(s, src, counts):
    """Check 9 on one file."""
    bad = []
    ann = src[:src.index("/* twins:")]
    fns = re.findall(r"^BATCHDIFF .*?^}$", ann, re.S | re.M)
    for fn in fns:
        name = re.search(r" (f\d+)\(", fn).group(1)
        head, body = fn.split("\n", 1)
        why = []
        check_calls(name, head, body.split("\n"), why, counts)
        bad += ["seed %d %s: %s" % (s, name, w) for w in why]
    rest = ann
    for fn in fns:
        rest = rest.replace(fn, "")
    for m in re.finditer(r"^static \w+ (\w+)\([^)]*\) \{\n(.*?)^\}$", rest,
                         re.S | re.M):
        if m.group(1) not in ("pput", "pget") and \
                re.search(r"fz_ext_(put|nsum_)", m.group(2)):
            bad.append("seed %d: helper %s calls an outside function with a "
                       "pointer" % (s, m.group(1)))
    return bad


def check_twelfth_fails():
    """Check 9 fails on a read past an array's end, a ragged array read
    from an offset, an address of a variable not declared right before,
    and a helper calling the outside functions."""
    fake = ("static int hx(const _Bool *p) {\n"
            "  return fz_ext_nsum_bo(1, p, 2);\n}\n"
            "BATCHDIFF double f0(double p0, const short xn1[3], int ln2, "
            "const _Bool xn3[ln2], int p4) {\n"
            "  int k = fz_ext_nsum_sh(5, xn1 + 2, 2) + fz_ext_nsum_bo(6, "
            "xn3 + 1, ln2);\n"
            "  fz_ext_put(7, k, &p4);\n"
            "  return p0 * k;\n}\n/* twins: */")
    counts = {k: 0 for k in NAMES}
    got = check_twelfth(0, fake, counts)
    want = ["nsum past the end of xn1", "ragged xn3 read from 1",
            "&p4 not a fresh int", "helper hx calls"]
    return ["check 9 missed: %s" % w for w in want
            if not any(w in b for b in got)]
