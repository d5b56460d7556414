#!/usr/bin/env bash
# The whole test suite: installs missing Debian packages, configures
# _build/test with clang-19, builds everything and runs CTest.
# Extra arguments go to ctest (e.g. -L runtime, -LE sse2, -R smoke).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BATCHDIFF_TEST_BUILD_DIR:-$root/_build/test}
jobs=$(nproc 2>/dev/null || echo 2)

"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang-19 \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBATCHDIFF_BUILD_TESTS=ON
cmake --build "$build" --parallel "$jobs"
ctest --test-dir "$build" --output-on-failure --parallel "$jobs" "$@"
