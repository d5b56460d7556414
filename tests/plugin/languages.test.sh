# <batchdiff.h> under every C standard and in C++; the runtime headers and
# the header= output as C++; a C++ program linking the generated functions
# of a C file (inputs/cxx/).
. "$SRC/lib.sh"
: "${CLANGXX:?}"
WARN="-Wall -Wextra -Werror -pedantic"

printf '#include <batchdiff.h>\nint twice(int x) { return 2 * x; }\n' >plain.c
printf '#include <batchdiff.h>\nBATCHDIFF double f(double x) { return x * x; }\n' >annot.c

# Every C standard: a file that includes the header compiles cleanly.
for std in c89 gnu89 iso9899:199409 c99 gnu99 c11 gnu11 c17 c23; do
  # shellcheck disable=SC2086
  expect_ok bdcc -std=$std $WARN -c plain.c -o plain.o
done
# C99 and later: annotated functions compile, the runtime is declared.
for std in c99 c11 c17 c23; do
  # shellcheck disable=SC2086
  expect_ok bdcc -std=$std $WARN -c annot.c -o annot.o
  expect_syms annot.o f f_batched f_grad
done
# Before C99: one error at the annotated function, nothing from the headers.
for std in c89 gnu89 iso9899:199409; do
  run_rc 1 bdcc -std=$std -fsyntax-only -fno-color-diagnostics annot.c
  [ "$(grep -c 'error:' last.out)" -eq 1 ] || {
    cat last.out >&2
    fail "-std=$std: expected exactly one error"
  }
  grep -q "^annot.c:2:18: error: batchdiff generates C99: compile 'f' as C99 or later" \
    last.out || fail "-std=$std: not the documented error"
done

# C++ with the plugin loaded (pkg-config --cflags in a mixed project): the
# header declares the runtime; annotated C++ functions get the one error.
cp plain.c plain.cpp
for std in c++98 c++11 c++17 c++20; do
  # shellcheck disable=SC2086
  expect_ok "$CLANGXX" -fplugin="$PLUGIN" -std=$std $WARN -c plain.cpp -o p.o
done
cp annot.c annot.cpp
run_rc 1 "$CLANGXX" -fplugin="$PLUGIN" -fsyntax-only -fno-color-diagnostics \
  annot.cpp
[ "$(grep -c 'error:' last.out)" -eq 1 ] || fail "C++: expected one error"
grep -q "annot.cpp:2:18: error: batchdiff generates C99: .*not as C++" \
  last.out || fail "C++: not the documented error"

# Every runtime header compiles as C++ on its own, for SSE2 and AVX2.
RTINC="$SRC/../../runtime/include"
for h in batchdiff_rt.h parallel.h tape.h simd.h vmath.h gen_support.h; do
  printf '#include <batchdiff/%s>\n' "$h" >h.cpp
  for isa in "" -mavx2; do
    # shellcheck disable=SC2086
    expect_ok "$CLANGXX" -I"$RTINC" $isa $WARN -fsyntax-only h.cpp
  done
done

# A C++ caller of a C file's generated functions, through header=.
CX="$IN/cxx"
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-header=model.h -c "$CX/model.c" -o model.o
for std in c++98 c++11 c++17; do
  printf '#include "model.h"\n' >hdr.cpp
  # shellcheck disable=SC2086
  expect_ok "$CLANGXX" -std=$std $WARN -I. -fsyntax-only hdr.cpp
done
# The header is still C (C99 and later) and matches the definitions.
printf '#include "model.h"\n' >hdr.c
cat "$CX/model.c" >>hdr.c
expect_ok bdcc -std=c99 $WARN -I"$CX" -I. -c hdr.c -o hdr.o
expect_ok "$CLANGXX" -fplugin="$PLUGIN" -O2 -march=native -std=c++11 $WARN \
  -I. -c "$CX/caller.cpp" -o caller.o
expect_ok "$CLANGXX" caller.o model.o "$RTLIB" -lsleef -lm -lpthread \
  -o caller
run_rc 0 ./caller
