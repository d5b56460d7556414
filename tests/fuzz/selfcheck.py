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
   (the plugin infers the extent from that read).
4. The seeds given generate with `--features all` and pass every
   assertion of the generator.
"""
import argparse
import sys

import genfile
import wfeatures
from gen import features, parse_seeds


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
    allf = features("all")
    guard = (wfeatures.WExt.nodiff_written, wfeatures.WExt.nodiff_freeze)
    wfeatures.WExt.nodiff_written = staticmethod(lambda g, nm: False)
    wfeatures.WExt.nodiff_freeze = staticmethod(lambda g, nm: None)
    try:
        genfile.gen_file(92, 4, 0.0, allf)
        bad.append("seed 92 without the guard passed the self-check")
    except AssertionError as e:
        if "BD_NODIFF p1 written" not in str(e):
            bad.append("seed 92 without the guard: %s" % e)
    finally:
        wfeatures.WExt.nodiff_written = staticmethod(guard[0])
        wfeatures.WExt.nodiff_freeze = staticmethod(guard[1])
    try:
        genfile.gen_file(92, 4, 0.0, allf)
    except AssertionError as e:
        bad.append("seed 92: %s" % e)
    return bad


def check_seed167():
    """Seed 167's f2 takes `const S1 *xr2` (precs, ragged records by
    pointer): the plugin infers its extent from a read in a loop, so the
    loop over it must read it (the seventh round's generator did not)."""
    src = genfile.gen_file(167, 4, 0.0, features("all"))
    f2 = src[src.index("float f2(float p0, S0 xs1, int ln2, const S1 *xr2"):]
    f2 = f2[:f2.index("\n}\n")]
    return [] if "xr2[" in f2 else ["seed 167: f2 never reads xr2"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", default="1-300")
    args = ap.parse_args()
    bad = check_written_names() + check_seed92() + check_seed167()
    seeds = parse_seeds(args.seeds)
    for s in seeds:
        try:
            genfile.gen_file(s, 4, 0.0, features("all"))
        except AssertionError as e:
            bad.append("seed %d: %s" % (s, e))
    for b in bad:
        print("FAIL " + b)
    print("self-check: %d seeds generated, %d failures" % (len(seeds),
                                                          len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
