#!/usr/bin/env python3
"""Crash fuzzer for the batchdiff plugin (python3, standard library only).

  mutate.py run  --seeds A-B [--jobs N] [--build BUILD] [--out DIR]
                 [--time-limit SECONDS] [--no-reduce] [-v]
  mutate.py gen  --seed S [-o FILE]     write one mutant (and its flags)
  mutate.py sweep [--out DIR] [-v]     each construct and type once, in one
                                        valid function
  mutate.py check FILE [--flags '...'] [--reduce OUT]
                                        run the oracle on one file
  mutate.py selftest                   the reduction keeps the failing
                                        function (no compiler)

Each seed picks a file of the corpus (corpus.py: every annotated C file of
the repository, files of tests/fuzz/gen.py, odd-but-valid programs), applies
1-3 mutations (mutations.py) and compiles the mutant with the plugin
(-O2 -march=native mostly; sometimes -O0, -std=c89, -x c++ or a plugin
option).  Oracle (README.md):
  crash      a signal, "PLEASE submit a bug report", a stack dump, an
             assertion, "LLVM ERROR", "UNREACHABLE"
  hang       no answer in --timeout seconds
  unlocated  plain clang accepts the file, the plugin rejects it, and an
             error (or any line that is not a diagnostic) has no location;
             or exit status 1 without any error
  generated  an error or warning located in the generated code
             (<batchdiff:NAME>; warnings shown with -Wsystem-headers)
  identity   a function plain clang also compiles has different machine
             code with the plugin (-ffunction-sections, llvm-objdump); for
             mutants without annotations, the objects differ at all
  link       the object needs a symbol neither the runtime, libm, libc nor
             plain clang's object needs
Failing mutants are kept in --out (reduced by line deletion unless
--no-reduce) with a header naming the seed, the flags and what failed.
"""
import argparse
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402
import mutations  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
DIAG_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<kind>error|warning|note|remark|fatal error): "
                     r"(?P<msg>.*)$")
CRASH_RE = re.compile(r"PLEASE submit a bug report|Stack dump:|Assertion .* "
                      r"failed|LLVM ERROR|UNREACHABLE executed|"
                      r"clang frontend command failed|Segmentation fault")
# The generated declaration disagreeing with the file's own prototype of
# NAME_batched/_grad/... is the contract's error, in the generated code by
# design (tests/diagnostics/cases/prototype-mismatch.c; bench/models.h
# declares them: a mutation that changes the signature meets it).
CONTRACT_RE = re.compile(r"^conflicting types for '\w+_(batched|grad|jvp|"
                         r"hvp)'")
# Lines clang itself prints without a location.
BENIGN_RE = re.compile(r"^(In file included from |\s+from |\d+ (warning|error)"
                       r"s? (and \d+ (warning|error)s? )?generated\.|"
                       r"fatal error: too many errors emitted|"
                       r"clang(\+\+)?(-19)?: (warning|note): |"
                       r"In function '|\s*$)")


class Env:
    def __init__(self, args):
        self.cc = args.cc
        self.build = os.path.abspath(args.build)
        self.plugin = args.plugin or os.path.join(self.build, "lib",
                                                  "batchdiff", "batchdiff.so")
        self.timeout = args.timeout
        self.nm = args.nm
        self.objdump = args.objdump
        self.rt_syms = None
        self.rtlib = args.rtlib or os.path.join(self.build, "runtime",
                                                "libbatchdiff_rt.a")
        self.incs = ["-I", os.path.join(ROOT, "annotations"),
                     "-I", os.path.join(ROOT, "runtime", "include"),
                     "-I", os.path.join(ROOT, "tests", "common"),
                     "-I", os.path.join(ROOT, "tests", "fuzz"),
                     "-I", os.path.join(ROOT, "bench")]

    def known_syms(self):
        """Symbols the runtime library, libm and libc define."""
        if self.rt_syms is None:
            syms = set()
            libs = [self.rtlib]
            libs += ["/lib/x86_64-linux-gnu/libm.so.6",
                     "/lib/x86_64-linux-gnu/libc.so.6",
                     "/lib/x86_64-linux-gnu/libmvec.so.1"]
            for lib in libs:
                if not os.path.exists(lib):
                    continue
                flag = ["-D"] if lib.endswith(".so.6") or \
                    lib.endswith(".so.1") else []
                p = run([self.nm, "--defined-only"] + flag + [lib], 60)
                for ln in p[1].splitlines():
                    w = ln.split()
                    if len(w) >= 3:
                        syms.add(w[2].split("@")[0])
            self.rt_syms = syms
        return self.rt_syms


