#!/usr/bin/env python3
"""Random-program differential fuzzer for batchdiff (python3, stdlib only).

  gen.py gen  --seed S [--k K] [-o FILE]       write one generated C file
  gen.py run  --seeds 1-50 [--k K] [--build DIR] [--src DIR] [--out DIR]
              [--time-limit SECONDS] [--jobs J] [--sse2-every M]

`gen` writes K annotated functions (BATCHDIFF BD_JVP BD_HVP) plus, per
function, unannotated twins (the same body with every float made double,
in long double for finite differences, and with counting fmin/fmax) and
adapters (adapters.py), then a main() that runs tests/fuzz/fuzz_harness.h
over all of them.  `run` generates, compiles with the plugin, runs, and keeps
the C file of every failing seed in --out; a failing seed is re-checked
(recheck.py) and counted as CONTRACT or CLANG-MISCOMPILE, not failing,
only where its variants show it is not batchdiff's.  See
tests/fuzz/README.md.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import recheck
from features import FEATURES
from genfile import gen_file

HERE = os.path.dirname(os.path.abspath(__file__))
# a generated file with a second translation unit (--features bcalls)
OTHER = "#ifdef FZ_OTHER_FILE"


FEATURES_HELP = ("comma-separated constructs added after the first version "
                 "(%s, or all); the default output of a seed does not "
                 "change" % ", ".join(FEATURES))


def features(s):
    out = list(FEATURES) if s == "all" else [f for f in s.split(",") if f]
    for f in out:
        if f not in FEATURES:
            raise SystemExit("unknown feature %r (%s)" % (f, ", ".join(
                FEATURES)))
    return tuple(out)


def parse_seeds(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def clang_crashes_alone(src, cmd, workdir, seed):
    """clang crashed: does it crash on the annotated functions without the
    plugin too (a bug of clang's own optimizer on plain C, not of batchdiff:
    seed 665, early-cse on the scalar f3)?"""
    pre = os.path.join(workdir, "fuzz_%d_noplugin.c" % seed)
    with open(pre, "w") as f:
        f.write(src[:src.index("/* twins:")] + ("\n#endif\n" if OTHER in src
                                               else ""))
    c = [a for a in cmd[:cmd.index("-w")] if not a.startswith("-fplugin")]
    p = subprocess.run(c + ["-w", "-c", pre, "-o", os.devnull],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return "PLEASE submit a bug report" in p.stdout


def compile_and_run(cfile, args, sse2, extra=(), emit=None):
    """Compiles cfile with the plugin (plus flags extra; the generated C
    written to directory emit) and runs its checks: (status, output,
    (run seconds, run CPU seconds), compile seconds, command)."""
    exe = cfile[:-2]
    plugin = args.plugin or os.path.join(args.build, "lib", "batchdiff",
                                         "batchdiff.so")
    rtdir = args.rtdir or os.path.join(args.build, "runtime")

    def cc(em, more):
        return [args.cc, "-std=c11", "-O2"] + \
            ([] if sse2 else ["-march=native"]) + list(extra) + \
            ["-fplugin=" + plugin] + \
            (["-fplugin-arg-batchdiff-emit=" + em] if em else []) + \
            ["-I", os.path.join(args.src, "annotations"),
             "-I", os.path.join(args.src, "runtime", "include"), "-I", HERE,
             "-w"] + more
    with open(cfile) as f:
        other = OTHER in f.read()
    t0 = time.time()
    objs = []
    if other:
        # the batch, diff callees of --features bcalls: the file's other
        # part, a translation unit of its own, compiled with the plugin
        obj = exe + "_other.o"
        ocmd = cc(emit + ".other" if emit else None,
                  ["-DFZ_OTHER_FILE", "-c", cfile, "-o", obj])
        p = subprocess.run(ocmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0:
            return ("COMPILE", p.stdout, (0, 0), time.time() - t0, ocmd)
        objs = [obj]
    cmd = cc(emit, [cfile] + objs + ["-o", exe, "-L", rtdir,
                                     "-Wl,-rpath," + rtdir, "-lbatchdiff_rt",
                                     "-lm"])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    tc = time.time() - t0
    if p.returncode != 0:
        return ("COMPILE", p.stdout, (0, 0), tc, cmd)
    return run_exe(exe, args) + (tc, cmd)


def run_exe(exe, args, env=None):
    """Runs a seed's checks: (status, output, (run seconds, CPU seconds))."""
    t0 = time.time()
    run = [exe]
    if args.run_cpu_limit:
        # a limit on the CPU seconds the checks take, which load does not
        # stretch as wall time (SIGXCPU past the soft limit): setrlimit
        # through the shell, since preexec_fn is unsafe in threads
        run = ["/bin/sh", "-c", 'ulimit -S -t %d && exec "$0"' % int(
            args.run_cpu_limit), exe]
    rc, text, cpu = run_checks(run, args.run_timeout, env)
    tr = time.time() - t0
    if rc is None:
        return ("TIMEOUT", text, (tr, cpu))
    if args.run_cpu_limit and rc == -signal.SIGXCPU:
        return ("TIMEOUT(cpu %ds)" % int(args.run_cpu_limit), text, (tr, cpu))
    status = "OK" if rc == 0 else ("FAIL" if rc == 1 else "CRASH(%d)" % rc)
    return (status, text, (tr, cpu))


