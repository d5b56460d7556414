#!/usr/bin/env python3
"""The generator's self-checks can fail, and generated files pass them
(tests/fuzz/README.md; CTest fuzz.gen_selfcheck, no compiler needed).

  selfcheck.py [--seeds 1-300]

1. written_names (genfile's check that a BD_NODIFF parameter whose bits
   wfeatures.nodiff_bits rebuilds into a float is never written) finds
   every form of write the generator emits and no read.
2. Seed 92 of `--features all` with nodiff_bits' guard taken out (the
   generator of the seventh round) fails that check: `p1 = helper0(p3,
   ..)` writes f2's BD_NODIFF p1 before its bits are rebuilt, the plugin's
   diff-union error.  With the guard it passes.
3. Seed 167's f2 reads its ragged `const S1 *xr2` in the loop over it
   (the plugin infers the extent from that read), and seed 197's f1 its
   `const S3 *xr9` (a loop before the final return).
   Checks 2 and 3 generate with the seventh round's `all` (the eighth,
   tfeatures.py, draws numbers and makes other files of those seeds).
4. The seeds given generate with `--features all` and pass every
   assertion of the generator.
5. In those files the eighth round's constructs (tfeatures.py) are made
   and keep the plugin's rules: a flat matrix parameter is read only as
   `A[i * c + j]` (any order) or through a row pointer `A + i * c`; every
   `goto underN;` has its label; an annotated function calls itself only
   in its first statement. A made-up function breaking each fails it.
6. The ninth round's `gotodone` (sfeatures.py) is made in all its forms
   (gotos to the label from a loop before the block, from just before
   it, from after it; the label one `if` deeper; `done:` before and after
   the final return) and keeps the plugin's rule for a goto into a block
   lowered as a copy: the statements from `underN:` to the end of its
   block hold no other label, no break or continue, end in `goto doneM;`
   and read only the parameters and the scalars declared before at the
   top level; `doneM:` is there once, after every goto to it and to the
   blocks' labels (no backward jump). A made-up function breaking each
   fails it.
7. The tenth round's constructs (rfeatures.py) are made in all their
   forms and keep the plugin's rules: every `goto fallN;` comes before the
   `if` that holds `fallN:` (from the list that holds it), and the
   statements the entering lanes skip on the way declare nothing at their
   level and hold no goto or label; a line (a full expression) uses each
   scratch macro at most once, and a function using one is called by no
   other; a static scratch array has every element written right after
   its declaration (constant indices, a filling loop, a recurrence) and
   its block holds no label; an offset view `a = x - 1` (`&x[-1]`) is
   read as a[i] with i from 1 to n; a local function pointer is never
   assigned. A made-up function breaking each fails it.
8. The eleventh round's constructs (qfeatures.py: choices of functions per
   example, globals written on some paths) are made in all their forms
   and keep the plugin's rules (selfcheck11.py). A made-up function
   breaking each fails it.
9. The twelfth round's (pfeatures.py: pointers passed on to outside
   functions) likewise (selfcheck12.py).
"""
import argparse
import collections
import re
import sys

import genfile
import wfeatures
from features import FEATURES
from gen import features, parse_seeds
from qfeatures import NEW11
from rfeatures import NEW10
from pfeatures import NEW12
from ofeatures import NEW13
from selfcheck13 import NAMES as NAMES13, check_thirteenth, \
    check_thirteenth_fails, main_part
from selfcheck11 import NAMES as NAMES11, check_eleventh, \
    check_eleventh_fails
from selfcheck12 import NAMES as NAMES12, check_twelfth, \
    check_twelfth_fails
from sfeatures import NEW9
from tfeatures import NEW8

SEVENTH = tuple(f for f in FEATURES if f not in NEW8 + NEW9 + NEW10 +
                NEW11 + NEW12 + NEW13)


def check_written_names():
    writes = ["p1 = x;", "  p1 += 0.5f;", "p1 -= y;", "p1 *= 2;",
              "p1 /= 3;", "(p1 = p1 * 0.5f)", "p1++;", "--p1;", "p1 --;",
              "split_f(x, &p1, &lo);", "split_d(x, & p1, &lo);",
              "fill(&(p1), 1, x);", "if (c) p1=y;"]
    reads = ["x = p1;", "p1 == x", "(p1 <= x)", "p1 >= x", "p1 != x",
             "xp1 = 1;", "p10 = 2;", "s.p1 = 3;", "q->p1 = 4;",
             "a && p1", "c && &p10 != 0", "fbits u = {p1};",
             "double c3 = p1;", "x = -p1 - 1;"]
    bad = []
    for ln in writes:
        if wfeatures.written_names([ln], ["p1"]) != ["p1"]:
            bad.append("write not found: %r" % ln)
    for ln in reads:
        if wfeatures.written_names([ln], ["p1"]):
            bad.append("read taken for a write: %r" % ln)
    return bad


