#!/usr/bin/env bash
# The demo, from a fresh Debian 12 machine: installs missing Debian packages,
# builds batchdiff (_build/release), installs it to ./_install, then builds
# examples/blackscholes/ and examples/implied_vol/ against the *installed*
# plugin and runtime with pkg-config, exactly as a user would, and runs them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/_build/release
prefix=${BATCHDIFF_PREFIX:-$root/_install}

BATCHDIFF_PREFIX=$prefix "$root/scripts/install-local.sh"

pc=$(find "$prefix" -path '*/pkgconfig/batchdiff.pc' -print -quit)
[[ -n $pc ]] || { echo "demo: no batchdiff.pc under $prefix" >&2; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")

shopt -s nullglob
# What a user types (see README.md): every .c of an example compiled with
# the plugin, then linked with the runtime.
out=$build/demo
mkdir -p "$out"
for name in blackscholes implied_vol; do
  example=$root/examples/$name
  srcs=("$example"/*.c)
  if ((${#srcs[@]} == 0)); then
    echo "demo: no C sources in $example" >&2
    exit 1
  fi
  objs=()
  for src in "${srcs[@]}"; do
    obj=$out/$(basename "${src%.c}").o
    echo "+ clang-19 -O2 -march=native \$(pkg-config --cflags batchdiff) -c ${src#$root/}"
    clang-19 -O2 -march=native $(pkg-config --cflags batchdiff) -c "$src" -o "$obj"
    objs+=("$obj")
  done
  echo "+ clang-19 *.o \$(pkg-config --libs batchdiff) -o $name"
  clang-19 "${objs[@]}" $(pkg-config --libs batchdiff) -o "$out/$name"
  echo "+ ./$name"
  (cd "$out" && "./$name")
  if [[ -f $example/plot.gp ]]; then
    if command -v gnuplot >/dev/null; then
      (cd "$out" && gnuplot "$example/plot.gp")
      echo "(picture: $out/$name.png)"
    else
      echo "(gnuplot not found: not drawing $name.png; the data is in $out)"
    fi
  fi
  echo
done
echo "More examples, with pictures: scripts/examples.sh (examples/README.md)."
