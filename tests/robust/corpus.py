"""The crash fuzzer's corpus: every annotated C file of the repository, cut
down to what a mutant needs, plus files of tests/fuzz/gen.py and small
odd-but-valid programs written here.

A test file is cut down by dropping its test drivers: top-level functions
that call generated functions (NAME_batched, NAME_grad, ...) and main(),
which plain clang could not compile (the generated names do not exist
without the plugin) and which cost compile time without reaching the
plugin."""
import glob
import os
import re
import sys

import csrc

ANNOT_RE = re.compile(r"\bBATCHDIFF\b|\bBD_(BATCH|DIFF|JVP|HVP)\b|"
                      r"__attribute__\s*\(\(\s*[^)]*\b(batch|diff)\b")
GENERATED_RE = re.compile(r"\b\w+_(batched|grad|jvp|hvp|vjp)\b")


def repo_files(root):
    pats = ["tests/**/*.c", "tests/**/*.h", "examples/**/*.c",
            "bench/models.c"]
    out = []
    for p in pats:
        for f in sorted(glob.glob(os.path.join(root, p), recursive=True)):
            if "/_build" in f or "/robust/found/" in f:
                continue
            try:
                with open(f, errors="replace") as fh:
                    text = fh.read()
            except OSError:
                continue
            if ANNOT_RE.search(text) and len(text) < 200000:
                out.append((os.path.relpath(f, root), text))
    return out


def strip_drivers(text):
    """text without main() and the functions that call generated ones."""
    toks = csrc.lex(text)
    match = csrc.match_brackets(toks)
    cut = []
    for f in csrc.functions(toks, match):
        if f.annotated:
            continue
        body = text[toks[f.lbrace].start:toks[f.rbrace].end]
        if f.name == "main" or GENERATED_RE.search(body):
            cut.append((toks[f.head].start, toks[f.rbrace].end))
    out = text
    for a, b in reversed(cut):
        out = out[:a] + out[b:]
    return out


def fuzz_gen_file(root, seed, k, feats):
    """The annotated part of tests/fuzz/gen.py's file for seed (its
    unannotated twins and main() need the fuzz harness)."""
    sys.path.insert(0, os.path.join(root, "tests", "fuzz"))
    try:
        from genfile import gen_file  # noqa: E402
        from features import FEATURES  # noqa: E402
    finally:
        sys.path.pop(0)
    src = gen_file(seed, k, 0.0, tuple(FEATURES) if feats else ())
    cut = src.find("/* twins:")
    if cut > 0:
        src = src[:cut]
    # (the outside functions' declarations: --features ecalls)
    return src.replace('#include "fuzz_harness.h"\n',
                       '#include "fuzz_extern.h"\n')


# Odd-but-valid programs: the plugin must accept (or reject at a location)
# each, and never crash.
ODD = {
    "empty-functions": """
#include <batchdiff.h>
BATCHDIFF void nothing(void) {}
BATCHDIFF void unused_params(double x, float y, int n) {}
BATCHDIFF double constant(double x) { return 1.0; }
""",
    "void-out-params": """
#include <batchdiff.h>
BATCHDIFF void polar(double r, double t, double *x, double *y) {
  *x = r * t;
  *y = r - t;
}
BATCHDIFF void fill(double x, int n, double out[n]) {
  for (int i = 0; i < n; i++) out[i] = x * i;
}
""",
    "zero-length-loops": """
#include <batchdiff.h>
BATCHDIFF double f(double x, int n) {
  double s = x;
  for (int i = 0; i < 0; i++) s += x;
  for (int i = n; i < n; i++) s *= x;
  while (0) s = -s;
  do { } while (0);
  for (int i = 10; i > 20; i--) s /= x;
  return s;
}
""",
    "helpers-chain": """
#include <batchdiff.h>
static inline double h3(double x) { return x * x; }
static inline double h2(double x) { return h3(x) + h3(-x); }
static inline double h1(double x) { return h2(x) * h2(x + 1.0); }
BATCHDIFF double f(double x) { return h1(x) - h2(x); }
""",
    "recursion-through-helpers": """
#include <batchdiff.h>
static double odd(double x, int n);
static double even(double x, int n) { return n <= 0 ? x : odd(x * 0.5, n - 1); }
static double odd(double x, int n) { return n <= 0 ? -x : even(x + 1.0, n - 1); }
BATCHDIFF double f(double x, int n) { return even(x, n); }
""",
    "many-params": "#include <batchdiff.h>\nBATCHDIFF double f(" +
        ", ".join("double p%d" % i for i in range(64)) + ") { return " +
        " + ".join("p%d * %d.0" % (i, i) for i in range(64)) + "; }\n",
    "int-only": """
#include <batchdiff.h>
BATCHDIFF int f(int a, unsigned b, long c) { return a * (int)b + (int)c; }
BATCHDIFF _Bool g(double x) { return x > 0; }
""",
    "float-mix": """
#include <batchdiff.h>
#include <math.h>
BATCHDIFF float f(float x, double y, int k) {
  float t = sinf(x) * (float)y;
  double u = exp(y) / (1.0 + fabs(x));
  return t + (float)u * (float)k;
}
""",
    "shadow-params": """
#include <batchdiff.h>
BATCHDIFF double f(double x) {
  double y = x;
  { double x = y * 2; y += x; }
  for (int x2 = 0; x2 < 3; x2++) { double y = x2; x += y; }
  return x + y;
}
""",
    "static-and-inline": """
#include <batchdiff.h>
static BATCHDIFF double s(double x) { return x * 3; }
static inline BATCHDIFF double si(double x) { return s(x) + 1; }
BATCHDIFF double f(double x) { return si(x) * s(x); }
""",
}


def load(root, fuzz_seeds=range(1, 9)):
    """[(name, text)] of the whole corpus."""
    out = []
    for rel, text in repo_files(root):
        cut = strip_drivers(text)
        if ANNOT_RE.search(cut):
            out.append((rel, cut))
    for s in fuzz_seeds:
        try:
            out.append(("fuzz-gen-%d" % s,
                        fuzz_gen_file(root, s, 3, s % 2 == 0)))
        except Exception as e:  # a gen.py change must not stop the fuzzer
            print("corpus: gen.py seed %d: %s" % (s, e), file=sys.stderr)
    for k in sorted(ODD):
        out.append(("odd-" + k, ODD[k]))
    return out
