# clang's target feature warnings are printed once per compile, as without
# the plugin (issue 8, item 7: six times on some AVX-512 hosts with
# -march=native). -mavx512f -mavx10.1-256 is such a combination on any host.
. "$SRC/lib.sh"
unset CCC_OVERRIDE_OPTIONS # (lib.sh's, on hosts where -march=native warns)

cat >t.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF double f(double x) { return sin(x) * x; }
C
TF="-mavx512f -mavx10.1-256"
count() { grep -c 'warning: invalid feature combination' last.out || true; }

# Clang alone prints it at most once (at -march=native on such a host, when
# it creates the target; here not at all: the file uses no x86 builtins).
# shellcheck disable=SC2086
run_rc 0 "$CLANG" $TF -I"$SRC/../../annotations" -fsyntax-only t.c
[ "$(count)" -le 1 ] || fail "clang itself printed $(count) warnings"
# With the plugin the runtime headers' builtins make clang compute feature
# maps (and warn) again and again: once is what is left (six before).
for mode in -fsyntax-only "-c -o t.o" "-O2 -c -o t.o"; do
  # shellcheck disable=SC2086
  run_rc 0 bdcc $TF $mode t.c
  [ "$(count)" -eq 1 ] || {
    cat last.out >&2
    fail "$mode: $(count) target warnings with the plugin"
  }
  grep -q '^1 warning generated' last.out || fail "$mode: warning count"
done
expect_syms t.o f f_batched f_grad
# Still a warning that -Werror turns into an error, and -w silences.
# shellcheck disable=SC2086
run_rc 1 bdcc $TF -Werror=invalid-feature-combination -fsyntax-only t.c
grep -q 'error: invalid feature combination' last.out || fail "-Werror"
# shellcheck disable=SC2086
expect_ok bdcc $TF -w -fsyntax-only t.c
# Other diagnostics are untouched: a user warning after them is counted.
printf 'int g(void) { int unused; return 0; }\n' >>t.c
# shellcheck disable=SC2086
run_rc 0 bdcc $TF -Wall -fsyntax-only t.c
grep -q "unused variable 'unused'" last.out || fail "user warning lost"
grep -q '^2 warnings generated' last.out || fail "count with a user warning"
