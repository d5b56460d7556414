# Records of 9 to 16 members of one type (a ray-sphere hit: distance,
# point, normal, reflected direction, 10 doubles) are dense: full groups of
# W records are read and written as W rows of M elements transposed in
# registers (bd_rows_load, bd_rows_store: emit/RecordLanes.cpp), not member
# by member through lane buffers (W scalar loads or stores per member).
# Checked in the generated wrappers: the struct parameter, the returned
# records, NAME_grad's seeds d_ret and the shadow records; a record of 17
# members stays member by member. Values and gradients are checked in
# tests/structs/test_struct_dense8.c.
. "$SRC/lib.sh"

cat >r.c <<'C'
#include <batchdiff.h>
typedef struct { double t, px, py, pz, nx, ny, nz, rx, ry, rz; } hit;
typedef struct { double q[17]; } d17;
BATCHDIFF hit shift(hit h, double s) {
  hit o = h;
  o.t = h.t * s;
  o.rz = h.px + s;
  return o;
}
BATCHDIFF double sum17(d17 a) { return a.q[0] + a.q[16]; }
C
mkdir -p em
expect_ok bdcc -O2 -march=x86-64-v3 -Wall -Wextra -Werror \
  -fplugin-arg-batchdiff-emit=em -c r.c -o r.o
expect_syms r.o shift_batched shift_grad sum17_batched sum17_grad
fn() { awk "/^static void __bd_$1\\(/ {p = 1} p && /^}/ {exit} p" em/r.c.batchdiff.c; }
fn shift_bc >bc.txt
fn shift_gc >gc.txt
fn sum17_bc >s17.txt
[ -s bc.txt ] && [ -s gc.txt ] && [ -s s17.txt ] || fail "no chunk functions"
# shift_batched: the parameter read and the result written as rows of 10
grep -q 'bd_rows_load_f64d((const double \*)(__bd_a0 + ' bc.txt ||
  fail "shift_batched does not read h as rows"
grep -q 'bd_rows_store_f64d((double \*)(__bd_ret + ' bc.txt ||
  fail "shift_batched does not write ret as rows"
# shift_grad: the seeds read and the shadow d_h added to as rows
grep -q 'bd_rows_load_f64d((const double \*)(__bd_dret + ' gc.txt ||
  fail "shift_grad does not read d_ret as rows"
grep -q 'bd_rows_store_f64d((double \*)(__bd_d0 + ' gc.txt ||
  fail "shift_grad does not add to d_h as rows"
# 17 members: one lane buffer per member, no rows
if grep -q 'bd_rows_' s17.txt; then
  fail "sum17_batched: a record of 17 members read as rows"
fi
echo ok
