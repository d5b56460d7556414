"""Check 10 of selfcheck.py: the thirteenth round's constructs
(ofeatures.py: 'bcalls', 'cwalks', 'achoice') are made in all their forms
and keep their rules: each callee of the other file is declared in the
main part with its definition's parameters and annotations, a function
calling one asks for no NAME_hvp (diff-batched-hvp), a BD_NODIFF
parameter of a callee gets no variable of the caller (diff-batched-nodiff:
a literal or a conversion of an int), and a pointer chosen among array
parameters is chosen among parameters of one type and one length.

A made-up file breaking each rule fails it (check_thirteenth_fails)."""
import re

NAMES = ("callees", "calls", "call_loops", "call_branches",
         "cpolevl", "cchb", "cwhile", "cwhilegt", "cfordown", "cdogt",
         "ctwo", "cfirst", "walk_arrays", "choice_cond", "choice_repoint")

OTHER = re.compile(r"^#ifdef FZ_OTHER_FILE\n(.*?)^#else\n", re.S | re.M)


def main_part(src):
    """The file without the other file's part (--features bcalls)."""
    return OTHER.sub("", src, count=1)


def split_params(sig):
    return [p.strip() for p in sig.split(",") if p.strip()]


def check_thirteenth(s, src, counts):
    """Check 10 on one file."""
    bad = []
    m = OTHER.search(src)
    callees = {}
    if m:
        for d in re.finditer(r"^BATCHDIFF (\w+) (cb\d+)\(([^)]*)\) \{$",
                             m.group(1), re.M):
            callees[d.group(2)] = (d.group(1), split_params(d.group(3)))
            counts["callees"] += 1
    ann = main_part(src)
    ann = ann[:ann.index("/* twins:")]
    for d in re.finditer(r"^__attribute__\(\(batch, diff\)\) (\w+) (cb\d+)"
                         r"\(([^)]*)\);$", ann, re.M):
        if callees.get(d.group(2)) != (d.group(1), split_params(d.group(3))):
            bad.append("seed %d: %s declared otherwise than defined" % (
                s, d.group(2)))
        callees.pop(d.group(2), None)
    bad += ["seed %d: %s not declared" % (s, c) for c in callees]
    for fn in re.findall(r"^BATCHDIFF .*?^}$", ann, re.S | re.M):
        head = fn.split("\n", 1)[0]
        name = re.search(r" (f\d+)\(", head).group(1)
        calls = re.findall(r"\bcb\d+\(", fn)
        counts["calls"] += len(calls)
        if calls and "BD_HVP" in head:
            bad.append("seed %d %s: calls another file's function and asks "
                       "for NAME_hvp" % (s, name))
        counts["call_loops"] += len(re.findall(
            r"for \(int i\d+ = 0; i\d+ < n\d+; i\d+\+\+\) \{\n\s+\w+ cv\d+ = ",
            fn))
        counts["call_branches"] += len(re.findall(
            r"if \(.*\) \{\n\s+\w+ cv\d+ = ", fn))
        counts["cpolevl"] += len(re.findall(
            r"= \*\w+\+\+;\n\s+int i\d+ = [^;]+;\n\s+do \{\n\s+s\d+ = s\d+ "
            r"\* ", fn))
        counts["cchb"] += len(re.findall(r"= \*\w+\+\+, b\d+ = 0, b\d+;", fn))
        counts["cwhile"] += len(re.findall(r"while \(i\d+--\) \{", fn))
        counts["cwhilegt"] += len(re.findall(r"while \(i\d+-- > 0\) \{", fn))
        counts["cfordown"] += len(re.findall(r"for \(; i\d+ > 0; i\d+--\)",
                                             fn))
        counts["cdogt"] += len(re.findall(r"\} while \(--i\d+ > 0\);", fn))
        counts["ctwo"] += len(re.findall(r"for \(i\d+ = [^;]+; i\d+-- > 0;\)",
                                         fn))
        counts["cfirst"] += len(re.findall(r"= \w+\[0\] \* [^;]+;\n\s+for "
                                           r"\(int i\d+ = 0; i\d+ < ln\d+; "
                                           r"i\d+\+\+\) \{\n\s+s\d+ = ", fn))
        counts["walk_arrays"] += len(re.findall(
            r"const \w+ \*p\d+(?: = |;\n\s+p\d+ = )(?!x\w+;)[^;]+;"
            r"\n\s+(?:int i\d+ = [^;]+;\n\s+)?\w+ s\d+ = \*p\d+\+\+", fn))
        # choices among array parameters of one type and length
        arrs = dict((nm, (t, n)) for t, nm, n in re.findall(
            r"const (\w+) (xc\d+)\[(\d+)\]", head))
        for c in re.finditer(r"const \w+ \*c\d+ = (\(.*?\) \? )?(xc\d+)"
                             r"(?: : (\(.*\) \? )?(\w+)(?: : (\w+)\))?)?;",
                             fn):
            got = [g for g in c.group(2, 4, 5) if g and g.startswith("xc")]
            if len(set(arrs.get(g) for g in got)) > 1 or \
                    any(g not in arrs for g in got):
                bad.append("seed %d %s: a choice among arrays of different "
                           "types or lengths: %s" % (s, name, c.group(0)))
            counts["choice_cond" if c.group(1) else "choice_repoint"] += 1
        # a callee's BD_NODIFF argument carries no derivative: a literal
        # or a conversion (of an int)
        for cb, ks in nodiff_args(src).items():
            for args in call_args(fn, cb):
                for k in ks:
                    if not LITERAL.match(args[k]):
                        bad.append("seed %d %s: %s's BD_NODIFF argument %s" %
                                   (s, name, cb, args[k]))
    return bad