def run(cmd, timeout, cwd=None):
    """(exit status or None on timeout, stdout+stderr, seconds).  timeout
    is CPU time (the machine may be loaded): RLIMIT_CPU, and 10 times as
    much wall time."""
    t0 = time.time()

    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout),
                                                 int(timeout) + 5))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout * 10,
                           cwd=cwd, universal_newlines=True,
                           errors="replace", preexec_fn=limit)
        if p.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
            return None, p.stdout, time.time() - t0
        return p.returncode, p.stdout, time.time() - t0
    except subprocess.TimeoutExpired as e:
        out = e.output or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return None, out, time.time() - t0


def pick_flags(rng):
    r = rng.random()
    if r < 0.68:
        return ["-O2", "-march=native"]
    if r < 0.78:
        return ["-O0"]
    if r < 0.84:
        return ["-O2", "-std=c89"]
    if r < 0.9:
        return ["-O2", "-march=native", "-x", "c++"]
    opt = rng.choice(["math=outline", "chains=1", "chains=4",
                      "sort-by-length=0", "dense-records=0", "remarks",
                      "emit=."])
    return ["-O2", "-march=native", "-fplugin-arg-batchdiff-" + opt]


def make_mutant(seed, units):
    rng = random.Random(seed)
    # Diagnostics cases already hold an error, which hides most of what a
    # mutation adds: they are a quarter of the mutants.
    diag = [u for u in units if "/diagnostics/" in u[0]]
    rest = [u for u in units if "/diagnostics/" not in u[0]]
    pool = diag if diag and (rng.random() < 0.25 or not rest) else rest
    name, text = pool[rng.randrange(len(pool))]
    if rng.random() < 0.8:
        text = mutations.focus_only(rng, text)
    text, desc = mutations.mutate(rng, text)
    return name, text, desc, pick_flags(rng)


def disasm(env, obj, wd):
    """{function: [instruction lines]} of obj (-ffunction-sections), with
    their relocations (a load of a constant folded into the code and a load
    of the table it came from disassemble alike); constant pool labels are
    numbered per function, which the plugin's functions renumber; offsets
    into data sections are dropped (the plugin's data moves them)."""
    rc, out, _ = run([env.objdump, "-dr", "--no-show-raw-insn", obj], 60, wd)
    local = local_data(env, obj, wd)
    funcs, cur = {}, None
    for ln in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", ln)
        if m:
            cur = funcs.setdefault(m.group(1), [])
        elif ln.startswith("Disassembly of section"):
            cur = None
        elif cur is not None and re.match(r"^\s+[0-9a-f]+:\s+R_", ln):
            cur.append(norm_reloc(ln.split(":", 1)[1].strip(), local))
        elif cur is not None and ln.strip() and "nop" not in ln:
            # drop the address column: sections start at 0 anyway
            cur.append(ln.split(":", 1)[-1].strip())
    return funcs


def norm_reloc(rel, local):
    """A relocation as the identity oracle compares it; local maps the
    file-local data objects to their sections."""
    rel = re.sub(r"\.LCPI\d+_", ".LCPI_", rel)
    # a file-local table is named by its section when it shares one (.rodata,
    # where the plugin's data put it) and by itself in a mergeable one
    # (.rodata.cst16): the same address once linked
    rel = re.sub(r"(?<=\s)([\w.$]+)(?=[+-]0x|$)",
                 lambda m: local.get(m.group(1), m.group(1)), rel)
    # where in .data/.rodata the plugin's own data went before
    return re.sub(r"\.(rodata|data|bss)[\w.]*(?:[+-]0x[0-9a-f]+)?",
                  r".\1+off", rel)


