# One golden test: sh run_golden.sh NAME compiles SRC/NAME.c with
# -fplugin-arg-batchdiff-emit=DIR and compares the generated C with
# SRC/NAME.expected.c; where SRC/NAME.ir.expected exists, it also compares
# the IR dump (BATCHDIFF_DUMP_IR=1: scalar IR, analyses, AD IR, batched IR).
# UPDATE_GOLDEN=1 rewrites the expected files instead. Where NAME.c has
# CHECK lines, FileCheck matches them against the generated C (the structure
# the test is about, independent of the exact text).
# Then it checks that the generated C is warning-free C11 and GNU99: the
# original file followed by the generated code, compiled *without* the
# plugin (with it, the functions would be generated a second time) under
# -Wall -Wextra -pedantic -Werror; and that the original compiles with the
# plugin under the same flags.
here=$(cd "$(dirname "$0")" && pwd)
root="$here/../.."
. "$root/tests/plugin/lib.sh"
name=$1
input="$SRC/$name.c"
expected="$SRC/$name.expected.c"
expected_ir="$SRC/$name.ir.expected"
# A local copy, so the emitted file's header names just "NAME.c".
cp "$input" "$name.c"

# compare GOT EXPECTED WHAT: the golden comparison (or its update).
compare() {
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$1" "$2"
    echo "updated $2"
  elif ! diff -u "$2" "$1" >golden.diff; then
    cat golden.diff >&2
    fail "$name: $3 differs from $(basename "$2") (UPDATE_GOLDEN=1 to accept)"
  fi
}

expect_ok bdcc -std=c11 -Wall -Wextra -pedantic -Werror \
  -fplugin-arg-batchdiff-emit=out -c "$name.c" -o "$name.o"
got="out/$name.c.batchdiff.c"
[ -s "$got" ] || fail "nothing emitted for $name.c"
compare "$got" "$expected" "generated C"

if [ -f "$expected_ir" ]; then
  BATCHDIFF_DUMP_IR=1 bdcc -std=c11 -fsyntax-only "$name.c" 2>ir.txt ||
    fail "$name: the IR dump run failed"
  grep -q '; batched:' ir.txt || fail "$name: the dump shows no batched IR"
  compare ir.txt "$expected_ir" "IR dump"
fi

if grep -q 'CHECK' "$input"; then
  "$FILECHECK" --input-file="$got" "$input" ||
    fail "$name: generated C lacks the structure its CHECK lines state"
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
