"""Markers of the generated text and their renderings (tests/fuzz/gen.py).

The generator writes one body with markers; render() turns it into the
annotated function, the twin, the long twin and the tie twin."""
import re

# Markers: rendered differently in the annotated function and in its twin.
FLT = "@FLT"   # the type float (twin: double, long twin: long double)
DBL = "@DBL"   # the type double (long twin: long double)
MF = "@mf"     # math suffix for float (twin: none, long twin: l)
MD = "@md"     # math suffix for double (long twin: l)
LF = "@lf"     # literal suffix for float (twins: none)
TW = "@tw"     # suffix of helper/function names (twin: _tw, long twin: _ld)
# a value whose bits are about to be read (copied into an integer, written
# into a union): the tie twin notes a NaN there (fz_nsign), whose sign C
# leaves open (docs/abi.md); elsewhere nothing ("@ns(x)" is "(x)")
NS = "@ns"
# a <math.h> function named as a value (a candidate of a choice of
# functions: qfeatures 'fchoice'): the tie twin's is fz_ulp_* as its calls
FV = "@fv"
# a return of the generated function (not of a helper), numbered: the long
# twin and the flags twin note which one they took ("@rt:f0:3@ x" is "(fz_rt_f0_ld
# = 3, x)"), so the harness can tell a path the long twin took that the
# function did not (fz_path_ok); elsewhere it is "x"
RT = re.compile(r"@rt:(\w+):(\d+)@ (.*);$", re.M)

# Three renderings of one generated body: the annotated function (float
# stays float), the twin (float made double: same code when the function
# is double only) and the long twin (every floating type long double, math
# functions in their l form): the oracle for derivatives, whose differences
# cancel 11 bits later than double ones.
RENDER = {
    False: {FLT: "float", DBL: "double", MF: "f", MD: "", LF: "f", TW: "",
            NS: "", FV: ""},
    True: {FLT: "double", DBL: "double", MF: "", MD: "", LF: "", TW: "_tw",
           NS: "", FV: ""},
    "ld": {FLT: "long double", DBL: "long double", MF: "l", MD: "l", LF: "",
           TW: "_ld", NS: "", FV: ""},
    # the tie twin: the function's own types and operations, with fmin/fmax
    # counting ties of zeros of opposite signs and math calls that can be
    # nudged by one ULP (fuzz_harness.h), and sign reads (copysign,
    # signbit, bits) noting a NaN source
    "zt": {FLT: "float", DBL: "double", MF: "f", MD: "", LF: "f", TW: "_zt",
           NS: "fz_nsign", FV: "fz_ulp_"},
    # the flags twin: the function's own code under FENV_ACCESS, whose
    # overflow/invalid flags are those of every operation on the example's
    # path (the function itself may lose them: LLVM deletes float
    # arithmetic whose result is dead, seed 701)
    "fe": {FLT: "float", DBL: "double", MF: "f", MD: "", LF: "f", TW: "_fe",
           NS: "", FV: ""},
}
MINMAX = re.compile(r"\bf(min|max)(f?)\(")
# the tie twin's math calls: fz_ulp_* (libm's value, or one ULP off when
# the harness asks: fuzz_harness.h, fz_ulp_explains)
MATH = re.compile(r"\b(exp|log|sin|cos|tanh|lgamma|tgamma)(f?)\(")
# the tie twin's sign reads: copysign's second operand and signbit's,
# noting a NaN (fz_nsign_copysign, fz_nsign_signbit)
SIGNS = re.compile(r"\b(copysign(?:f?)|signbit)\(")


def render(text, twin):
    for k, v in RENDER[twin].items():
        text = text.replace(k, v)
    if twin in ("ld", "fe"):
        text = RT.sub(r"(fz_rt_\1_%s = \2, \3);" % twin, text)
    else:
        text = RT.sub(r"\3;", text)
    if twin == "zt":
        text = MINMAX.sub(r"fz_tie_f\1\2(", text)
        text = MATH.sub(r"fz_ulp_\1\2(", text)
        text = SIGNS.sub(r"fz_nsign_\1(", text)
    return text


RETURN = re.compile(r"^(\s*return )(.*;)$")


def mark_returns(name, body):
    """body with its returns marked (RT), each by its line number."""
    out = []
    for k, line in enumerate(body):
        m = RETURN.match(line)
        if m:
            line = "%s@rt:%s:%d@ %s" % (m.group(1), name, k + 1, m.group(2))
        else:
            # every return of a body is a line of its own (fz_path_ok
            # would miss one that is not)
            assert not re.search(r"\breturn\b", line), line
        out.append(line)
    return out


def tname(t):
    return FLT if t == "f" else (DBL if t == "d" else "int")


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.vars = {}  # name -> (kind, type, readonly, size)

    def all(self):
        s = self
        out = {}
        chain = []
        while s:
            chain.append(s)
            s = s.parent
        for sc in reversed(chain):
            out.update(sc.vars)
        return out