def run_one(seed, K, args, workdir):
    src = gen_file(seed, K, args.mutate_grad, features(args.features),
                   args.mutate_ret, args.mutate_global, args.mutate_ulp,
                   args.mutate_jvp, args.mutate_callee)
    cfile = os.path.join(workdir, "fuzz_%d.c" % seed)
    with open(cfile, "w") as f:
        f.write(src)
    sse2 = bool(args.sse2_every and seed % args.sse2_every == 0)
    emit = os.path.join(workdir, "emit_%d" % seed) if args.recheck else None
    status, text, tr, tc, cmd = compile_and_run(cfile, args, sse2, (), emit)
    note = None
    if status == "COMPILE" and "PLEASE submit a bug report" in text and \
            clang_crashes_alone(src, cmd, workdir, seed):
        status = "CLANG"
    elif status == "FAIL" and args.recheck:
        def build(tag, vsrc, flags):
            if tag == "asis":
                # again, every failure printed
                env = dict(os.environ, FZ_FAIL_PRINT="1000000000")
                r = run_exe(cfile[:-2], args, env)
                return r[0], emit, r[1]
            d = os.path.join(workdir, "recheck_%d_%s" % (seed, tag))
            os.makedirs(d, exist_ok=True)
            vfile = os.path.join(d, os.path.basename(cfile))
            with open(vfile, "w") as f:
                f.write(vsrc)
            e = os.path.join(d, "emit")
            r = compile_and_run(vfile, args, sse2, flags, e)
            return r[0], e, r[1]
        cls, note = recheck.classify(src, build)
        status = cls or status
    if emit:
        shutil.rmtree(emit, ignore_errors=True)
        shutil.rmtree(emit + ".other", ignore_errors=True)
    for d in os.listdir(workdir):
        if d.startswith("recheck_%d_" % seed):
            shutil.rmtree(os.path.join(workdir, d), ignore_errors=True)
    return (status, text, tc, tr, cfile, sse2, note)


