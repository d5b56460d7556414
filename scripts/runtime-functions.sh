#!/bin/sh
# Prints every public function of the runtime headers (bd_*, not the
# internal bd__*), one a line as a C prototype, sorted by name, with the
# builds that have it: "all", "avx2" for the library's 256-bit entry points
# (AVX2 and AVX-512 builds) or "avx512" for its 512-bit ones (AVX-512F
# builds). Many names are made by token-pasting macros, so this list (kept in
# docs/runtime-functions.txt and checked by the test runtime.function_list)
# is where grep finds them.
#   scripts/runtime-functions.sh > docs/runtime-functions.txt
set -eu
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
cc=${CLANG:-clang-19}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <batchdiff/batchdiff_rt.h>\n#include <batchdiff/gen_support.h>\n' >"$tmp/rt.c"
# list FLAGS...: "name<TAB>prototype" of every top-level function declaration.
list() {
  "$cc" "$@" -fsyntax-only -I "$root/runtime/include" -Xclang -ast-dump \
    "$tmp/rt.c" |
    sed -n "s/^[|\`]-FunctionDecl .* \(bd_[A-Za-z0-9][A-Za-z0-9_]*\) '\([^']*\)'.*/\1	\2/p" |
    grep -v '^bd__' |
    awk -F'\t' '{ t = $2; d = 0  # the "(" that opens the parameter list
                  for (i = length(t); i > 0; i--) {
                    c = substr(t, i, 1)
                    if (c == ")") d++
                    if (c == "(" && --d == 0) break
                  }
                  ret = substr(t, 1, i - 1); sub(/ $/, "", ret)
                  sep = ret ~ /\*$/ ? "" : " "
                  print $1 "\t" ret sep $1 substr(t, i) }' |
    sort -u
}
list >"$tmp/base"
list -mavx2 -mfma >"$tmp/avx2"
list -mavx512f >"$tmp/avx512"
echo "# Public functions of the batchdiff runtime (scripts/runtime-functions.sh)"
echo "# builds  prototype"
# The widest build declares everything; a name is tagged with the narrowest
# build that has it.
awk -F'\t' 'FILENAME == ARGV[1] { base[$1] = 1; next }
            FILENAME == ARGV[2] { avx2[$1] = 1; next }
            { printf "%-7s %s\n", ($1 in base ? "all" : ($1 in avx2 ? "avx2" : "avx512")), $2 }' \
  "$tmp/base" "$tmp/avx2" "$tmp/avx512"