def check_seed92():
    bad = []
    guard = (wfeatures.WExt.nodiff_written, wfeatures.WExt.nodiff_freeze)
    wfeatures.WExt.nodiff_written = staticmethod(lambda g, nm: False)
    wfeatures.WExt.nodiff_freeze = staticmethod(lambda g, nm: None)
    try:
        genfile.gen_file(92, 4, 0.0, SEVENTH)
        bad.append("seed 92 without the guard passed the self-check")
    except AssertionError as e:
        if "BD_NODIFF p1 written" not in str(e):
            bad.append("seed 92 without the guard: %s" % e)
    finally:
        wfeatures.WExt.nodiff_written = staticmethod(guard[0])
        wfeatures.WExt.nodiff_freeze = staticmethod(guard[1])
    try:
        genfile.gen_file(92, 4, 0.0, SEVENTH)
    except AssertionError as e:
        bad.append("seed 92: %s" % e)
    return bad


def check_seed167():
    """Seed 167's f2 takes `const S1 *xr2` (precs, ragged records by
    pointer): the plugin infers its extent from a read in a loop, so the
    loop over it must read it (the seventh round's generator did not)."""
    src = genfile.gen_file(167, 4, 0.0, SEVENTH)
    f2 = src[src.index("float f2(float p0, S0 xs1, int ln2, const S1 *xr2"):]
    f2 = f2[:f2.index("\n}\n")]
    return [] if "xr2[" in f2 else ["seed 167: f2 never reads xr2"]


FLATREAD = re.compile(
    r"(?P<a>xf\d+)\[(?P<i>i\d+) \* (?P<c>\w+) \+ (?P<j>j\d+)\]|"
    r"(?P<a2>xf\d+)\[(?P<j2>j\d+) \+ (?P<i2>i\d+) \* \w+\]|"
    r"(?P<a3>xf\d+)\[\w+ \* (?P<i3>i\d+) \+ (?P<j3>j\d+)\]|"
    r"(?P<a4>xf\d+)\[(?P<j4>j\d+) \+ \w+ \* (?P<i4>i\d+)\]|"
    r"= (?:&(?P<a5>xf\d+)\[(?:i\d+ \* \w+|\w+ \* i\d+)\]|"
    r"(?P<a6>xf\d+) \+ (?:i\d+ \* \w+|\w+ \* i\d+));")


def check_eighth(s, src, counts):
    """Check 5 on one file (the annotated functions only)."""
    bad = []
    ann = src[:src.index("/* twins:")]
    for fn in re.findall(r"^BATCHDIFF .*?^}$", ann, re.S | re.M):
        name = re.search(r" (f\d+)\(", fn).group(1)
        head, body = fn.split("\n", 1)
        flats = re.findall(r"const \w+ \*(xf\d+)", head)
        counts["flat"] += len(flats)
        for a in flats:
            uses = len(re.findall(r"\b%s\b" % a, body))
            reads = sum(1 for m in FLATREAD.finditer(body)
                        if a in m.groups())
            if not reads or uses != reads:
                bad.append("seed %d %s: %s read %d times, %d of them "
                           "row-major" % (s, name, a, uses, reads))
        for lab in set(re.findall(r"goto (under\d+);", body)):
            counts["gotoin"] += 1
            if body.count("%s:" % lab) != 1:
                bad.append("seed %d %s: no label %s" % (s, name, lab))
        selfc = len(re.findall(r"\b%s\(" % name, body))
        counts["self"] += selfc
        # if (pK > 0) {, then the call (after block-scope prototypes)
        lines = [ln for ln in body.split("\n")
                 if not re.match(r"  [\w ]+ \w+\([^=]*\);$", ln)]
        first = lines[1]
        if selfc and not (selfc == 1 and re.search(r"\b%s\(" % name,
                                                     first)):
            bad.append("seed %d %s: calls itself elsewhere than first" % (
                s, name))
        counts["rec"] += len(re.findall(r"\b(?:rdig|rpow_[df]|reven_[df]|"
                                        r"rodd_[df])\(", body))
    return bad


