#!/usr/bin/env bash
# Compile time with the plugin against plain clang-19 on the same file
# (issue 8, item 1): one straight-line function of N statements (like the
# generated residuals and unrolled kernels of real numeric code) for
# growing N, and a file of 20 ordinary annotated functions (also with the
# options that trade run time for compile time: math=outline, chains=1).
#   bench/compile_time.sh [reps]     default: median of 3 runs
# Environment: BATCHDIFF_PLUGIN (default: the in-tree build's plugin),
# BATCHDIFF_CT_SIZES (default "125 250 500 1000 2000"), BATCHDIFF_CT_ICOUNT=1
# (instructions instead of CPU time, see below).
# Times are user + system CPU seconds of the whole clang process (bash's
# `time`), -O2 -march=native -c; ratio = plugin / plain (lower is better).
# With BATCHDIFF_CT_ICOUNT=1: G instructions of clang's compile (valgrind
# --tool=cachegrind, one run: the count does not depend on the load). The
# driver resolves -march=native outside valgrind, whose CPUID has no AVX-512
# (under it, native is haswell: 256-bit code), and the plugin's debug
# information is stripped (valgrind cannot read clang-19's DWARF 5).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
plugin=${BATCHDIFF_PLUGIN:-$root/_build/test/lib/batchdiff/batchdiff.so}
# (else a plain _build, as configured for development)
[[ -n ${BATCHDIFF_PLUGIN:-} || -f $plugin ]] ||
  plugin=$root/_build/lib/batchdiff/batchdiff.so
reps=${1:-3}
sizes=${BATCHDIFF_CT_SIZES:-125 250 500 1000 2000}
[[ -f $plugin ]] || { echo "no plugin at $plugin (build it first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-O2 -march=native -I"$root/annotations" -I"$root/runtime/include" -c)

# longf N: N statements, a sin every third (as in issue 8's reproducer).
longf() {
  echo '#include <batchdiff.h>'
  echo '#include <math.h>'
  echo 'BATCHDIFF double longf(double x, double y) {'
  echo '  double a = x, b = y;'
  for ((i = 0; i < $1; i++)); do
    case $((i % 3)) in
    0) echo "  a = a * 0.999 + b * 0.00$((i % 7 + 1));" ;;
    1) echo "  b = b - 0.0005 * a + 0.000$((i % 5));" ;;
    2) echo '  a = a + sin(b) * 0.001;' ;;
    esac
  done
  echo '  return a + b;'
  echo '}'
}

# twenty: 20 ordinary functions (branches, a loop, math, uniform params).
twenty() {
  echo '#include <batchdiff.h>'
  echo '#include <math.h>'
  for ((i = 0; i < 20; i++)); do
    cat <<F
BATCHDIFF double f$i(double x, double y, BD_UNIFORM double w, int k) {
  double t = w * x + y * $i.5;
  if (t > 1.0)
    t = log1p(t) * y;
  else
    t = exp(-t * t) + x;
  for (int j = 0; j < k; j++)
    t = t * 0.5 + sqrt(fabs(t) + 1.0);
  return tanh(t) * w + (x > y ? x : y);
}
F
  done
}

# cpu CMD...: median over $reps runs of user+sys seconds.
cpu() {
  local ts=() t
  for ((r = 0; r < reps; r++)); do
    t=$({ TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 |
      awk '{printf "%.3f", $1 + $2}')
    ts+=("$t")
  done
  printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# icount CMD...: G instructions of CMD's compile: the cc1 command that
# -### prints (the driver itself, which would run it in-process, is left out).
icount() {
  local cmd
  cmd=$("$@" -### 2>&1 | grep '"-cc1"')
  eval "valgrind --tool=cachegrind --cache-sim=no" \
    "--cachegrind-out-file=$work/cg.out $cmd" >/dev/null 2>&1
  awk '/^summary:/ {printf "%.3f", $2 / 1e9}' "$work/cg.out"
}

measure=cpu
unit=s
if [[ ${BATCHDIFF_CT_ICOUNT:-0} == 1 ]]; then
  command -v valgrind >/dev/null || { echo "no valgrind" >&2; exit 1; }
  objcopy --strip-debug "$plugin" "$work/plugin.so"
  plugin=$work/plugin.so
  measure=icount
  unit=G
fi

plain_of= plain=
row() { # name file [plugin options...]: plain clang measured once per file
  local name=$1 file=$2 with
  shift 2
  if [[ $plain_of != "$file" ]]; then
    plain=$($measure clang-19 "${flags[@]}" "$file" -o "$work/p.o")
    plain_of=$file
  fi
  with=$($measure clang-19 -fplugin="$plugin" "$@" "${flags[@]}" "$file" \
    -o "$work/b.o")
  awk -v n="$name" -v p="$plain" -v w="$with" \
    'BEGIN {printf "%-34s %8.2f %8.2f %8.1fx\n", n, p, w, (p > 0 ? w / p : 0)}'
}

printf '%-34s %8s %8s %9s\n' "input" "plain $unit" "plugin $unit" "ratio"
for n in $sizes; do
  longf "$n" >"$work/long$n.c"
  row "straight-line, $n stmts" "$work/long$n.c"
done
twenty >"$work/twenty.c"
row "20 ordinary functions" "$work/twenty.c"
# The same file with the options that trade run time for compile time
# (docs/compile-time.md, "What 10x needs"): outlined math, one chain.
opt=-fplugin-arg-batchdiff
row "  with math=outline" "$work/twenty.c" $opt-math=outline
row "  with chains=1" "$work/twenty.c" $opt-chains=1
row "  with both" "$work/twenty.c" $opt-math=outline $opt-chains=1