def local_data(env, obj, wd):
    """{name: section} of obj's file-local data objects (`objdump -t`)."""
    rc, out, _ = run([env.objdump, "-t", obj], 60, wd)
    found = {}
    for ln in out.splitlines():
        m = re.match(r"^[0-9a-f]+ l\s+O (\S+)\s+[0-9a-f]+ (\S+)$", ln)
        if m:
            found[m.group(2)] = m.group(1)
    return found


def undefined(env, obj, wd):
    rc, out, _ = run([env.nm, "-u", obj], 60, wd)
    return {ln.split()[-1] for ln in out.splitlines() if ln.strip()}


def check(env, text, flags, wd, src_dir, info=None):
    """Runs the oracle on text; returns [] or [(kind, key, detail)].
    info, a dict, gets the exit statuses: plugin (rc), plain clang (prc)."""
    info = {} if info is None else info
    cfile = os.path.join(wd, "m.c")
    with open(cfile, "w") as f:
        f.write(text)
    inc = (["-I", src_dir] if src_dir else []) + env.incs
    common = [env.cc] + flags + inc + [
        "-fno-color-diagnostics", "-fno-caret-diagnostics",
        "-ffunction-sections", "-Wall", "-Wextra", "-Wno-unknown-pragmas",
        "-c", "m.c"]
    plug = common[:1] + ["-fplugin=" + env.plugin, "-Wsystem-headers"] + \
        common[1:]
    os.makedirs(os.path.join(wd, "p"), exist_ok=True)
    os.makedirs(os.path.join(wd, "r"), exist_ok=True)
    shutil.copy(cfile, os.path.join(wd, "p", "m.c"))
    shutil.copy(cfile, os.path.join(wd, "r", "m.c"))
    rc, out, secs = run(plug + ["-o", "m.o"], env.timeout,
                        os.path.join(wd, "p"))
    info["rc"] = rc
    fails = []
    if rc is None:
        return [("hang", "timeout", "no answer in %d s of CPU" % env.timeout)]
    if rc < 0 or rc >= 128 or CRASH_RE.search(out):
        # clang 19 itself crashes on some inputs (an anonymous enum parameter
        # of an overloadable function, robust seed 1161): not ours
        prc, pout, _ = run(common + ["-o", "m.o"], env.timeout,
                           os.path.join(wd, "r"))
        if prc is not None and (prc < 0 or prc >= 128 or CRASH_RE.search(pout)):
            return []
        key = crash_key(out, rc)
        return [("crash", key, out[-6000:])]
    diags, bare = [], []
    for ln in out.splitlines():
        m = DIAG_RE.match(ln)
        if m:
            diags.append(m)
        elif not BENIGN_RE.match(ln):
            bare.append(ln)
    for m in diags:
        if m.group("file").startswith("<batchdiff:") and \
                m.group("kind") in ("error", "warning", "fatal error") and \
                not CONTRACT_RE.search(m.group("msg")):
            msg = m.group("msg")
            flag = re.search(r"\[(-W[^\],]*)", msg)
            fails.append(("generated", "%s %s" % (
                m.group("kind"), flag.group(1) if flag else norm(msg)),
                m.group(0)))
    errors = [m for m in diags if m.group("kind") in ("error", "fatal error")]
    if rc != 0 and errors and not bare and not any(
            m.group("file").startswith("<") for m in errors):
        return fails  # rejected at locations: plain clang's view is moot
    prc, pout, _ = run(common + ["-o", "m.o"], env.timeout,
                       os.path.join(wd, "r"))
    info["prc"] = prc
    if prc is not None and (prc < 0 or prc >= 128 or CRASH_RE.search(pout)):
        # clang crashes without the plugin too: not ours to judge
        return [f for f in fails if f[0] != "crash"]
    if rc != 0 and prc == 0:
        if not errors:
            fails.append(("unlocated", "exit %d without a located error" % rc,
                          out[-3000:]))
        plain = set(pout.splitlines())
        for ln in bare:
            if ln not in plain:
                fails.append(("unlocated", norm(ln)[:80], out[-3000:]))
                break
        for m in diags:
            f = m.group("file")
            if f.startswith("<") and not f.startswith("<batchdiff:") and \
                    m.group("kind") == "error":
                fails.append(("unlocated", "error at %s" % f, m.group(0)))
    if rc == 0 and prc == 0:
        fails += compare_objects(env, text, wd)
    seen, out = set(), []
    for f in fails:  # one failure per kind and key
        if f[:2] not in seen:
            seen.add(f[:2])
            out.append(f)
    return out


