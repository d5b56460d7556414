#!/usr/bin/env bash
# Builds batchdiff in _build/release and installs it to $BATCHDIFF_PREFIX
# (default ./_install), installing missing Debian packages first. Prints
# nothing else on stdout than the build's own output; used by demo.sh and
# examples.sh. Idempotent: a second run only re-checks.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/_build/release
prefix=${BATCHDIFF_PREFIX:-$root/_install}
jobs=$(nproc 2>/dev/null || echo 2)

"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang-19 \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=Release \
  -DBATCHDIFF_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$prefix"
cmake --build "$build" --parallel "$jobs"
cmake --install "$build"
