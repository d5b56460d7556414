"""Check 8 of selfcheck.py: the eleventh round's constructs (qfeatures.py)
are made in all their forms and keep the plugin's rules.

'fchoice': choices of functions per example, a `?:` of functions called
directly and given to the helpers taking function pointers, the file's
const tables of functions (rops_T, ropx_T) at per-example, uniform and
constant indices, local const tables (static or not), local pointers
assigned on per-example branches (with and without an initializer, `fc
= c ? a : b`, `fc = fcM`), <math.h> functions among the candidates.
Rules: a table of functions holds functions' names only (a pointer
variable there is the plugin's error call-function-table-init); a
pointer declared without an initializer is assigned on both sides of
the if/else right after it (never called unassigned).

'gpaths': globals `WSk` written on some paths only, as a status flag with
an early return, under an if, unconditionally in a nested block, through
`WSk_put()`, and read right after a write. Rules: the function reads its
global only on the line right after a write of it (a read some path
reaches before a write is the plugin's error); it writes no other global
of the round; no other function calls it.

A made-up function breaking each rule fails it (check_eleventh_fails)."""
import re

FUNCS = r"&?(?:rcb\d_[df]|(?:sin|cos|tanh|fabs)f?|fc\d+|fp\d+)"
# a '?:' whose arms are both known functions (or such choices)
CHOICE = re.compile(r"\? (%s|\(.*?\)) : (%s|\(.*?\))\)" % (FUNCS, FUNCS))
NAMES = ("choice_call", "choice_helper", "choice_nested", "math_cand",
         "table_file", "table_pe", "table_uniform", "table_const",
         "table_local", "table_local_static", "fc_init_branch",
         "fc_noinit", "fc_choice", "fc_reassign", "fc_copy", "gpaths",
         "gp_int", "gp_return", "gp_if", "gp_nested", "gp_put", "gp_read")


def check_choices(name, head, lines, why, counts):
    uni = re.findall(r"BD_UNIFORM int (p\d+)", head)
    fcs = set()
    for k, ln in enumerate(lines):
        counts["choice_call"] += len(re.findall(
            r"\? %s : %s\)\(" % (FUNCS, FUNCS), ln))
        counts["choice_helper"] += len(re.findall(
            r"\b(?:rtwice|rtwist|rapply|rsimp)_[df]\((?:\(|rop[sx]_|ops\d|"
            r"fc\d)", ln))
        # an inner choice as the first arm of another, or the second
        counts["choice_nested"] += len(re.findall(
            r"\? %s : %s\)(?:\)| :)" % (FUNCS, FUNCS), ln))
        counts["math_cand"] += len(re.findall(
            r"[?:{,] (?:sin|cos|tanh|fabs)f?\b(?!\()", ln))
        for m in re.finditer(r"\brop[sx]_[df]\[([^\]]*\]?)", ln):
            counts["table_file"] += 1
            idx = m.group(1)
            if re.match(r"\d+\]", idx) or re.match(r"\(\(\d+\) %", idx):
                counts["table_const"] += 1
            elif any(idx.startswith("((%s) %%" % u) for u in uni):
                counts["table_uniform"] += 1
            else:
                counts["table_pe"] += 1
        m = re.match(r"^ *(static )?(?:const rfn_[df] |\w+ \(\*const )"
                     r"(ops\d+)\[\d*\]\)?(?:\(\w+\))? = \{(.*)\};$", ln)
        if m:
            counts["table_local"] += 1
            counts["table_local_static"] += bool(m.group(1))
            for e in m.group(3).split(", "):
                if not re.match(r"^&?(?:rcb\d_[df]|(?:sin|cos|tanh|fabs)f?)$",
                                e):
                    why.append("%s: %s in a table of functions" % (
                        m.group(2), e))
        m = re.match(r"^( *)(?:rfn_[df] (fc\d+)|\w+ \(\*(fc\d+)\)\(\w+\))"
                     r"( = .*)?;$", ln)
        if m:
            fc = m.group(2) or m.group(3)
            fcs.add(fc)
            nxt = [t.strip() for t in lines[k + 1:k + 5]]
            if not m.group(4):
                counts["fc_noinit"] += 1
                if not (len(nxt) == 4 and nxt[0].startswith("if (") and
                        nxt[1].startswith(fc + " = ") and
                        nxt[2] == "else" and nxt[3].startswith(fc + " = ")):
                    why.append("%s: not assigned on both sides first" % fc)
            elif nxt and nxt[0].startswith("if (") and len(nxt) > 1 and \
                    nxt[1].startswith(fc + " = "):
                counts["fc_init_branch"] += 1
            elif "?" in m.group(4) or "[" in m.group(4):
                counts["fc_choice"] += 1
    for k, ln in enumerate(lines):
        m = re.match(r"^ *(fc\d+) = (.*);$", ln)
        if m and not (k > 0 and lines[k - 1].strip().startswith(
                ("if (", "else"))):
            counts["fc_reassign"] += 1
            counts["fc_copy"] += bool(re.match(r"^fc\d+$", m.group(2)))


