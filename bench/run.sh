#!/usr/bin/env bash
# Builds the benchmarks (Release, -O3 -march=native, in-tree plugin) in
# _build/bench and runs them all, then prints one table of ratios.
#   bench/run.sh [n] [reps]      defaults: 32768 examples (the data stays in
#                                cache: this measures compute), median of 51
#                                runs, baseline and batchdiff alternating
# Installs the build's packages and the peers of bench/debian-packages.txt
# (Ceres, ADOL-C) when missing.
# Environment: BATCHDIFF_BENCH_BUILD_DIR (build directory), BATCHDIFF_BENCH_SKIP_BUILD=1,
# BATCHDIFF_BENCH_MARCH (-march= for everything, default native; e.g. x86-64-v3 for
# 256-bit vectors on an AVX-512 machine: use its own build directory).
# The per-core programs run with BATCHDIFF_NUM_THREADS=1 (their baselines
# are single-threaded); bench_threads (thread scaling, 1 vs
# BATCHDIFF_BENCH_THREADS threads, default 2, at 10^6 examples) runs last.
# Ratios are baseline time / batchdiff time (higher is better) except rows
# marked "cost" (batchdiff time / reference time, lower is better).
# Each program also checks its results and exits nonzero on disagreement.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BATCHDIFF_BENCH_BUILD_DIR:-$root/_build/bench}
jobs=$(nproc 2>/dev/null || echo 2)
progs=(bench_float bench_double bench_divergent bench_chains bench_grad bench_peers bench_jvp bench_hvp
  bench_ragged bench_arrays)
threads=${BATCHDIFF_BENCH_THREADS:-2}

if [[ ${BATCHDIFF_BENCH_SKIP_BUILD:-0} != 1 ]]; then
  "$root/scripts/deps.sh" "$root/scripts/debian-packages.txt" \
    "$root/bench/debian-packages.txt"
  cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang-19 \
    -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=Release \
    -DBATCHDIFF_BUILD_TESTS=OFF -DBATCHDIFF_BUILD_BENCH=ON \
    -DBATCHDIFF_BENCH_MARCH="${BATCHDIFF_BENCH_MARCH:-native}" >/dev/null
  cmake --build "$build" --parallel "$jobs" --target "${progs[@]}" \
    bench_threads >/dev/null
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
for p in "${progs[@]}"; do
  exe=$build/bench/$p
  echo "== $p $*" >&2
  if ! BATCHDIFF_NUM_THREADS=1 "$exe" "$@" | tee -a "$out" | grep -v '^ROW|' >&2; then
    echo "run.sh: $p reported a failed check" >&2
    status=1
  fi
done
echo "== bench_threads 1000000 11 $threads" >&2
if ! "$build/bench/bench_threads" 1000000 11 "$threads" | tee -a "$out" |
  grep -v '^ROW|' >&2; then
  echo "run.sh: bench_threads reported a failed check" >&2
  status=1
fi

echo
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" \
  "($(nproc) cpus); -march=${BATCHDIFF_BENCH_MARCH:-native}; load average $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F'|' '
  BEGIN { printf "%-12s %-52s %11s %11s %8s  %s\n", "group", "case",
          "base ns/ex", "ours ns/ex", "ratio", "target";
          printf "%s\n", "-----------------------------------------------------------------------------------------------------------" }
  $1 == "ROW" { printf "%-12s %-52s %11s %11s %7sx  %s\n", $2, $3, $4, $5, $6, $7 }
' "$out"
exit $status
