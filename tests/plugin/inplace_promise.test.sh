# One array passed twice to a function of another file through its NAME_grad
# (docs/calls-in-place.md): the callee's file defines
# batchdiff.inplace:NAME:I:J where its body reads each element through I
# only before writing it through J and never writes through I, and the
# caller references it, so a callee that does not keep to it (reads rp[0]'s
# element through p after writing it) is a link error naming the promise,
# never a gradient of another function. A static function publishes none.
. "$SRC/lib.sh"

cat >g.c <<'C'
#include <batchdiff.h>
BATCHDIFF void good(double p[2], double rp[2]) {
  for (int i = 0; i < 2; i++)
    rp[i] = 2.0 * p[i] + 1.0;
}
BATCHDIFF void bad(double p[2], double rp[2]) {
  rp[0] = 2.0 * p[0];
  rp[1] = p[0];
}
static BATCHDIFF void hidden(double p[2], double rp[2]) { rp[0] = p[0]; }
void use_hidden(double *p) { hidden(p, p); }
C
expect_ok bdcc -O2 -Wall -Wextra -Werror -c g.c -o g.o
"$NM" --defined-only g.o >g.nm
for s in 'batchdiff.inplace:good:0:1' 'batchdiff.inplace:good:0:0' \
  'batchdiff.inplace:bad:0:0'; do
  grep -qF "$s" g.nm || fail "g.o does not define '$s'"
done
for s in 'batchdiff.inplace:bad:0:1' 'batchdiff.inplace:good:1:0' \
  'batchdiff.inplace:hidden'; do
  if grep -qF "$s" g.nm; then
    fail "g.o defines '$s'"
  fi
done

caller() {
  cat >f.c <<C
#include <batchdiff.h>
#include <stdio.h>
BATCHDIFF void $1(double p[2], double rp[2]);
BATCHDIFF double f(double x) {
  double q[2] = {x, x * x};
  $1(q, q);
  return q[0] + 3.0 * q[1];
}
int main(void) {
  double x[2] = {1.5, -2.0}, r[2], d[2] = {0, 0};
  f_grad(2, x, r, NULL, d);
  printf("%g %g %g %g\\n", r[0], r[1], d[0], d[1]);
  return 0;
}
C
}

caller good
expect_ok bdcc -O2 -Wall -Wextra -Werror -c f.c -o f.o
run_rc 0 "$CLANG" f.o g.o "$RTLIB" -lsleef -lm -lpthread -o f
run_rc 0 ./f
# q = {2x + 1, 2x^2 + 1}: f = 2x + 1 + 6x^2 + 3, f' = 2 + 12x.
grep -qx '20.5 24 20 -22' "$WORK/last.out" ||
  fail "f's values or derivatives: $(cat "$WORK/last.out")"

caller bad
expect_ok bdcc -O2 -Wall -Wextra -Werror -c f.c -o f.o
run_rc 1 "$CLANG" f.o g.o "$RTLIB" -lsleef -lm -lpthread -o f
grep -qF "undefined reference to \`batchdiff.inplace:bad:0:1'" \
  "$WORK/last.out" || fail "no link error naming bad's promise"