LITERAL = re.compile(r"^(\(-[\d.]+f?\)|[\d.]+f?|\((float|double)\).+)$")


def call_args(text, fn):
    """The argument lists (top-level commas) of every call of fn."""
    out = []
    for m in re.finditer(r"\b%s\(" % fn, text):
        depth, args, cur = 1, [], ""
        for ch in text[m.end():]:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    break
            if ch == "," and depth == 1:
                args.append(cur.strip())
                cur = ""
            else:
                cur += ch
        out.append(args + [cur.strip()])
    return out


def nodiff_args(src):
    """The arguments of callees' BD_NODIFF parameters (main part)."""
    m = OTHER.search(src)
    nd = {}
    if m:
        for d in re.finditer(r"^BATCHDIFF \w+ (cb\d+)\(([^)]*)\) \{$",
                             m.group(1), re.M):
            nd[d.group(1)] = [k for k, p in enumerate(split_params(
                d.group(2))) if "BD_NODIFF" in p]
    return nd


def check_thirteenth_fails():
    """Check 10 fails on a declaration that differs from the definition,
    a caller asking for NAME_hvp, and a choice between arrays of two
    lengths."""
    fake = ("#ifdef FZ_OTHER_FILE\n"
            "BATCHDIFF double cb0(double p0, BD_UNIFORM double p1) {\n"
            "  return p0 * p1;\n}\n"
            "BATCHDIFF double cb1(double p0, BD_NODIFF double p1) {\n"
            "  return p0 * p1;\n}\n#else\n"
            "__attribute__((batch, diff)) double cb0(double p0, double p1);\n"
            "__attribute__((batch, diff)) double cb1(double p0, BD_NODIFF "
            "double p1);\n"
            "BATCHDIFF BD_JVP BD_HVP double f0(double p0, const double "
            "xc1[3], const double xc2[4]) {\n"
            "  const double *c3 = (p0 > 0.5) ? xc1 : xc2;\n"
            "  return cb0(p0, 1.0) + c3[0] + cb1(1.0, p0);\n}\n"
            "/* twins: */\n#endif\n")
    counts = dict((k, 0) for k in NAMES)
    got = check_thirteenth(0, fake, counts)
    want = ["cb0 declared otherwise", "asks for NAME_hvp",
            "arrays of different types or lengths",
            "cb1's BD_NODIFF argument p0"]
    return ["check 10 missed: %s" % w for w in want
            if not any(w in b for b in got)]