def run_checks(cmd, timeout, env=None):
    """Runs the checks: (exit status or None past `timeout` wall seconds,
    output, CPU seconds (user + sys) of the process alone, which wait4
    gives even while other seeds' processes run)."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                env=env)
        deadline = time.time() + timeout
        late = False
        while True:
            pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.time() > deadline:
                late = True
                proc.kill()
                pid, st, ru = os.wait4(proc.pid, 0)
                break
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(st)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return (None if late else proc.returncode), text, \
        ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    g = sub.add_parser("gen")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--k", type=int, default=6)
    g.add_argument("-o", default="-")
    g.add_argument("--features", default="", help=FEATURES_HELP)
    r = sub.add_parser("run")
    r.add_argument("--seeds", default="1-20")
    r.add_argument("--k", type=int, default=6)
    r.add_argument("--build", default="/tmp/bdbuild-fuzz")
    r.add_argument("--plugin", default=None,
                   help="batchdiff.so (default: BUILD/lib/batchdiff/)")
    r.add_argument("--rtdir", default=None,
                   help="directory of libbatchdiff_rt (default: BUILD/runtime)")
    r.add_argument("--src", default=os.path.dirname(os.path.dirname(HERE)))
    r.add_argument("--cc", default="clang-19")
    r.add_argument("--out", default=None,
                   help="directory for the C files of failing seeds")
    r.add_argument("--time-limit", type=float, default=0)
    r.add_argument("--run-timeout", type=float, default=120,
                   help="wall seconds a seed's checks may take")
    r.add_argument("--run-cpu-limit", type=float, default=0,
                   help="CPU seconds a seed's checks may take (0: no "
                   "limit); unlike --run-timeout independent of the load")
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--sse2-every", type=int, default=3,
                   help="compile every M-th seed without -march=native "
                   "(SSE2); 0: never")
    r.add_argument("--min-checked", type=float, default=0.5,
                   help="smallest share of gradient points that must be "
                   "checked rather than skipped (runs with >= 200 points)")
    r.add_argument("--mutate-grad", type=float, default=0.0,
                   help="the harness compares every gradient scaled by "
                   "1 + this with the oracle (a deliberate bug: the run must "
                   "then fail)")
    r.add_argument("--mutate-global", type=int, default=0,
                   help="1: check 4 expects in a written global what "
                   "example n - 1 alone leaves, as if every example wrote "
                   "it; 2: it runs the scalar loop from another value of "
                   "the global, as if an example that does not write it "
                   "had to change it (deliberate bugs: globals written on "
                   "some paths only, --features gpaths, must then fail)")
    r.add_argument("--mutate-ret", type=float, default=0.0,
                   help="every NAME_batched result is scaled by 1 + this "
                   "before the checks (a deliberate bug: the run must fail "
                   "also where results are excused, e.g. by a NaN's sign)")
    r.add_argument("--mutate-jvp", type=float, default=0.0,
                   help="check 5 compares every NAME_jvp d_ret scaled by "
                   "1 + this (a deliberate bug: the run must then fail, "
                   "also where the gradient is off, jvp_gradoff; inf: every "
                   "d_ret not finite, which must fail too)")
    r.add_argument("--mutate-callee", type=float, default=0.0,
                   help="--features bcalls: the other file's NAME_grad "
                   "scales the partials it adds to its shadows by 1 + this "
                   "(a deliberate bug in the callees' partials: the run "
                   "must then fail)")
    r.add_argument("--mutate-ulp", type=int, default=0,
                   help="check 1 compares the scalar result with "
                   "NAME_batched's moved this many ULPs (of the result "
                   "type) at one example per function (n = 17, pattern 0, "
                   "example 8; exact results only): a small deliberate bug "
                   "of a contraction difference's form, which the re-checks "
                   "must not excuse")
    r.add_argument("--no-recheck", dest="recheck", action="store_false",
                   help="a failing seed is not re-checked (CONTRACT, "
                   "CLANG-MISCOMPILE: README.md)")
    r.add_argument("--features", default="", help=FEATURES_HELP)
    r.add_argument("--require", default="",
                   help="comma-separated STATS totals that must not be 0 "
                   "(e.g. gsome,gnone: batches where the last example "
                   "writing a global is not the last one, and where none "
                   "writes it); the run fails otherwise")
    r.add_argument("-v", action="store_true")
    args = ap.parse_args()
    if args.cmd == "gen":
        src = gen_file(args.seed, args.k, features=features(args.features))
        if args.o == "-":
            sys.stdout.write(src)
        else:
            with open(args.o, "w") as f:
                f.write(src)
        return 0
    if args.cmd != "run":
        ap.print_help()
        return 2
    seeds = parse_seeds(args.seeds)
    workdir = tempfile.mkdtemp(prefix="bdfuzz.")
    bad = 0
    clang_bugs = []  # clang crashes on the plain functions too: not ours
    # failures re-checked as not batchdiff's (recheck.py): (seed, reason)
    excused = {"CONTRACT": [], "CLANG-MISCOMPILE": []}
    nfn = 0
    done = 0
    t_start = time.time()
    totals = {}
    import concurrent.futures as cf
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        pending = {}
        it = iter(seeds)
        def submit():
            if args.time_limit and time.time() - t_start > args.time_limit:
                return False
            s = next(it, None)
            if s is None:
                return False
            pending[ex.submit(run_one, s, args.k, args, workdir)] = s
            return True
        for _ in range(max(1, args.jobs)):
            submit()
        while pending:
            fut = next(cf.as_completed(list(pending)))
            seed = pending.pop(fut)
            status, text, tc, (tr, tcpu), cfile, sse2, note = fut.result()
            done += 1
            nfn += args.k
            for line in text.splitlines():
                if line.startswith("STATS"):
                    for kv in line.split()[1:]:
                        k, v = kv.split("=")
                        # an excused seed's failed checks apart: the
                        # totals' fails are those of failing seeds
                        if k == "fails" and status in excused:
                            k = "fails_excused"
                        totals[k] = totals.get(k, 0) + int(v)
            print("seed %d%s: %s (compile %.1fs, run %.1fs, cpu %.1fs)" % (
                seed, " sse2" if sse2 else "", status, tc, tr, tcpu),
                flush=True)
            if status == "CLANG":
                clang_bugs.append(seed)
                print("  clang crashes on the functions without the plugin "
                      "too (a clang bug, not counted as failing)", flush=True)
                if args.out:
                    os.makedirs(args.out, exist_ok=True)
                    shutil.copy(cfile, args.out)
            elif status in excused:
                excused[status].append((seed, note))
                lines = text.splitlines()
                print("\n".join(lines[:20]), flush=True)
                print("  %s (not counted as failing): %s" % (status, note),
                      flush=True)
                if args.out:
                    os.makedirs(args.out, exist_ok=True)
                    shutil.copy(cfile, args.out)
            elif status != "OK":
                bad += 1
                lines = text.splitlines()
                print("\n".join(lines[:60]), flush=True)
                if note:
                    print("  " + note, flush=True)
                if args.out:
                    os.makedirs(args.out, exist_ok=True)
                    shutil.copy(cfile, args.out)
            elif args.v:
                print(text, end="")
            submit()
    shutil.rmtree(workdir, ignore_errors=True)
    print("seeds run: %d, functions: %d, failing seeds: %d, %.0fs" % (
        done, nfn, bad, time.time() - t_start))
    print("passing: %d, failing: %d, CONTRACT (docs/abi.md): %d, "
          "CLANG-MISCOMPILE: %d, CLANG: %d" % (
              done - bad - len(clang_bugs) - sum(map(len, excused.values())),
              bad, len(excused["CONTRACT"]), len(excused["CLANG-MISCOMPILE"]),
              len(clang_bugs)))
    for cls, lst in sorted(excused.items()):
        for seed, note in lst:
            print("%s: seed %d: %s" % (cls, seed, note))
    if clang_bugs:
        print("clang crashes without the plugin too (not counted): seeds %s"
              % ",".join(str(c) for c in clang_bugs))
    print("totals: " + " ".join("%s=%d" % kv for kv in sorted(totals.items())))
    # Skipping is only honest while most points are still checked: an
    # oracle that skips everything proves nothing.
    checked = totals.get("grad_fd", 0) + totals.get("uni_fd", 0)
    skipped = sum(totals.get(k, 0) for k in
                  ("kink", "floatpath", "overflow", "uni_skip"))
    if checked + skipped >= 200:
        share = checked / float(checked + skipped)
        print("gradient points checked: %d of %d (%.0f%%, minimum %.0f%%)" % (
            checked, checked + skipped, 100 * share, 100 * args.min_checked))
        if share < args.min_checked:
            print("too few gradient points checked")
            return 1
    # check 1's results: those excused by a NaN's sign (fz_nan_sign) stay
    # few (each file fails past FZ_NAN_SIGN_MAX of its own)
    compared = totals.get("exact", 0) + totals.get("tol", 0)
    if compared:
        print("results compared: %d, excused by a NaN's sign: %d, by a "
              "zero tie: %d, sensitive: %d, ulp: %d" % (
                  compared, totals.get("nan_sign", 0),
                  totals.get("zero_tie", 0), totals.get("sensitive", 0),
                  totals.get("ulp", 0)))
    if totals.get("ext_calls", 0) or totals.get("ext_skip", 0):
        print("outside-call checks: %d, skipped: %d" % (
            totals.get("ext_calls", 0), totals.get("ext_skip", 0)))
    missing = [k for k in args.require.split(",") if k and
               not totals.get(k, 0)]
    if missing:
        print("required totals are 0: %s" % ", ".join(missing))
        return 1
    hchecked, hskipped = totals.get("hvp_fd", 0), totals.get("hvp_skip", 0)
    if hchecked + hskipped >= 200:
        share = hchecked / float(hchecked + hskipped)
        print("H.v points checked: %d of %d (%.0f%%, minimum %.0f%%)" % (
            hchecked, hchecked + hskipped, 100 * share,
            100 * args.min_checked))
        if share < args.min_checked:
            print("too few H.v points checked")
            return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
