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


# A C file a test script writes with a quoted here-document (no shell
# expansion): tests/plugin/*.test.sh's inputs (arena_vla's, ...).
HEREDOC_RE = re.compile(
    r"cat\s*>\s*([\w./-]+\.[ch])\s*<<\s*'(\w+)'\n(.*?)\n\2\n", re.S)


def script_files(root):
    """[(name, text)]: the annotated C files test scripts write, named
    SCRIPT:FILE."""
    out = []
    for f in sorted(glob.glob(os.path.join(root, "tests", "**", "*.sh"),
                              recursive=True)):
        if "/_build" in f:
            continue
        with open(f, errors="replace") as fh:
            text = fh.read()
        for m in HEREDOC_RE.finditer(text):
            if ANNOT_RE.search(m.group(3)):
                out.append(("%s:%s" % (os.path.relpath(f, root), m.group(1)),
                            m.group(3) + "\n"))
    return out


def fuzz_gen_file(root, seed, k, feats):
    """The annotated part of tests/fuzz/gen.py's file for seed (its
    unannotated twins and main() need the fuzz harness); feats: True for
    every feature, or a tuple of them."""
    sys.path.insert(0, os.path.join(root, "tests", "fuzz"))
    try:
        from genfile import gen_file  # noqa: E402
        from features import FEATURES  # noqa: E402
    finally:
        sys.path.pop(0)
    if feats is True:
        feats = tuple(FEATURES)
    src = gen_file(seed, k, 0.0, tuple(feats or ()))
    cut = src.find("/* twins:")
    if cut > 0:
        src = src[:cut]
        if "#ifdef FZ_OTHER_FILE" in src:
            # (--features bcalls: the other file's part, then this one's)
            src += "#endif\n"
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


def helper_chain(n):
    """tests/plugin/helper_chains.test.sh's chainf: n helpers with branches
    and a goto, each calling the one before in a branch, and an annotated
    function calling the last twice (a long kernel: variables declared in
    inner blocks, kept values in arena arrays)."""
    out = ["#include <batchdiff.h>\n#include <math.h>\n",
           "static double h0(double x, double y) { return x * y + 0.25; }\n"]
    for i in range(1, n + 1):
        out.append(
            "static double h%d(double x, double y) {\n"
            "  double r = 0.5 * x, s = y;\n"
            "  if (x > 0.%d * y) {\n"
            "    s = h%d(x * 0.97, y + 0.01);\n"
            "    if (s > 4.0)\n      goto out;\n"
            "    r = r + s * 0.5;\n  } else {\n"
            "    r = r - 0.25 * y * x;\n  }\n"
            "  r = r * 0.99 + sqrt(s * s + 1.0);\nout:\n"
            "  return r + s * 0.001;\n}\n" % (i, i % 9 + 1, i - 1))
    out.append("BATCHDIFF double chainf(double x, double y) {\n"
               "  return h%d(x, y) + h%d(y * 0.5, x);\n}\n" % (n, n))
    return "".join(out)


# Programs of the features added after the fuzzer last ran at scale
# (kept apart from ODD: robust.smoke's mutants of ODD stay what they were).
FEAT = {
    "long-double": """
#include <batchdiff.h>
#include <math.h>
static double ld_sum(double x, int n) {
  long double s = 0, t = 1;
  for (int i = 0; i < n && i < 50; i++) {
    t *= x / (i + 1);
    s += t;
  }
  return (double)s;
}
static double ld_plain(double x) { return x * 0.5 + 1.0; }
BATCHDIFF double ld_f(double x, int n) {
  double y = x * x;
  if (x > 0.5)
    y += ld_sum(x, n);
  double (*g)(double, int) = ld_sum;
  y += n > 2 ? g(y * 0.1, 3) : ld_plain(y);
  return y;
}
BD_BATCH double ld_self(double x, double a) {
  long double acc = x;
  for (int i = 0; i < 5; i++)
    acc = acc * a + 1.0L / (i + 1);
  return (double)acc + a;
}
""",
    "func-choice": """
#include <batchdiff.h>
#include <math.h>
typedef double (*fn)(double);
static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
static double lin(double t) { return 0.5 * t - 1.0; }
static double apply(fn f, double x) { return f(x) + 1.0; }
static const fn tab[3] = {sq, cube, lin};
BATCHDIFF double fc(double x, int k) {
  double (*f)(double) = sq;
  if (x < 0.0)
    f = cube;
  fn g = k == 1 ? lin : (k == 2 ? sq : cube);
  double (*h)(double) = f;
  double y = f(x) + apply(g, 0.5 * x);
  if (k > 2)
    h = g;
  y += h(x) + tab[k & 1](x) + (x > 1.0 ? sin : cos)(x);
  return y;
}
""",
    "global-paths": """
#include <batchdiff.h>
#include <math.h>
double G_LAST;
int G_FLAG;
float G_F;
static void note(double v) { G_LAST = v; }
BATCHDIFF double gp(double x, double c) {
  double r = c * x;
  if (x < 0.0) {
    G_FLAG = 1;
    return NAN;
  }
  if (x > c)
    note(x * c);
  if (x > 2.0) {
    G_F = (float)x;
    r += G_F;
  }
  return r + sqrt(x);
}
""",
    "arena-vla": """
#include <batchdiff.h>
BATCHDIFF double av(double x, int n) {
  double big[600];
  double t[n];
  float u[n + 1];
  for (int i = 0; i < 600; i++)
    big[i] = x * i;
  for (int i = 0; i < n; i++) {
    t[i] = big[i % 600] + 1.0;
    u[i] = (float)t[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x + u[i];
  return s;
}
""",
    "helper-chain": helper_chain(24),
}


def load(root, fuzz_seeds=range(1, 9)):
    """[(name, text)] of the whole corpus."""
    out = []
    for rel, text in repo_files(root):
        cut = strip_drivers(text)
        if ANNOT_RE.search(cut):
            out.append((rel, cut))
    out += script_files(root)
    gen = [(s, s % 2 == 0) for s in fuzz_seeds]
    # the eleventh round's constructs (function choices, global paths)
    gen += [(s, ("fptrs", "fchoice", "gpaths")) for s in range(9, 13)]
    for s, feats in gen:
        try:
            out.append(("fuzz-gen-%d" % s, fuzz_gen_file(root, s, 3, feats)))
        except Exception as e:  # a gen.py change must not stop the fuzzer
            print("corpus: gen.py seed %d: %s" % (s, e), file=sys.stderr)
    for k in sorted(ODD):
        out.append(("odd-" + k, ODD[k]))
    for k in sorted(FEAT):
        out.append(("feat-" + k, FEAT[k]))
    return out
