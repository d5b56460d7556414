# Compile cost of the inline double math (issue 8, docs/compile-time.md):
# tanh and expm1 read the bits of their reduction's z = x log2(e) + 1.5 *
# 2^52 through an empty asm (vmath_fast.h BD__BITS_DD), so that LLVM's
# InstCombine does not walk the floating-point expression behind that
# bitcast at each of its runs; exp keeps the plain cast in its cold
# general path (no asm there: it changed its callers' code). Checked on
# the -O2 IR at 512 and 256 bits; the results are the same bits either way
# (an empty asm), which tests/runtime's vmath tests check against libm.
. "$SRC/lib.sh"

cat >m.c <<'C'
#include <batchdiff.h>
void th(bd_f64d *p) { p[0] = bd_tanh_f64d(p[0]); }
void em(bd_f64d *p) { p[0] = bd_expm1_f64d(p[0]); }
void ex(bd_f64d *p) { p[0] = bd_exp_f64d(p[0]); }
C
fn() { awk "/^define .*@$1\\(/ {p = 1} p; p && /^}/ {exit}" m.ll; }
for m in native x86-64-v3; do
  expect_ok bdcc -O2 -march=$m -S -emit-llvm m.c -o m.ll
  for f in th em; do
    fn $f | grep -q 'asm "", "=v,0' || fail "$m: $f reads exp's bits without the asm"
  done
  if fn ex | grep -q 'asm "", "=v,0'; then fail "$m: exp has the asm"; fi
  grep -A3 '^define .*@bd__expgen_dd(' m.ll | head -1 | grep -q . ||
    fail "$m: no out-of-line bd__expgen_dd"
  if awk '/^define .*@bd__expgen_dd\(/ {p = 1} p; p && /^}/ {exit}' m.ll |
    grep -q 'asm "", "=v,0'; then fail "$m: exp's cold path has the asm"; fi
done