def check_gpaths(name, lines, why, counts):
    ws = set(re.findall(r"\b(WS\d+)\b", "\n".join(lines)))
    if not ws:
        return None
    if len(ws) > 1:
        why.append("writes %s" % ", ".join(sorted(ws)))
    g = sorted(ws)[0]
    counts["gpaths"] += 1
    for k, ln in enumerate(lines):
        if g not in ln:
            continue
        s = ln.strip()
        if s.startswith(g + "_put("):
            counts["gp_put"] += 1
        elif s.startswith(g + " = "):
            if re.search(r"\b%s\b" % g, s[len(g) + 3:]):
                why.append("%s read in its own write" % g)
            prev = lines[k - 1].strip() if k else ""
            nxt = lines[k + 1].strip() if k + 1 < len(lines) else ""
            if nxt.startswith("return "):
                counts["gp_return"] += 1
            elif prev.startswith("if ("):
                counts["gp_if"] += 1
            else:
                counts["gp_nested"] += 1
        else:
            # a read: only right after a write of it, at the same level
            prev = lines[k - 1] if k else ""
            if prev.strip().startswith(g + " = ") and \
                    len(prev) - len(prev.lstrip()) == \
                    len(ln) - len(ln.lstrip()):
                counts["gp_read"] += 1
            else:
                why.append("%s read where no write comes just before" % g)
    return g


def check_eleventh(s, src, counts):
    """Check 8 on one file (its annotated functions)."""
    bad = []
    ann = src[:src.index("/* twins:")]
    fns = re.findall(r"^BATCHDIFF .*?^}$", ann, re.S | re.M)
    writers = {}
    for m in re.finditer(r"^int (WS\d+);$", ann, re.M):
        counts["gp_int"] += 1
    for fn in fns:
        name = re.search(r" (f\d+)\(", fn).group(1)
        head, body = fn.split("\n", 1)
        lines = body.split("\n")
        why = []
        check_choices(name, head, lines, why, counts)
        g = check_gpaths(name, lines, why, counts)
        if g:
            writers[name] = g
        bad += ["seed %d %s: %s" % (s, name, w) for w in why]
    for fn in fns:
        name = re.search(r" (f\d+)\(", fn).group(1)
        for c in set(writers) - {name}:
            if re.search(r"\b%s\(" % c, fn):
                bad.append("seed %d %s: calls %s, which writes %s" % (
                    s, name, c, writers[c]))
    return bad


def check_eleventh_fails():
    """Check 8 fails on a pointer variable in a table of functions, a
    pointer without an initializer assigned on one side only, a read of
    the global no write precedes, and a call of a function writing it."""
    fake = ("BATCHDIFF double f0(double p0, int p1) {\n"
            "  double (*fc2)(double) = rcb0_d;\n"
            "  static double (*const ops3[])(double) = {rcb1_d, fc2};\n"
            "  rfn_d fc4;\n"
            "  if (p0 > 1)\n"
            "    fc4 = rcb3_d;\n"
            "  if (p1 > 2)\n"
            "    WS0 = p0;\n"
            "  p0 = p0 * 0.5 + WS0;\n"
            "  return p0 + fc4(p0);\n}\n"
            "BATCHDIFF double f1(double p0) {\n"
            "  return f0(p0, 1);\n}\n/* twins: */")
    counts = {k: 0 for k in NAMES}
    got = check_eleventh(0, fake, counts)
    want = ["fc2 in a table", "fc4: not assigned on both sides",
            "WS0 read where no write", "f1: calls f0"]
    return ["check 8 missed: %s" % w for w in want
            if not any(w in b for b in got)]