def check_seed197():
    """Seed 197's f1 takes `BD_POINTERS const S3 *xr9` and walks its
    `const float *xa7` first; the walk's body spent every statement, so
    the seventh round's generator never read xr9 ("cannot infer the extent
    of 'xr9'"). Such loops now come before the final return
    (features.Ext.finish)."""
    src = genfile.gen_file(197, 4, 0.0, SEVENTH)
    f1 = src[src.index("BATCHDIFF BD_JVP BD_HVP float f1("):]
    f1 = f1[:f1.index("\n}\n")]
    return [] if "xr9[" in f1 else ["seed 197: f1 never reads xr9"]


def check_eighth_fails():
    """Check 5 fails on a flat matrix read at a plain index, a goto without
    its label and a self-call that is not first."""
    fake = ("BATCHDIFF double f0(int lr1, int lc2, const double *xf3) {\n"
            "  double s = 0;\n"
            "  for (int i4 = 0; i4 < lr1; i4++)\n"
            "    for (int j5 = 0; j5 < lc2; j5++)\n"
            "      s += xf3[i4 * lc2 + j5] + xf3[j5];\n"
            "  if (s > 1) goto under6;\n"
            "  if (lr1 > 0) s += f0(lr1 - 1, lc2, xf3);\n"
            "  return s;\n}\n/* twins: */")
    counts = {"flat": 0, "gotoin": 0, "self": 0, "rec": 0}
    got = check_eighth(0, fake, counts)
    want = ["xf3 read 3 times, 1 of them", "no label under6",
            "calls itself elsewhere"]
    return ["check 5 missed: %s" % w for w in want
            if not any(w in b for b in got)]


# a declaration at the top level (indented once): type, name
DECL = re.compile(r"^  (?!return |goto |if |else )(?:const |static )*"
                  r"\w+(?: \w+)? \**(\w+)(?:\[[^=]*\])?(?: =.*|;)$")
NAME = re.compile(r"(?<![.\w>])([a-z]+\d+)\b(?!\s*\()")


def check_ninth(s, src, counts):
    """Check 6 on one file (the annotated functions only)."""
    bad = []
    ann = src[:src.index("/* twins:")]
    for fn in re.findall(r"^BATCHDIFF .*?^}$", ann, re.S | re.M):
        name = re.search(r" (f\d+)\(", fn).group(1)
        head, body = fn.split("\n", 1)
        lines = body.split("\n")
        params = set(re.findall(r"(\w+)(?:\[[^]]*\])*(?:,|\)\s*\{)",
                                head))
        for done in sorted(set(re.findall(r"goto (done\d+);", body))):
            counts["gotodone"] += 1
            at = [k for k, ln in enumerate(lines) if ln == "%s:" % done]
            if len(at) != 1:
                bad.append("seed %d %s: %d labels %s" % (s, name, len(at),
                                                         done))
                continue
            last = max(k for k, ln in enumerate(lines)
                       if re.search(r"goto (under\d+|%s);" % done, ln))
            if last > at[0]:
                bad.append("seed %d %s: a goto after %s:" % (s, name, done))
            counts["after_ret" if lines[at[0] - 1].startswith("  return")
                   else "before_ret"] += 1
        for k, ln in enumerate(lines):
            m = re.match(r"^( *)(under\d+):$", ln)
            if not m:
                continue
            ind, lab = len(m.group(1)), m.group(2)
            tail = []
            for t in lines[k + 1:]:
                if len(t) - len(t.lstrip()) <= ind:
                    break
                tail.append(t)
            if not any("goto done" in t for t in tail):
                continue  # the eighth round's form (return)
            counts["tails"] += 1
            if ind > 2:
                counts["deep"] += 1
            why = []
            if not re.match(r"^ *goto done\d+;$", tail[-1]):
                why.append("does not end in goto done")
            if any(re.match(r"^ *\w+:$", t) or
                   re.search(r"\b(break|continue);", t) for t in tail):
                why.append("holds a label, break or continue")
            top = set(params)
            for t in lines[:k]:
                d = DECL.match(t)
                if d:
                    top.add(d.group(1))
            for t in tail:
                for nm in NAME.findall(re.sub(r"goto \w+;", "", t)):
                    if nm not in top:
                        why.append("reads %s" % nm)
            if why:
                bad.append("seed %d %s: %s: %s" % (s, name, lab,
                                                   ", ".join(why)))
            gotos = [j for j, t in enumerate(lines)
                     if "goto %s;" % lab in t]
            opened = [j for j in range(k) if lines[j].startswith("  if (")
                      and lines[j].endswith("{")]
            start = max(opened) if opened else k
            for j in gotos:
                if j > k:
                    counts["from_after"] += 1
                elif j < start and len(lines[j]) - len(
                        lines[j].lstrip()) > 4:
                    counts["from_loop"] += 1
                elif j < start:
                    counts["from_before"] += 1
    return bad