def compare_objects(env, text, wd):
    fails = []
    pobj, robj = os.path.join(wd, "p", "m.o"), os.path.join(wd, "r", "m.o")
    if not (os.path.exists(pobj) and os.path.exists(robj)):
        return [("link", "no object", "exit 0 but no object written")]
    stripped = not mutations.has_annotation(text) and \
        "batchdiff" not in text and "BATCHDIFF" not in text
    if stripped:
        with open(pobj, "rb") as a, open(robj, "rb") as b:
            if a.read() == b.read():
                return []
        fails.append(("identity", "unannotated file: objects differ", ""))
    pd, rd = disasm(env, pobj, wd), disasm(env, robj, wd)
    # every function that differs is named (the reduction keeps the first
    # one's difference: identity_names), the first one's diff shown
    names = [fn for fn, code in sorted(rd.items())
             if fn in pd and pd[fn] != code]
    if names:
        code, fn = rd[names[0]], names[0]
        diff = [a + "  |  " + b for a, b in zip(code, pd[fn]) if a != b]
        fails.append(("identity", "code of a function differs",
                      "functions: %s\n%s:\n%s" % (
                          " ".join(names), fn, "\n".join(diff[:20]))))
    new = undefined(env, pobj, wd) - undefined(env, robj, wd) - set(pd)
    missing = sorted(s for s in new if s not in env.known_syms())
    if missing:
        fails.append(("link", "undefined " + missing[0],
                      " ".join(missing[:20])))
    return fails


def norm(msg):
    """A message with names and numbers blanked: the failure's signature."""
    msg = re.sub(r"'[^']*'", "'_'", msg)
    return re.sub(r"\d+", "N", msg)


def crash_key(out, rc):
    m = re.search(r"(Assertion .*? failed|LLVM ERROR: [^\n]*|UNREACHABLE "
                  r"executed[^\n]*)", out)
    if m:
        return norm(m.group(1))[:120]
    for ln in out.splitlines():
        m = re.search(r"#\d+ 0x[0-9a-f]+ (?:in )?(\S*batchdiff\S*)", ln)
        if m and "PrintStackTrace" not in ln and "Signal" not in ln:
            return "frame " + m.group(1)[:100]
    return "signal %s" % rc


def identity_names(kind, detail):
    """The functions whose code differs, of an identity failure (else
    None)."""
    if kind != "identity" or not detail.startswith("functions: "):
        return None
    return detail.split("\n", 1)[0].split()[1:]


def same_failure(fail, got):
    """got (check's list) still has failure fail (kind, key, detail): the
    same kind and key and, for an identity failure, the same function
    still differing (any other function's difference would let the
    reduction delete the one that failed: identity-30050, an unannotated
    function's, reduced to the annotated one's)."""
    kind, key, detail = fail
    want = identity_names(kind, detail)
    for k, kk, d in got:
        if (k, kk) == (kind, key) and (
                not want or want[0] in (identity_names(k, d) or [])):
            return True
    return False


