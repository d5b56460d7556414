"""Re-checks of a failing seed (gen.py run; tests/fuzz/README.md,
"Re-checked failures"): is its failure one of the two kinds that are not
batchdiff bugs?

  CONTRACT          docs/abi.md's open exception "Contraction LLVM's
                    optimiser decides differently" (the tenth round's seed
                    651): every failure is check 1 comparing an exact
                    result, NAME_batched's and the scalar function's both
                    finite and at most ULP_MAX ULPs of the result type
                    apart, and the seed passes with the scalar functions
                    `optnone` (whose contracted operations then fold
                    nothing) and passes with `-ffp-contract=off` for the
                    whole file, while the generated C is unchanged by
                    `optnone`;
  CLANG-MISCOMPILE  clang miscompiling the scalar function (the eleventh
                    round's seed 36): every failure compares a result of
                    the generated functions with the scalar function's
                    (check 1, or check 4's global with the scalar loop's),
                    the seed passes with the annotated (scalar) functions
                    `optnone`, the generated C unchanged, and fails as it
                    is with `-ffp-contract=off` for the whole file but
                    passes with both: the scalar function at -O0 and -O2
                    gives different results without contraction, the
                    generated code's being the same.

Anything else stays a failing seed (a plugin bug until shown otherwise).
"""
import filecmp
import math
import os
import re

ULP_MAX = 8  # the largest difference in ULPs CONTRACT excuses

OPTNONE = "__attribute__((optnone, noinline)) "
FAIL_RE = re.compile(r"^FAIL (\S+) n=(\d+) pat=(\d+) b=(\d+): (.*)$")
EXACT_RE = re.compile(r"^batched (\S+) != scalar (\S+) \(exact, "
                      r"(float|double)\)$")
# the comparisons of a generated function's result with the scalar
# function's (check 1, within tolerance or exact; check 4's global)
SCALAR_RES = [re.compile(r"^batched \S+ != scalar \S+ \((exact|rel tol)"),
              re.compile(r"^global after \w+ \S+ != after the scalar loop "),
              re.compile(r"^global after \w+ \S+, but no example wrote it"),
              re.compile(r"^harness: no example wrote the global but the "
                         r"scalar loop left ")]
STATS_FAILS_RE = re.compile(r"^STATS .*\bfails=(\d+)", re.M)


def ulps(a, b, t):
    """|a - b| in ULPs of type t ('float' or 'double') at the larger."""
    prec, tiny = (24, 2.0 ** -149) if t == "float" else (53, 2.0 ** -1074)
    m = max(abs(a), abs(b))
    ulp = tiny if m == 0 else max(tiny, 2.0 ** (math.frexp(m)[1] - prec))
    return abs(a - b) / ulp


def failures(text):
    """The FAIL lines' messages, or None when some failure was not printed
    or a FAIL line is not of the checks' usual form."""
    m = STATS_FAILS_RE.search(text)
    lines = [ln for ln in text.splitlines() if ln.startswith("FAIL ")]
    if not m or int(m.group(1)) != len(lines) or not lines:
        return None
    out = []
    for ln in lines:
        fm = FAIL_RE.match(ln)
        if not fm:
            return None
        out.append(fm.group(5))
    return out


def contract_shaped(msgs):
    """Every failure is check 1's exact comparison, both results finite and
    at most ULP_MAX ULPs apart: the most ULPs, or None."""
    worst = 0.0
    for msg in msgs:
        m = EXACT_RE.match(msg)
        if not m:
            return None
        a, b = float.fromhex(m.group(1)), float.fromhex(m.group(2))
        if not (math.isfinite(a) and math.isfinite(b)):
            return None
        d = ulps(a, b, m.group(3))
        if d > ULP_MAX:
            return None
        worst = max(worst, d)
    return worst


def scalar_shaped(msgs):
    return all(any(r.match(msg) for r in SCALAR_RES) for msg in msgs)


def optnone(src, contract_off=False):
    """The file with every annotated (scalar) function optnone: clang
    compiles it as at -O0; the generated functions are not annotated.
    Clang 19 contracts within statements in an optnone function whatever
    -ffp-contract says (its FP options of a function that disallows
    optimisations): contract_off adds `#pragma clang fp contract(off)` at
    the start of its body."""
    pragma = "\n#pragma clang fp contract(off)" if contract_off else ""
    out, n = re.subn(r"^(BATCHDIFF .*\{)$", OPTNONE + r"\1" + pragma, src,
                     flags=re.M)
    assert n == len(re.findall(r"^BATCHDIFF ", src, flags=re.M)) and n, \
        "an annotated definition whose first line does not end in '{'"
    return out


def classify(src, build):
    """A failing seed's class, (name, reason), or (None, reason) when it
    stays failing. build(tag, src, flags) compiles src with the run's
    command plus flags (and the plugin's emit option) in a directory of
    its own, runs it and returns (status, emit directory, output); tag
    "asis" runs the seed's program again, printing every failure."""
    st0, em0, text = build("asis", src, [])
    if st0 != "FAIL":
        return None, "re-checked: the second run gives %s" % st0
    msgs = failures(text)
    if msgs is None:
        return None, "not re-checked: a failure of no form re-checked"
    worst = contract_shaped(msgs)
    if worst is None and not scalar_shaped(msgs):
        return None, "not re-checked: a failure not against the scalar " \
            "function"
    # the scalar functions at -O0: the generated C must be what it was
    sto, emo, _ = build("optnone", optnone(src), [])
    if not same_emitted(em0, emo):
        return None, "re-checked: optnone changed the generated C"
    if sto != "OK":
        return None, "re-checked: fails with the scalar functions " \
            "optnone too (%s)" % sto
    stc, emc, _ = build("contract-off", src, ["-ffp-contract=off"])
    if stc == "OK":
        if worst is None:
            return None, "re-checked: passes with -ffp-contract=off and " \
                "with the scalar functions optnone, but a failure is not " \
                "of a contraction's form"
        return "CONTRACT", (
            "%d check-1 result(s) at most %g ULP apart; passes with "
            "-ffp-contract=off and with the scalar functions optnone "
            "(docs/abi.md, contraction)" % (len(msgs), worst))
    if stc == "COMPILE" or stc.startswith(("CRASH", "TIMEOUT")):
        return None, "re-checked: -ffp-contract=off gives %s" % stc
    stco, emco, _ = build("contract-off-optnone", optnone(src, True),
                       ["-ffp-contract=off"])
    if not same_emitted(emc, emco):
        return None, "re-checked: optnone changed the generated C " \
            "(-ffp-contract=off)"
    if stco != "OK":
        return None, "re-checked: passes with the scalar functions " \
            "optnone, but not with them and -ffp-contract=off (%s)" % stco
    return "CLANG-MISCOMPILE", (
        "%d failure(s) against the scalar function; with -ffp-contract=off "
        "it fails as is and passes with the scalar functions optnone "
        "(generated C unchanged): the scalar function's -O0 and -O2 "
        "results differ" % len(msgs))


def same_emitted(d1, d2):
    """The plugin's -fplugin-arg-batchdiff-emit outputs are the same (and
    those of the other file of --features bcalls, D.other)."""
    if not d1 or not d2:
        return False
    if os.path.isdir(d1 + ".other") or os.path.isdir(d2 + ".other"):
        if not same_emitted(d1 + ".other", d2 + ".other"):
            return False
    f1, f2 = sorted(os.listdir(d1)), sorted(os.listdir(d2))
    return f1 == f2 and bool(f1) and all(
        filecmp.cmp(os.path.join(d1, a), os.path.join(d2, a), shallow=False)
        for a in f1)