def check_ninth_fails():
    """Check 6 fails on a block's statements reading one of its locals,
    holding a label, not ending in a goto, and on a label before a goto
    to it."""
    fake = ("BATCHDIFF double f0(double p0, int p1) {\n"
            "  double v2 = p0;\n"
            "  if (p0 > 1) {\n"
            "    double v3 = p0;\n"
            "  under4:\n"
            "    p0 = v3 + v2;\n"
            "    goto done5;\n"
            "  }\n"
            "  if (p0 < 1) {\n"
            "  under6:\n"
            "    p0 = 1.0;\n"
            "    goto done5;\n"
            "    p0 = 2.0;\n"
            "  }\n"
            "  if (p0 < 2) {\n"
            "  under7:\n"
            "    {\n"
            "    in8:\n"
            "      goto done5;\n"
            "    }\n"
            "    goto done5;\n"
            "  }\n"
            "done5:\n"
            "  if (p1 > 0) goto under4;\n"
            "  return p0;\n}\n/* twins: */")
    counts = collections.Counter()
    got = check_ninth(0, fake, counts)
    want = ["under4: reads v3", "under6: does not end",
            "under7: holds a label", "a goto after done5"]
    return ["check 6 missed: %s" % w for w in want
            if not any(w in b for b in got)]


def indent(ln):
    return len(ln) - len(ln.lstrip())


LABEL = re.compile(r"^ *\w+:;?$")
SCRATCH = ("RSQ_D(", "RSQ_F(", "RMAX_D(", "RMAX_F(", "RIMIN(")


def check_fall(lines, k, why, counts):
    """The label fallN: at line k: the blocks on the way to it (up to
    the top-level if) skip statements without declarations at their
    level, gotos or labels; every goto to it comes before that if."""
    lab = lines[k].strip()[:-1]
    counts["fall"] += 1
    j, lev = k - 1, indent(lines[k])
    while True:
        while j >= 0 and indent(lines[j]) > lev:
            t = lines[j]
            if "goto " in t or LABEL.match(t):
                why.append("%s: skips a goto or label" % lab)
            if indent(t) == lev + 2 and DECL.match(t[lev:]):
                why.append("%s: skips a declaration" % lab)
            j -= 1
        if j < 0:
            why.append("%s: no block" % lab)
            return
        op = lines[j].strip()
        counts["fall_else" if op.startswith("} else {") else
               "fall_elif" if op.startswith("} else if") else
               "fall_then"] += 1
        if lev == 2:
            break
        counts["fall_deep"] += 1
        lev -= 2
    top = j
    while lines[top].startswith("  }"):
        top -= 1
        while indent(lines[top]) > 2:
            top -= 1
    gotos = [i for i, t in enumerate(lines) if "goto %s;" % lab in t]
    if not gotos or max(gotos) > top:
        why.append("%s: a goto not before its if" % lab)
    if any(indent(lines[i]) > 4 for i in gotos):
        counts["fall_from_loop"] += 1
    first = min(gotos) if gotos else top
    while first > 0 and indent(lines[first]) > 2:
        first -= 1
    for t in lines[first + 1:top]:
        if indent(t) == 2 and DECL.match(t):
            why.append("%s: a declaration between the gotos" % lab)


