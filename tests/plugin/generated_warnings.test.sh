# The generated code is warning-free under -Wall -Wextra: clang hides
# warnings in it (a system buffer, <batchdiff:NAME>) unless -Wsystem-headers,
# and the emitted file (emit=DIR) compiled after the original shows them.
# Inputs: inputs/genwarn/*.c (constructs tests/robust/mutate.py found).
. "$SRC/lib.sh"
ROOT="$SRC/../.."
INC="-I$ROOT/annotations -I$ROOT/runtime/include"
for src in "$IN"/genwarn/*.c; do
  base=$(basename "$src" .c)
  for opt in -O0 "-O2 -march=native" \
    "-O2 -march=native -fplugin-arg-batchdiff-chains=4"; do
    # shellcheck disable=SC2086
    run_rc 0 bdcc $opt $INC -Wall -Wextra -Wsystem-headers \
      -fno-caret-diagnostics -c "$src" -o "$base.o"
    if grep '<batchdiff:' last.out; then
      fail "$base: a diagnostic in the generated code with $opt"
    fi
  done
  rm -rf em
  # shellcheck disable=SC2086
  bdcc $INC -fplugin-arg-batchdiff-emit=em -c "$src" -o "$base.o"
  printf '#include <batchdiff/batchdiff_rt.h>\n#include <batchdiff/gen_support.h>\n' |
    cat - "$src" "em/$base.c.batchdiff.c" >combined.c
  expect_ok "$CLANG" -Wall -Wextra -Werror -isystem "$ROOT/annotations" \
    -isystem "$ROOT/runtime/include" -c combined.c -o combined.o
done
