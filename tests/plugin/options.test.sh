# -fplugin-arg-batchdiff-*: unknown options fail the compile; emit=DIR and
# header=FILE write their files; I/O failures are errors.
. "$SRC/lib.sh"

run_rc 1 bdcc -fplugin-arg-batchdiff-bogus -c "$IN/accepted.c" -o x.o
grep -q "error: unknown batchdiff option 'bogus'" last.out ||
  fail "no unknown-option error"
[ ! -e x.o ] || fail "object written despite unknown option"
run_rc 1 bdcc -fplugin-arg-batchdiff-emit= -fsyntax-only "$IN/accepted.c"
grep -q "unknown batchdiff option 'emit='" last.out || fail "empty emit="

# Options for other plugins are none of our business.
expect_ok bdcc -fplugin-arg-otherplugin-x -c "$IN/accepted.c" -o o.o

expect_ok bdcc -fplugin-arg-batchdiff-emit=out/gen \
  -fplugin-arg-batchdiff-header=out/acc.h -c "$IN/accepted.c" -o acc.o
[ -s out/gen/accepted.c.batchdiff.c ] || fail "emit=DIR wrote nothing"
grep -q sq_batched out/gen/accepted.c.batchdiff.c || fail "emit misses sq"
grep -q c23_grad out/gen/accepted.c.batchdiff.c || fail "emit misses c23"
grep -q '#include <stddef.h>' out/acc.h || fail "header lacks stddef.h"
grep -q '#ifndef BATCHDIFF_GENERATED_ACC_H' out/acc.h || fail "no guard"
grep -q 'cube_grad' out/acc.h || fail "header misses cube_grad"
grep -q 'void fwd_jvp(size_t n, const double \*x, double w, const double \*t_x, const double \*t_w, double \*ret, double \*d_ret);' out/acc.h ||
  fail "header misses fwd_jvp or its ABI changed"
# The header is valid C and matches the generated definitions.
printf '#include "out/acc.h"\n#include "out/acc.h"\n' >use.c
cat "$IN/accepted.c" >>use.c
expect_ok bdcc -Wall -Werror -I. -c use.c -o use.o

# remarks: reported through clang as remarks; the compile still succeeds.
run_rc 0 bdcc -fplugin-arg-batchdiff-remarks -c "$IN/accepted.c" -o rem.o
grep -q "remark:" last.out || fail "remarks option printed no remark"

# stdin: the emitted file is named after "stdin".
expect_ok bdcc -fplugin-arg-batchdiff-emit=out/stdin -x c -c - -o stdin.o \
  <"$IN/accepted.c"
[ -s out/stdin/stdin.batchdiff.c ] || fail "emit for stdin"

# Unwritable destinations are errors, not crashes.
: >plainfile
run_rc 1 bdcc -fplugin-arg-batchdiff-emit=plainfile/sub -c "$IN/accepted.c" \
  -o bad.o
grep -q "error: batchdiff cannot create directory" last.out || fail "emit err"
run_rc 1 bdcc -fplugin-arg-batchdiff-header=plainfile/x.h \
  -c "$IN/accepted.c" -o bad.o
grep -q "error: batchdiff cannot write" last.out || fail "header err"

# Header search without -I: an installed plugin (prefix/lib/batchdiff/) finds
# prefix/include first; a build-tree plugin falls back to the source tree.
mkdir -p prefix/lib/batchdiff prefix/include
cp "$PLUGIN" prefix/lib/batchdiff/batchdiff.so
printf '#define FROM_PREFIX 1\n' >prefix/include/batchdiff.h
printf '#include <batchdiff.h>\n#ifndef FROM_PREFIX\n#error wrong\n#endif\n' \
  >which.c
expect_ok "$CLANG" -fplugin=prefix/lib/batchdiff/batchdiff.so -fsyntax-only \
  which.c
printf '#include <batchdiff.h>\n#ifndef __BATCHDIFF__\n#error no\n#endif\n' \
  >pre.c
expect_ok bdcc -fsyntax-only pre.c

# math=outline (and the default math=inline): costly math goes through one
# out-of-line copy per file (bd_ool_*, docs/compile-time.md) instead of an
# inline body at every call; values and gradients are the same bits, at
# the baseline target and the build machine's own.
run_rc 1 bdcc -fplugin-arg-batchdiff-math=fast -fsyntax-only "$IN/accepted.c"
grep -q "unknown batchdiff option 'math=fast'" last.out || fail "math=fast"
for arch in -march=x86-64 -march=native; do
  expect_ok bdcc -O2 $arch -DMO\(n\)=n -fplugin-arg-batchdiff-math=inline \
    -fplugin-arg-batchdiff-emit=out/mi -c "$IN/math_outline.c" -o mi.o
  expect_ok bdcc -O2 $arch -DMO\(n\)=n##_o -fplugin-arg-batchdiff-math=outline \
    -fplugin-arg-batchdiff-emit=out/mo -c "$IN/math_outline.c" -o mo.o
  expect_no_text out/mi/math_outline.c.batchdiff.c bd_ool_
  grep -q 'bd_ool_tanh_f64d(' out/mo/math_outline.c.batchdiff.c ||
    fail "math=outline: no bd_ool_tanh_f64d call"
  expect_no_text out/mo/math_outline.c.batchdiff.c 'bd_tanh_f64d('
  # One copy of each inline body per file, called from every kernel.
  [ "$("$NM" mo.o | grep -c ' bd_ool_tanh_f64d$')" = 1 ] ||
    fail "math=outline: not one bd_ool_tanh_f64d in the object"
  [ "$("$NM" mi.o | grep -c ' bd_ool_')" = 0 ] ||
    fail "math=inline: out-of-line copies in the object"
  expect_ok "$CLANG" -O2 $arch -c "$IN/math_outline_main.c" -o mm.o
  expect_ok "$CLANG" mm.o mi.o mo.o "$RTLIB" -lsleef -lm -lpthread -o mcmp
  run_rc 0 ./mcmp
done