def check_tenth(s, src, counts):
    """Check 7 on one file (the annotated functions, and the helpers for
    the scratch macros)."""
    bad = []
    ann = src[:src.index("/* twins:")]
    helpers = re.findall(r"^static inline \w+ helper\d+\(.*?^}$", ann,
                         re.S | re.M)
    if any(m in h for h in helpers for m in SCRATCH):
        bad.append("seed %d: a helper uses a scratch macro" % s)
    fns = re.findall(r"^BATCHDIFF .*?^}$", ann, re.S | re.M)
    scr = set()
    for fn in fns:
        name = re.search(r" (f\d+)\(", fn).group(1)
        head, body = fn.split("\n", 1)
        lines = body.split("\n")
        why = []
        for k, ln in enumerate(lines):
            if re.match(r"^ *fall\d+:$", ln):
                check_fall(lines, k, why, counts)
            for m in SCRATCH:
                counts["scratch"] += ln.count(m)
                if ln.count(m) > 1:
                    why.append("%s twice in a line" % m[:-1])
                if m in ln:
                    scr.add(name)
            counts["scratch_fixed"] += len(re.findall(
                r"\b(?:rsqv_[df]|rmaxv_[df]|riminv)\(", ln))
            counts["fptr_helper"] += len(re.findall(
                r"\b(?:rsimp|rtwice|rapply)_[df]\(", ln))
            m = re.match(r"^( *)static \w+ (su\d+)\[(\d+)\];$", ln)
            if m:
                check_static(lines, k, m, why, counts)
            m = re.match(r"^ *const \w+ \*(a\d+) = (?:(\w+) - 1|&(\w+)"
                         r"\[-1\]);$", ln)
            if m:
                check_view(lines, k, m, why, counts)
            counts["view_helper"] += len(re.findall(r"rnsum_[df]\(\w+ - 1,",
                                                    ln))
            m = re.match(r"^ *\w+ \(\*(fp\d+)\)\(\w+\) = &?rcb\d_[df];$", ln)
            if m:
                counts["fptr_local"] += 1
                if re.search(r"\b%s\s*=[^=]" % m.group(1), body.replace(
                        ln, "")):
                    why.append("%s assigned" % m.group(1))
        bad += ["seed %d %s: %s" % (s, name, w) for w in why]
    for fn in fns:
        name = re.search(r" (f\d+)\(", fn).group(1)
        for c in scr - {name}:
            if re.search(r"\b%s\(" % c, fn):
                bad.append("seed %d %s: calls %s, which uses a scratch "
                           "global" % (s, name, c))
    return bad


def check_static(lines, k, m, why, counts):
    """static T suN[M]; then every element written first, no label in
    its block."""
    ind, u, n = len(m.group(1)), m.group(2), int(m.group(3))
    counts["static"] += 1
    nxt = [t.strip() for t in lines[k + 1:k + 1 + n]]
    if all(nxt[i].startswith("%s[%d] = " % (u, i)) for i in range(
            min(n, len(nxt)))) and len(nxt) == n and \
            not any(u in t.split("=", 1)[1] for t in nxt):
        counts["static_const"] += 1
    elif re.match(r"for \(int (i\d+) = 0; \1 (?:< %d|<= %d); (?:\+\+\1|\1"
                  r"\+\+)\) %s\[\1\] = " % (n, n - 1, u), nxt[0]) and \
            u + "[" not in nxt[0].split("] = ", 1)[1]:
        counts["static_loop"] += 1
    elif n >= 3 and nxt[0].startswith(u + "[0] = ") and \
            nxt[1].startswith(u + "[1] = ") and \
            re.match(r"for \(int (k\d+) = 2; \1 < %d; \1\+\+\)$" % n,
                     nxt[2]) and u + "[" not in nxt[0].split("=", 1)[1] + \
            nxt[1].split("=", 1)[1]:
        counts["static_rec"] += 1
    else:
        why.append("%s: not every element written first" % u)
    for t in lines[k + 1:]:
        if indent(t) < ind:
            break
        if LABEL.match(t) or re.match(r"^ *(case .*|default):$", t):
            why.append("%s: a label in its block" % u)


def check_view(lines, k, m, why, counts):
    """const T *a = x - 1; then a[i] under i from 1 to n only."""
    a = m.group(1)
    counts["view"] += 1
    loop = lines[k + 2].strip() if k + 2 < len(lines) else ""
    lm = re.match(r"for \(int (i\d+) = (?:1; \1 <= \w+; \1\+\+|\w+; "
                  r"\1 >= 1; \1--)\) \{$", loop)
    if not lm:
        why.append("%s: no loop from 1 to n" % a)
        return
    counts["view_up" if "<=" in loop else "view_down"] += 1
    uses = [t for t in lines[k + 1:] if re.search(r"\b%s\b" % a, t)]
    if any(re.sub(r"\b%s\[%s\]" % (a, lm.group(1)), "", t).count(a) for
           t in uses):
        why.append("%s: read other than as %s[%s]" % (a, a, lm.group(1)))