def reduce(env, text, flags, wd, src_dir, fail, budget, checker=None):
    """Line-deletion reduction keeping failure fail (kind, key, detail:
    same_failure); checker stands in for check (mutate.py selftest)."""
    checker = checker or check
    lines = text.split("\n")
    t0 = time.time()
    n = max(1, len(lines) // 2)
    while n >= 1 and time.time() - t0 < budget:
        i = 0
        while i < len(lines) and time.time() - t0 < budget:
            cand = lines[:i] + lines[i + n:]
            got = checker(env, "\n".join(cand), flags, wd, src_dir)
            if same_failure(fail, got):
                lines = cand
            else:
                i += n
        n //= 2
    return "\n".join(lines)


def run_seed(env, seed, units, args, wd):
    name, text, desc, flags = make_mutant(seed, units)
    src_dir = None
    if os.path.exists(os.path.join(ROOT, name)):
        src_dir = os.path.dirname(os.path.join(ROOT, name))
    t0 = time.time()
    info = {}
    fails = check(env, text, flags, wd, src_dir, info)
    desc = ["plugin %s plain %s" % (info.get("rc"), info.get("prc", "-"))] \
        + desc
    return name, text, desc, flags, src_dir, fails, time.time() - t0


def cmd_run(args):
    env = Env(args)
    units = corpus.load(ROOT)
    if args.only:
        units = [u for u in units
                 if any(u[0].startswith(p) for p in args.only.split(","))]
    seeds = parse_seeds(args.seeds)
    out = args.out or tempfile.mkdtemp(prefix="bd-robust-")
    os.makedirs(out, exist_ok=True)
    print("robust: %d corpus files, seeds %s, plugin %s, out %s" % (
        len(units), args.seeds, env.plugin, out), flush=True)
    start = time.time()
    counts, sigs = {}, {}
    ran = 0
    import concurrent.futures as cf

    def job(seed):
        wd = tempfile.mkdtemp(prefix="bd-robust-%d-" % seed)
        try:
            return seed, run_seed(env, seed, units, args, wd)
        finally:
            shutil.rmtree(wd, ignore_errors=True)

    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        pending = iter(seeds)
        futs = set()
        for s in pending:
            futs.add(ex.submit(job, s))
            if len(futs) >= args.jobs:
                break
        while futs:
            done, futs = cf.wait(futs, return_when=cf.FIRST_COMPLETED)
            for fu in done:
                seed, (name, text, desc, flags, src_dir, fails, secs) = \
                    fu.result()
                ran += 1
                if args.v:
                    print("seed %d %s %.1fs %s [%s]%s" % (
                        seed, name, secs, " ".join(flags), "; ".join(desc),
                        "" if not fails else " FAIL " + repr(
                            [(k, key) for k, key, _ in fails])), flush=True)
                for kind, key, detail in fails:
                    counts[kind] = counts.get(kind, 0) + 1
                    sig = (kind, key)
                    sigs.setdefault(sig, []).append(seed)
                    if len(sigs[sig]) > args.keep_per_sig:
                        continue
                    save(env, out, seed, name, text, desc, flags, src_dir,
                         kind, key, detail, args)
                    print("FAIL seed %d %s: %s: %s" % (seed, name, kind, key),
                          flush=True)
            if not args.time_limit or time.time() - start < args.time_limit:
                for s in pending:
                    futs.add(ex.submit(job, s))
                    break
    print("robust: %d mutants in %.0f s; failures: %s" % (
        ran, time.time() - start, ", ".join(
            "%s %d" % kv for kv in sorted(counts.items())) or "none"))
    for (kind, key), ss in sorted(sigs.items()):
        print("  %-10s %-70s seeds %s" % (kind, key[:70], ss[:10]))
    return 1 if counts else 0


def save(env, out, seed, name, text, desc, flags, src_dir, kind, key, detail,
         args):
    if not args.no_reduce and kind != "hang":
        wd = tempfile.mkdtemp(prefix="bd-reduce-")
        try:
            text = reduce(env, text, flags, wd, src_dir, (kind, key, detail),
                          args.reduce_budget)
        finally:
            shutil.rmtree(wd, ignore_errors=True)
    path = os.path.join(out, "%s-%d.c" % (kind, seed))
    head = ["/* tests/robust/mutate.py seed %d: %s" % (seed, kind),
            "   key: %s" % key.replace("*/", "* /"),
            "   from: %s" % name,
            "   mutations: %s" % "; ".join(desc).replace("*/", "* /"),
            "   flags: %s%s" % (" ".join(flags), " -I " + os.path.relpath(
                src_dir, ROOT) if src_dir else ""),
            "   detail:"]
    head += ["     " + ln.replace("*/", "* /")
             for ln in detail.splitlines()[:30]]
    with open(path, "w") as f:
        f.write("\n".join(head) + " */\n" + text)


SWEEP_BASE = """#include <batchdiff.h>
#include <math.h>
static inline double bdz_h(double a) { return a * a; }
BATCHDIFF double f(double x, int k, const double *w, double y[2]) {
  double s = x * w[0];
  /*STMT*/
  for (int i = 0; i < k; i++)
    s += w[i] * bdz_h(x);
  y[0] = s;
  return s + y[1];
}
"""


def sweep_mutants():
    """[(name, text)]: each construct of mutations.py once, in one valid
    annotated function, deterministic (the `sweep` command)."""
    out = []
    base = SWEEP_BASE
    for i, (needs, code) in enumerate(mutations.STMTS):
        code = code.replace("$X", "x").replace("$I", "k").replace(
            "$F", "f(x, k, w, y)").replace("$U", "1")
        text = base.replace("/*STMT*/", code)
        if needs in mutations.TOPLEVEL:
            text = mutations.TOPLEVEL[needs] + text
        out.append(("stmt%d" % i, text))
    for t in mutations.TYPES:
        out.append(("param-%s" % t, base.replace("double x,", t + " x,")))
        out.append(("ret-%s" % t, base.replace("BATCHDIFF double f",
                                               "BATCHDIFF %s f" % t)))
        out.append(("local-%s" % t, base.replace("double s =", t + " s =")))
    for a in mutations.FUNC_ATTRS:
        out.append(("fattr-%s" % a, base.replace("BATCHDIFF double f",
                                                 "%s BATCHDIFF double f" % a)))
    for a in mutations.ANNOT:
        out.append(("annot-%s" % a, base.replace("BATCHDIFF double f",
                                                 "%s double f" % a)))
        out.append(("pannot-%s" % a, base.replace("int k,", "int k %s," % a)))
    return out


def cmd_sweep(args):
    env = Env(args)
    items = sweep_mutants()
    nfail = 0
    for i, (name, text) in enumerate(items):
        if args.only and args.only not in name:
            continue
        for flags in (["-O2", "-march=native"],):
            wd = tempfile.mkdtemp(prefix="bd-sweep-")
            try:
                fails = check(env, text, flags, wd, None)
            finally:
                shutil.rmtree(wd, ignore_errors=True)
            if args.v or fails:
                print("%s %s: %s" % (name, " ".join(flags), fails and [
                    (k, key) for k, key, _ in fails] or "ok"), flush=True)
            for kind, key, detail in fails:
                nfail += 1
                path = os.path.join(args.out, "sweep-%s-%d.c" % (kind, i))
                with open(path, "w") as f:
                    f.write("/* sweep %s %s: %s: %s\n%s */\n%s" % (
                        name.replace("*/", ""), " ".join(flags), kind, key,
                        detail.replace("*/", "* /")[:3000], text))
            if fails:
                break
    print("sweep: %d items, %d failures" % (len(items), nfail))
    return 1 if nfail else 0


def parse_seeds(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def cmd_selftest():
    """The reduction keeps the function that failed: a stand-in checker
    where function a's code differs while line "A" is there and b's while
    "B" is; the failure names a first. A reduction keyed on kind and key
    alone deletes "A" (b still differs) and keeps "B"."""
    def fake(env, text, flags, wd, src_dir):
        names = [fn for fn, ln in (("a", "A"), ("b", "B"))
                 if ln in text.split("\n")]
        return [("identity", "code of a function differs",
                 "functions: %s\n%s:\n" % (" ".join(names), names[0]))] \
            if names else []
    text = "A\nx\nB\ny"
    fail = fake(None, text, [], None, None)[0]
    got = reduce(None, text, [], None, None, fail, 60, checker=fake)
    ok = got.split("\n") == ["A"]
    print("selftest: %r reduced to %r: %s" % (
        text, got, "keeps function a" if ok else "LOST function a"))
    # relocations: a local table by name or by section alike; a global, a
    # function and another kind of relocation stay apart
    local = {"TAB": ".rodata.cst16"}
    pairs = [("R_X86_64_PC32\tTAB-0x4", "R_X86_64_PC32\t.rodata+0x3c", True),
             ("R_X86_64_PC32\t.rodata.cst16+0x10",
              "R_X86_64_PC32\t.rodata+0x8", True),
             ("R_X86_64_PC32\tGAIN-0x4", "R_X86_64_PC32\t.rodata+0x3c", False),
             ("R_X86_64_PLT32\tsin-0x4", "R_X86_64_PLT32\tcos-0x4", False),
             ("R_X86_64_PC32\tTAB-0x4", "R_X86_64_32S\tTAB", False)]
    for a, b, same in pairs:
        if (norm_reloc(a, local) == norm_reloc(b, local)) != same:
            print("selftest: %r and %r compare %s" % (
                a, b, "different" if same else "equal"))
            ok = False
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ["selftest"]:
        sys.exit(cmd_selftest())
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "gen", "check", "sweep"):
        p = sub.add_parser(name)
        p.add_argument("--build", default=os.path.join(ROOT, "_build",
                                                       "test"))
        p.add_argument("--plugin", default=None)
        p.add_argument("--rtlib", default=None,
                       help="libbatchdiff_rt.a (default BUILD/runtime/)")
        p.add_argument("--cc", default="clang-19")
        p.add_argument("--nm", default="/usr/lib/llvm-19/bin/llvm-nm")
        p.add_argument("--objdump",
                       default="/usr/lib/llvm-19/bin/llvm-objdump")
        p.add_argument("--timeout", type=float, default=60)
        if name == "run":
            p.add_argument("--seeds", default="1-100")
            p.add_argument("--jobs", type=int, default=1)
            p.add_argument("--out", default=None)
            p.add_argument("--time-limit", type=float, default=0)
            p.add_argument("--no-reduce", action="store_true")
            p.add_argument("--reduce-budget", type=float, default=240)
            p.add_argument("--keep-per-sig", type=int, default=2)
            p.add_argument("--only", default=None,
                           help="corpus files whose names start so "
                           "(comma-separated prefixes; odd- for the "
                           "programs of corpus.py)")
            p.add_argument("-v", action="store_true")
        elif name == "sweep":
            p.add_argument("--out", default=".")
            p.add_argument("--only", default=None)
            p.add_argument("-v", action="store_true")
        elif name == "gen":
            p.add_argument("--seed", type=int, required=True)
            p.add_argument("-o", default="-")
        else:
            p.add_argument("file")
            p.add_argument("--flags", default="-O2 -march=native")
            p.add_argument("-I", dest="src_dir", default=None)
            p.add_argument("--reduce", metavar="OUT", default=None,
                           help="reduce the file by line deletion while "
                           "its first failure stays, into OUT")
            p.add_argument("--reduce-budget", type=float, default=600)
    args = ap.parse_args()
    if args.cmd == "run":
        sys.exit(cmd_run(args))
    if args.cmd == "sweep":
        sys.exit(cmd_sweep(args))
    if args.cmd == "gen":
        units = corpus.load(ROOT)
        name, text, desc, flags = make_mutant(args.seed, units)
        body = "/* seed %d from %s: %s; flags: %s */\n%s" % (
            args.seed, name, "; ".join(desc).replace("*/", "* /"),
            " ".join(flags), text)
        if args.o == "-":
            sys.stdout.write(body)
        else:
            with open(args.o, "w") as f:
                f.write(body)
        return
    env = Env(args)
    with open(args.file) as f:
        text = f.read()
    wd = tempfile.mkdtemp(prefix="bd-check-")
    try:
        fails = check(env, text, shlex.split(args.flags), wd, args.src_dir)
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    for kind, key, detail in fails:
        print("%s: %s\n%s" % (kind, key, detail))
    if fails and args.reduce:
        wd = tempfile.mkdtemp(prefix="bd-reduce-")
        try:
            text = reduce(env, text, shlex.split(args.flags), wd,
                          args.src_dir, fails[0], args.reduce_budget)
        finally:
            shutil.rmtree(wd, ignore_errors=True)
        with open(args.reduce, "w") as f:
            f.write(text)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
