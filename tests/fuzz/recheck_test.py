#!/usr/bin/env python3
"""recheck.py's decisions without a compiler (CTest fuzz.recheck_rules):
which failures each class may excuse, and that a seed is excused only when
every variant it needs passes and the generated C is the same. The seeds
themselves: fuzz.recheck_contract, fuzz.recheck_miscompile and
fuzz.recheck_catches."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recheck  # noqa: E402

D2 = ("FAIL f2 n=17 pat=0 b=3: batched -0x1.9999999999998p-6 != scalar "
      "-0x1.999999999999ap-6 (exact, double)")
SRC = ("BATCHDIFF BD_JVP BD_HVP double f0(double p0) {\n  return p0;\n}\n"
       "double f0_tw(double p0) {\n  return p0;\n}\n"
       "BATCHDIFF BD_JVP BD_HVP float f1(float p0) {\n  return p0;\n}\n")


def out(*lines):
    return "\n".join(lines + ("STATS functions=4 fails=%d" % len(
        [ln for ln in lines if ln.startswith("FAIL ")]),)) + "\n"


def check(cond, what):
    if not cond:
        raise SystemExit("recheck_test: " + what)


def shapes():
    ms = recheck.failures(out(D2, "    args: 0x1p+0", "function f2: 1"))
    check(ms and recheck.contract_shaped(ms) == 2.0, "2 ULPs: contraction")
    check(recheck.scalar_shaped(ms), "check 1: against the scalar function")
    far = D2.replace("-0x1.9999999999998p-6", "-0x1.9999999999988p-6")
    check(recheck.contract_shaped(recheck.failures(out(far))) is None,
          "18 ULPs: not a contraction")
    fl = ("FAIL f1 n=3 pat=1 b=0: batched 0x1.000002p+0 != scalar 0x1p+0 "
          "(exact, float)")
    check(recheck.contract_shaped(recheck.failures(out(fl))) == 1.0,
          "1 float ULP")
    dbl = fl.replace("(exact, float)", "(exact, double)")
    check(recheck.contract_shaped(recheck.failures(out(dbl))) is None,
          "2^29 double ULPs: not a contraction")
    inf = D2.replace("-0x1.9999999999998p-6", "-inf")
    check(recheck.contract_shaped(recheck.failures(out(inf))) is None,
          "inf: not a contraction")
    check(recheck.failures(out(D2).replace("fails=1", "fails=2")) is None,
          "a failure not printed: nothing excused")
    check(recheck.failures("FAIL f0: output xo4 written outside example 3\n"
                           "STATS fails=1\n") is None,
          "an output written outside its extent: nothing excused")
    check(recheck.failures("all 7 gradient checks were skipped\n"
                           "STATS fails=0\n") is None,
          "a failure without FAIL lines: nothing excused")
    for msg in ["grad ret 0x1p+0 != batched 0x1p+1",
                "batched alone 0x1p+0 != in batch 0x1.0000000000001p+0",
                "param 2: gradient 0, central difference 1.2e-06 (noise 5e-14)",
                "jvp ret 0x1p+0 != batched 0x1.0000000000001p+0"]:
        ms = recheck.failures(out("FAIL f0 n=3 pat=0 b=1: " + msg))
        check(recheck.contract_shaped(ms) is None and
              not recheck.scalar_shaped(ms), "excused: " + msg)
    for msg in ["batched 0x1p+0 != scalar 0x1p+1 (rel tol 1e-05, "
                "sensitivity 0)",
                "global after grad 0x1p+0 != after the scalar loop 0x1p+1 "
                "(last written by example 2 of 3)",
                "global after jvp 0x1p+0, but no example wrote it: was 0x0p+0"]:
        ms = recheck.failures(out("FAIL f0 n=3 pat=0 b=1: " + msg))
        check(recheck.scalar_shaped(ms) and
              recheck.contract_shaped(ms) is None, "scalar-shaped: " + msg)
    o = recheck.optnone(SRC)
    check(o.count(recheck.OPTNONE) == 2 and "f0_tw" in o and
          recheck.OPTNONE + "double f0_tw" not in o, "optnone: annotated only")
    o = recheck.optnone(SRC, True)
    check(o.count("{\n#pragma clang fp contract(off)\n") == 2,
          "contract(off) at the start of each annotated body")


def decisions(tmp):
    """classify against made-up variants: (statuses, same generated C)."""
    same = os.path.join(tmp, "same")
    other = os.path.join(tmp, "other")
    for d, text in ((same, "a"), (other, "b")):
        os.makedirs(d)
        with open(os.path.join(d, "f.c.batchdiff.c"), "w") as f:
            f.write(text)

    def run(text, st, differ=()):
        calls = []

        def build(tag, src, flags):
            calls.append(tag)
            if tag == "asis":
                return "FAIL", same, text
            return st[tag], other if tag in differ else same, ""
        return recheck.classify(SRC, build)[0], calls

    ok = {"optnone": "OK", "contract-off": "OK",
          "contract-off-optnone": "OK"}
    check(run(out(D2), ok)[0] == "CONTRACT", "contraction excused")
    check(run(out(D2), dict(ok, optnone="FAIL"))[0] is None,
          "fails optnone too: not excused")
    check(run(out(D2), ok, ("optnone",))[0] is None,
          "generated C changed by optnone: not excused")
    mis = out("FAIL f1 n=100 pat=3 b=87: batched -0x1.99999ap-1 != scalar "
              "0x1.555556p+0 (rel tol 1e-05, sensitivity 0)")
    check(run(mis, ok)[0] is None,
          "passes with -ffp-contract=off but no contraction's form")
    bad = dict(ok, **{"contract-off": "FAIL"})
    check(run(mis, bad)[0] == "CLANG-MISCOMPILE", "miscompile excused")
    check(run(out(D2), bad)[0] == "CLANG-MISCOMPILE",
          "a contraction's form that stays without contraction: miscompile")
    check(run(mis, dict(bad, **{"contract-off-optnone": "FAIL"}))[0] is None,
          "fails optnone without contraction: not excused")
    check(run(mis, bad, ("contract-off-optnone",))[0] is None,
          "generated C changed (-ffp-contract=off): not excused")
    check(run(mis, dict(bad, **{"contract-off": "COMPILE"}))[0] is None,
          "-ffp-contract=off does not compile: not excused")
    cls, calls = run(out("FAIL f0 n=3 pat=0 b=1: grad ret 0x1p+0 != "
                         "batched 0x1p+1"), ok)
    check(cls is None and calls == ["asis"],
          "a gradient failure: no variant built")


def main():
    shapes()
    with tempfile.TemporaryDirectory() as tmp:
        decisions(tmp)
    print("recheck_test: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
