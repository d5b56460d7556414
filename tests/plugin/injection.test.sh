# Generated code lands in the same translation unit right after each
# annotated definition, whatever token follows it and however clang is run.
. "$SRC/lib.sh"

SYMS="f_macro_batched f_include_batched f_pragma_batched f_diag_batched
f_attr_batched f_attr2_batched f_in_macro_batched f_in_macro2_batched
f_eof_batched f_eof_grad run_all"
FLAGS="-Wall -Wextra -Werror -I$IN"

for opt in -O0 -O2 "-O2 -g" "-O0 -g" -flto; do
  # shellcheck disable=SC2086
  expect_ok bdcc $FLAGS $opt -c "$IN/next_token.c" -o nt.o
  # shellcheck disable=SC2086
  expect_syms nt.o $SYMS
done

# Standard input.
# shellcheck disable=SC2086
expect_ok bdcc $FLAGS -x c -c - -o stdin.o <"$IN/next_token.c"
# shellcheck disable=SC2086
expect_syms stdin.o $SYMS

# -fsyntax-only: parses (and type-checks the generated code) only.
# shellcheck disable=SC2086
expect_ok bdcc $FLAGS -fsyntax-only "$IN/next_token.c"

# -S -emit-llvm and -S.
# shellcheck disable=SC2086
expect_ok bdcc $FLAGS -S -emit-llvm "$IN/next_token.c" -o nt.ll
for s in $SYMS; do
  grep -q "^define .*@$s(" nt.ll || fail "nt.ll does not define $s"
done
# shellcheck disable=SC2086
expect_ok bdcc $FLAGS -S "$IN/next_token.c" -o nt.s
grep -q '^f_eof_grad:' nt.s || fail "nt.s lacks f_eof_grad"

# -MD: dependencies name real files only, not the generated buffers.
# shellcheck disable=SC2086
expect_ok bdcc $FLAGS -MD -MF nt.d -c "$IN/next_token.c" -o nt.o
grep -q next_token.h nt.d || fail "dependency file lacks the header"
expect_no_text nt.d batchdiff:

# -g: the generated code has a (virtual) file in the line table.
# shellcheck disable=SC2086
expect_ok bdcc $FLAGS -g -c "$IN/next_token.c" -o ntg.o
expect_syms ntg.o $SYMS

# Two annotated files linked together (external generated symbols).
expect_ok bdcc -Wall -Werror -c "$IN/accepted.c" -o acc.o
printf 'int main(void) { return 0; }\n' >main.c
expect_ok "$CLANG" -c main.c -o main.o
expect_ok "$CLANG" main.o acc.o nt.o "$RTLIB" -lsleef -lm -o linked

# An annotated definition followed by the file's first #include of a header
# the runtime headers include too (<stdint.h>, <math.h>, <string.h>): the
# generated code waits for the parser to leave that header, then the
# program checks the generated functions against the scalar ones.
for opt in -O0 -O2; do
  # shellcheck disable=SC2086
  expect_ok bdcc $FLAGS $opt -c "$IN/include_after.c" -o ia.o
  expect_syms ia.o sq_batched sq_grad half_batched cube_batched
  expect_ok "$CLANG" ia.o "$RTLIB" -lsleef -lm -lpthread -o include_after
  expect_ok ./include_after
done
