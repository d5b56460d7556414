# One diagnostics case: sh run_case.sh NAME compiles cases/NAME.c with the
# plugin and checks, from directives in the file:
#   // FLAGS: ...      extra clang flags (default none)
#   // EXIT: N         expected exit status (default 1: a compile error)
#   // DEFINES: S...   symbols the object must define (only when EXIT is 0)
#   // NOREFS: S...    symbols the object must neither define nor reference
#                      (only when EXIT is 0)
#   // GENERATED: why  the error comes after code generation (output files),
#                      so skip the check that the AST holds nothing generated
#   // CHECK: ...      FileCheck lines; every diagnostic line is matched in
#                      full (--match-full-lines) and no other error or
#                      warning may appear.
# With EXIT 1 it also checks that `-c` writes no object and that nothing
# generated (no *_batched / *_grad declaration) entered the AST.
. "$SRC/../plugin/lib.sh"
name=$1
case_file="$SRC/cases/$name.c"
[ -f "$case_file" ] || fail "no case $case_file"
# Compiled under its own short name so diagnostics read "NAME.c:L:C: ...".
cp "$case_file" "$name.c"
# A case may include its own header, cases/NAME.h (a function another file
# defines, declared outside the file being compiled).
[ ! -f "$SRC/cases/$name.h" ] || cp "$SRC/cases/$name.h" "$name.h"
flags=$(sed -n 's|^// FLAGS: ||p' "$name.c")
want=$(sed -n 's|^// EXIT: ||p' "$name.c")
want=${want:-1}
defines=$(sed -n 's|^// DEFINES: ||p' "$name.c")
norefs=$(sed -n 's|^// NOREFS: ||p' "$name.c")
: >plainfile # for cases whose outputs must fail to be written

# shellcheck disable=SC2086 # flags are words
run_rc "$want" bdcc -fsyntax-only -fno-color-diagnostics \
  -fno-caret-diagnostics -fno-diagnostics-show-option $flags "$name.c"
expect_no_text last.out "PLEASE submit a bug report"
"$FILECHECK" --match-full-lines --implicit-check-not=error: \
  --implicit-check-not=warning: --implicit-check-not=remark: \
  --input-file=last.out "$name.c"

if [ "$want" -eq 1 ]; then
  run_rc 1 bdcc -c $flags "$name.c" -o "$name.o"
  [ ! -e "$name.o" ] || fail "object written despite errors"
  if grep -q '^// GENERATED: ' "$name.c"; then exit 0; fi
  set +e
  bdcc -fsyntax-only -Xclang -ast-dump -fno-color-diagnostics $flags \
    "$name.c" >ast.txt 2>&1
  set -e
  # (Diagnostics may name NAME_grad themselves: only the AST counts.)
  grep -v ': error: ' ast.txt >ast_only.txt || true
  if grep -E '[A-Za-z0-9]_(batched|grad|jvp)\b' ast_only.txt >/dev/null; then
    grep -E '[A-Za-z0-9]_(batched|grad|jvp)\b' ast_only.txt | head >&2
    fail "generated declarations despite the error"
  fi
else
  run_rc "$want" bdcc -c $flags "$name.c" -o "$name.o"
  [ -z "$defines" ] || expect_syms "$name.o" $defines
  for s in $norefs; do
    if "$NM" "$name.o" | awk '{print $NF}' | grep -qx "$s"; then
      fail "$name.o references $s"
    fi
  done
fi
