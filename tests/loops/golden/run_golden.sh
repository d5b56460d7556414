# One loop golden test: sh run_golden.sh NAME compiles NAME.c with
# -fplugin-arg-batchdiff-emit=DIR and compares the generated C with
# NAME.expected.c; UPDATE_GOLDEN=1 rewrites NAME.expected.c instead.
# Then FileCheck matches the CHECK lines of NAME.c (the mask structure the
# test is about) against the generated C, and the generated C must compile
# warning-free as C11 and GNU99 (-Wall -Wextra -pedantic -Werror) appended to
# the original, without the plugin. Same conventions as tests/golden.
. "$SRC/../../plugin/lib.sh"
name=$1
input="$SRC/$name.c"
expected="$SRC/$name.expected.c"
root="$SRC/../../.."
cp "$input" "$name.c"

expect_ok bdcc -std=c11 -Wall -Wextra -pedantic -Werror \
  -fplugin-arg-batchdiff-emit=out -c "$name.c" -o "$name.o"
got="out/$name.c.batchdiff.c"
[ -s "$got" ] || fail "nothing emitted for $name.c"

if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$got" "$expected"
  echo "updated $expected"
elif ! diff -u "$expected" "$got" >golden.diff; then
  cat golden.diff >&2
  fail "$name: generated C differs from $name.expected.c (UPDATE_GOLDEN=1 to accept)"
fi

"$FILECHECK" --input-file="$got" "$input" ||
  fail "$name: generated C lacks the loop/mask structure its CHECK lines state"

printf '#include <batchdiff/batchdiff_rt.h>\n#include <batchdiff/gen_support.h>\n' |
  cat - "$name.c" "$got" >combined.c
for std in c11 gnu99; do
  expect_ok "$CLANG" -std=$std -Wall -Wextra -pedantic -Werror \
    -isystem "$root/annotations" -isystem "$root/runtime/include" \
    -c combined.c -o "combined_$std.o"
  expect_syms "combined_$std.o" $(sed -n 's|^// DEFINES: ||p' "$name.c")
done