def check_tenth_fails():
    """Check 7 fails on a skipped declaration, a goto after the label's
    if, a scratch macro twice in a line, an element read before it is
    written, a view read at 0, an assigned function pointer and a
    function using a scratch global called by another."""
    fake = ("BATCHDIFF double f0(double p0, int p1) {\n"
            "  if (p0 > 1)\n"
            "    goto fall2;\n"
            "  if (p0 > 0) {\n"
            "    double v3 = p0;\n"
            "  fall2:\n"
            "    p0 = p0 * 0.5 + RSQ_D(p0) * RSQ_D(p0);\n"
            "  }\n"
            "  if (p1 > 2)\n"
            "    goto fall2;\n"
            "  {\n"
            "    static double su4[2];\n"
            "    su4[0] = su4[1];\n"
            "    su4[1] = p0;\n"
            "  }\n"
            "  const double *a5 = xv1 - 1;\n"
            "  {\n"
            "    for (int i6 = 1; i6 <= ln0; i6++) {\n"
            "      p0 += a5[i6] + a5[0];\n"
            "    }\n"
            "  }\n"
            "  double (*fp7)(double) = rcb0_d;\n"
            "  fp7 = rcb1_d;\n"
            "  return p0;\n}\n"
            "BATCHDIFF double f1(double p0) {\n"
            "  return f0(p0, 1);\n}\n/* twins: */")
    counts = collections.Counter()
    got = check_tenth(0, fake, counts)
    want = ["fall2: skips a declaration", "fall2: a goto not before",
            "RSQ_D twice", "su4: not every element", "a5: read other than",
            "fp7 assigned", "f1: calls f0"]
    return ["check 7 missed: %s" % w for w in want
            if not any(w in b for b in got)]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", default="1-300")
    args = ap.parse_args()
    bad = check_written_names() + check_seed92() + check_seed167() + \
        check_seed197() + check_eighth_fails() + check_ninth_fails() + \
        check_tenth_fails() + check_eleventh_fails() + \
        check_twelfth_fails() + check_thirteenth_fails()
    seeds = parse_seeds(args.seeds)
    counts = {"flat": 0, "gotoin": 0, "self": 0, "rec": 0}
    counts9 = collections.Counter({k: 0 for k in (
        "gotodone", "tails", "deep", "from_loop", "from_before",
        "from_after", "before_ret", "after_ret")})
    counts10 = collections.Counter({k: 0 for k in (
        "fall", "fall_then", "fall_else", "fall_elif", "fall_deep",
        "fall_from_loop", "fptr_local", "fptr_helper", "scratch",
        "scratch_fixed", "static", "static_const", "static_loop",
        "static_rec", "view", "view_up", "view_down", "view_helper")})
    counts11 = collections.Counter({k: 0 for k in NAMES11})
    counts12 = collections.Counter({k: 0 for k in NAMES12})
    counts13 = collections.Counter({k: 0 for k in NAMES13})
    for s in seeds:
        try:
            full = genfile.gen_file(s, 4, 0.0, features("all"))
        except AssertionError as e:
            bad.append("seed %d: %s" % (s, e))
            continue
        bad += check_thirteenth(s, full, counts13)
        src = main_part(full)  # (the earlier rounds' checks: no callees)
        bad += check_eighth(s, src, counts)
        bad += check_ninth(s, src, counts9)
        bad += check_tenth(s, src, counts10)
        bad += check_eleventh(s, src, counts11)
        bad += check_twelfth(s, src, counts12)
    if len(seeds) >= 100:
        bad += ["no %s among the seeds" % k for k, v in
                list(counts.items()) + list(counts9.items()) +
                list(counts10.items()) + list(counts11.items()) +
                list(counts12.items()) + list(counts13.items()) if not v]
    print("eighth round: %s" % ", ".join("%s %d" % kv for kv in
                                          sorted(counts.items())))
    print("ninth round: %s" % ", ".join("%s %d" % kv for kv in
                                         sorted(counts9.items())))
    print("tenth round: %s" % ", ".join("%s %d" % kv for kv in
                                         sorted(counts10.items())))
    print("eleventh round: %s" % ", ".join("%s %d" % kv for kv in
                                            sorted(counts11.items())))
    print("twelfth round: %s" % ", ".join("%s %d" % kv for kv in
                                           sorted(counts12.items())))
    print("thirteenth round: %s" % ", ".join("%s %d" % kv for kv in
                                              sorted(counts13.items())))
    for b in bad:
        print("FAIL " + b)
    print("self-check: %d seeds generated, %d failures" % (len(seeds),
                                                          len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
