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
"""
import argparse
import collections
import re
import sys

import genfile
import wfeatures
from features import FEATURES
from gen import features, parse_seeds
from sfeatures import NEW9
from tfeatures import NEW8

SEVENTH = tuple(f for f in FEATURES if f not in NEW8 + NEW9)


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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", default="1-300")
    args = ap.parse_args()
    bad = check_written_names() + check_seed92() + check_seed167() + \
        check_seed197() + check_eighth_fails() + check_ninth_fails()
    seeds = parse_seeds(args.seeds)
    counts = {"flat": 0, "gotoin": 0, "self": 0, "rec": 0}
    counts9 = collections.Counter({k: 0 for k in (
        "gotodone", "tails", "deep", "from_loop", "from_before",
        "from_after", "before_ret", "after_ret")})
    for s in seeds:
        try:
            src = genfile.gen_file(s, 4, 0.0, features("all"))
        except AssertionError as e:
            bad.append("seed %d: %s" % (s, e))
            continue
        bad += check_eighth(s, src, counts)
        bad += check_ninth(s, src, counts9)
    if len(seeds) >= 100:
        bad += ["no %s among the seeds" % k for k, v in
                list(counts.items()) + list(counts9.items()) if not v]
    print("eighth round: %s" % ", ".join("%s %d" % kv for kv in
                                          sorted(counts.items())))
    print("ninth round: %s" % ", ".join("%s %d" % kv for kv in
                                         sorted(counts9.items())))
    for b in bad:
        print("FAIL " + b)
    print("self-check: %d seeds generated, %d failures" % (len(seeds),
                                                          len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
