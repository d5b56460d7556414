# One golden test: sh run_golden.sh NAME compiles NAME.c with
# -fplugin-arg-batchdiff-emit=DIR and compares the generated C with
# NAME.expected.c. UPDATE_GOLDEN=1 rewrites NAME.expected.c instead.
# Then it checks that the generated C is warning-free C11 and GNU99: the
# original file followed by the generated code, compiled *without* the
# plugin (with it, the functions would be generated a second time) under
# -Wall -Wextra -pedantic -Werror; and that the original compiles with the
# plugin under the same flags.
. "$SRC/../plugin/lib.sh"
name=$1
input="$SRC/$name.c"
expected="$SRC/$name.expected.c"
root="$SRC/../.."
# A local copy, so the emitted file's header names just "NAME.c".
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

# What batchdiff.h includes when the plugin is loaded (the generated code
# then carries no #include of its own).
printf '#include <batchdiff/batchdiff_rt.h>\n#include <batchdiff/gen_support.h>\n' |
  cat - "$name.c" "$got" >combined.c
for std in c11 gnu99; do
  expect_ok "$CLANG" -std=$std -Wall -Wextra -pedantic -Werror \
    -isystem "$root/annotations" -isystem "$root/runtime/include" \
    -c combined.c -o "combined_$std.o"
  expect_syms "combined_$std.o" $(sed -n 's|^// DEFINES: ||p' "$name.c")
done
