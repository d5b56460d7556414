# Files with errors: exit status 1 (not a signal), nothing generated once an
# error has occurred, no follow-on errors from generated code.
. "$SRC/lib.sh"

# An error before the annotated function: nothing generated at all.
run_rc 1 bdcc -fsyntax-only -Xclang -ast-dump -fno-color-diagnostics \
  "$IN/earlier_error.c"
grep -q "undeclared_identifier" last.out || fail "user error not reported"
expect_no_text last.out "f_batched"
expect_no_text last.out "f_grad"
expect_no_text last.out "batchdiff:"
run_rc 1 bdcc -c "$IN/earlier_error.c" -o ee.o
[ ! -e ee.o ] || fail "object written despite errors"

# Errors after (and inside) annotated functions: only the user's errors.
run_rc 1 bdcc -c -fno-color-diagnostics "$IN/later_error.c" -o le.o
[ "$(grep -c 'error:' last.out)" -eq 2 ] || {
  cat last.out >&2
  fail "expected exactly the two user errors"
}
expect_no_text last.out "batchdiff:"

# Same under -S -emit-llvm and with stdin.
run_rc 1 bdcc -S -emit-llvm "$IN/earlier_error.c" -o ee.ll
run_rc 1 bdcc -x c -c - -o ee.o <"$IN/earlier_error.c"
