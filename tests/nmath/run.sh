#!/bin/sh
# R's nmath as found, against its scalar functions (README.md).
# R is GPL and not in this repository: give its sources.
#
#   sh tests/nmath/run.sh NMATH_DIR R_INCLUDE_DIR BUILD_DIR [WORK_DIR]
#
# NMATH_DIR      R's src/nmath
# R_INCLUDE_DIR  R's src/include (Rmath.h0.in, R_ext/)
# BUILD_DIR      a batchdiff build (lib/batchdiff/batchdiff.so, runtime/)
# Exit status 0 when every check passes. Needs clang-19.
set -eu
NM=$(cd "$1" && pwd)
RINC=$(cd "$2" && pwd)
BUILD=$(cd "$3" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${4:-$(mktemp -d)}
mkdir -p "$WORK/inc"
CC=${CC:-clang-19}
PLUGIN=$BUILD/lib/batchdiff/batchdiff.so
RT=$BUILD/runtime

# The configuration nmath's standalone build reads (x86-64 Linux, glibc).
cat > "$WORK/inc/config.h" <<'H'
#ifndef R_CONFIG_H
#define R_CONFIG_H
#define HAVE_LONG_DOUBLE 1
#define IEEE_754 1
#define HAVE_WORKING_ISFINITE 1
#define HAVE_NEARBYINT 1
#define HAVE_VISIBILITY_ATTRIBUTE 1
#define HAVE_WORKING_LOG1P 1
#define HAVE_LOG1PL 1
#define HAVE_EXPM1 1
#define HAVE_HYPOT 1
#define HAVE_LOG1P 1
#endif
H
cat > "$WORK/inc/Rconfig.h" <<'H'
#ifndef R_RCONFIG_H
#define R_RCONFIG_H
#define IEEE_754 1
#define HAVE_VISIBILITY_ATTRIBUTE 1
#define SIZEOF_SIZE_T 8
#endif
H
sed -e 's/@PACKAGE_VERSION@/nmath/' \
    -e 's/@RMATH_HAVE_WORKING_LOG1P@/# define HAVE_WORKING_LOG1P 1/' \
    "$RINC/Rmath.h0.in" > "$WORK/inc/Rmath.h"

FLAGS="-DHAVE_CONFIG_H -DMATHLIB_STANDALONE -I$WORK/inc -I$RINC -I$NM -w"

# The other files, compiled plainly (those the standalone build cannot
# compile without R, as the random generators' state, are left out: nothing
# here calls them).
rm -f "$WORK/libnmath_plain.a"
for f in "$NM"/*.c; do
  o=$WORK/plain_$(basename "$f" .c).o
  $CC -O2 $FLAGS -c "$f" -o "$o" 2>/dev/null || rm -f "$o"
done
ar rcs "$WORK/libnmath_plain.a" "$WORK"/plain_*.o
$CC -O2 -c "$HERE/nm_wrap_other.c" -o "$WORK/nm_wrap_other.o"

PL="-fplugin=$PLUGIN -I$ROOT/annotations -I$ROOT/runtime/include -O2 -march=native"
LINK="$WORK/nm_wrap_other.o $WORK/libnmath_plain.a -L$RT -lbatchdiff_rt -Wl,-rpath,$RT -lm"
$CC $PL $FLAGS -DNM_EXACT -include "$HERE/nm_wrap.h" "$HERE/nm_batch.c" $LINK \
  -o "$WORK/nm_batch_exact"
$CC $PL $FLAGS "$HERE/nm_batch.c" $LINK -o "$WORK/nm_batch"
$CC $PL $FLAGS "$HERE/nm_diff.c" $LINK -o "$WORK/nm_diff"
$CC $PL $FLAGS -DNM_EXACT -include "$HERE/nm_wrap.h" "$HERE/nm_ldouble.c" \
  $LINK -o "$WORK/nm_ldouble_exact"
$CC $PL $FLAGS "$HERE/nm_ldouble.c" $LINK -o "$WORK/nm_ldouble"

status=0
for t in nm_batch_exact nm_batch nm_diff nm_ldouble_exact nm_ldouble; do
  echo "== $t"
  "$WORK/$t" > "$WORK/$t.stdout" || status=1
done
exit $status
