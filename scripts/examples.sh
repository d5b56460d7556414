#!/usr/bin/env bash
# Builds every example of examples/ against the *installed* batchdiff with
# pkg-config (as its README says), runs it at full size and draws its
# pictures: one command for all of them. Uses the batchdiff installed under
# $BATCHDIFF_PREFIX if that is set and holds one; otherwise builds and
# installs to ./_install first (scripts/install-local.sh).
#
#   scripts/examples.sh [name...]      (default: all of them)
#
# Outputs go to _build/examples/NAME/. Without gnuplot the data files are
# still written; the script says which pictures it could not draw.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${BATCHDIFF_PREFIX:-$root/_install}
all=(logreg rnn raytrace mandelbrot bundle_adjust legacy blackscholes implied_vol)
names=("$@")
((${#names[@]})) || names=("${all[@]}")

find_pc() { find "$prefix" -path '*/pkgconfig/batchdiff.pc' -print -quit 2>/dev/null; }
if [[ -z ${BATCHDIFF_PREFIX:-} || -z $(find_pc) ]]; then
  BATCHDIFF_PREFIX=$prefix "$root/scripts/install-local.sh"
fi
pc=$(find_pc)
[[ -n $pc ]] || { echo "examples: no batchdiff.pc under $prefix" >&2; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
gnuplot=$(command -v gnuplot || true)

pictures=()
for name in "${names[@]}"; do
  src=$root/examples/$name
  [[ -d $src ]] || { echo "examples: no examples/$name" >&2; exit 1; }
  out=$root/_build/examples/$name
  mkdir -p "$out"
  rm -f "$out"/*.png # only this run's pictures are listed below
  echo "=== $name"
  echo "+ clang-19 -O2 -march=native \$(pkg-config --cflags batchdiff) examples/$name/*.c \$(pkg-config --libs batchdiff) -o $name"
  clang-19 -std=c11 -O2 -march=native $(pkg-config --cflags batchdiff) \
    "$src"/*.c $(pkg-config --libs batchdiff) -o "$out/$name"
  (cd "$out" && "./$name")
  if [[ -f $src/plot.gp ]]; then
    if [[ -n $gnuplot ]]; then
      (cd "$out" && "$gnuplot" "$src/plot.gp")
    else
      echo "examples: gnuplot not found: $name's data is in $out (apt-get install gnuplot-nox, then gnuplot $src/plot.gp there)"
    fi
  fi
  shopt -s nullglob
  for png in "$out"/*.png; do pictures+=("${png#$root/}"); done
  shopt -u nullglob
  echo
done
if ((${#pictures[@]})); then
  echo "pictures:"
  printf '  %s\n' "${pictures[@]}"
fi
