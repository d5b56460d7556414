# A function of another file called through its NAME_batched / NAME_grad
# (docs/calls.md, "Batch functions of other files") is called with the ABI
# the caller's declaration gives. The callee's file defines a symbol naming
# the ABI of each function it generates ("batchdiff.abi:double g(double,
# uniform double):batched"), the caller references the one its declaration
# names: a header that does not match the definition (a BD_UNIFORM or
# BD_NODIFF missing, another parameter type) is a link error naming it,
# not a call that reads a value as a pointer.
. "$SRC/lib.sh"

cat >g.c <<'C'
#include <batchdiff.h>
BATCHDIFF double g(double x, BD_UNIFORM double w, BD_NODIFF double s) {
  return x * x * w + s;
}
static BATCHDIFF double hidden(double x) { return x + 1; }
double use_hidden(double x) { return hidden(x); }
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c g.c -o g.o
"$NM" --defined-only g.o >g.nm
for s in 'batchdiff.abi:double g(double, uniform double, double):batched' \
  'batchdiff.abi:double g(double, uniform double, nodiff double):grad'; do
  grep -qF "$s" g.nm || fail "g.o does not define '$s'"
done
# (internal linkage: no caller in another file, no symbol)
if grep -q 'batchdiff.abi:double hidden' g.nm; then
  fail "g.o defines an ABI symbol for a static function"
fi

# caller DECL: f calls g declared as DECL; f_batched and f_grad are used.
caller() {
  cat >f.c <<C
#include <batchdiff.h>
#include <stdio.h>
$1;
BATCHDIFF double f(double x) { return x > 0 ? g(x, 2.0, 0.5) : -x; }
int main(void) {
  double x[3] = {1.5, -2.0, 3.0}, r[3], d[3] = {0, 0, 0};
  f_batched(3, x, r);
  f_grad(3, x, NULL, NULL, d);
  printf("%g %g %g %g %g %g\\n", r[0], r[1], r[2], d[0], d[1], d[2]);
  return 0;
}
C
}

# The declaration as the definition has it: links and gives g's values.
caller 'BATCHDIFF double g(double x, BD_UNIFORM double w, BD_NODIFF double s)'
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c f.c -o f.o
run_rc 0 "$CLANG" f.o g.o "$RTLIB" -lsleef -lm -lpthread -o f
run_rc 0 ./f
grep -qx '5 2 18.5 6 -1 12' "$WORK/last.out" ||
  fail "f's values or derivatives: $(cat "$WORK/last.out")"

# BD_UNIFORM missing: f_batched would pass a pointer where g_batched takes
# the value.
caller 'BATCHDIFF double g(double x, double w, BD_NODIFF double s)'
expect_ok bdcc -O2 -march=native -c f.c -o f.o
run_rc 1 "$CLANG" f.o g.o "$RTLIB" -lsleef -lm -lpthread -o f
grep -qF "undefined reference to \`batchdiff.abi:double g(double, double, double):batched'" \
  "$WORK/last.out" || fail "no link error naming g's batched ABI"
grep -qF 'batchdiff.abi:double g(double, double, nodiff double):grad' \
  "$WORK/last.out" || fail "no link error naming g's grad ABI"

# BD_NODIFF missing: NAME_batched's ABI is the same (links for f_batched
# alone); NAME_grad's has one more shadow.
caller 'BATCHDIFF double g(double x, BD_UNIFORM double w, double s)'
expect_ok bdcc -O2 -march=native -c f.c -o f.o
run_rc 1 "$CLANG" f.o g.o "$RTLIB" -lsleef -lm -lpthread -o f
grep -qF 'batchdiff.abi:double g(double, uniform double, double):grad' \
  "$WORK/last.out" || fail "no link error naming g's grad ABI"
if grep -q ':batched' "$WORK/last.out"; then
  fail "g's batched ABI reported although it matches"
fi

# Another parameter type (float for double).
caller 'BATCHDIFF double g(float x, BD_UNIFORM double w, BD_NODIFF double s)'
expect_ok bdcc -O2 -march=native -c f.c -o f.o
run_rc 1 "$CLANG" f.o g.o "$RTLIB" -lsleef -lm -lpthread -o f
grep -qF 'batchdiff.abi:double g(float, uniform double, double):batched' \
  "$WORK/last.out" || fail "no link error naming g's batched ABI (float)"

# Pointers: an array the definition does not write is spelled a pointer to
# const on both sides, so a header may declare it as cephes' protos.h does,
# `void *` (or `double *`), and a table that is not const is passed
# (cephes' `polevl(x, P, N)` with `static double P[]`); one the definition
# writes is spelled as declared, and a call passing a table references the
# pointer to const: a link error, not a callee writing a shared table.
cat >h.c <<'C'
#include <batchdiff.h>
BATCHDIFF double poly(x, coef, n)
double x;
double coef[];
int n;
{
  double a, *p;
  int i;
  p = coef;
  a = *p++;
  i = n;
  do
    a = a * x + *p++;
  while (--i);
  return a;
}
BATCHDIFF double keep(double x, double *buf, int n) {
  buf[1] = x * n;
  return x * buf[0];
}
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -Wno-deprecated-non-prototype -c h.c -o h.o
"$NM" --defined-only h.o >h.nm
for s in 'batchdiff.abi:double poly(double, const double *, int):grad' \
  'batchdiff.abi:double keep(double, double *, int):batched'; do
  grep -qF "$s" h.nm || fail "h.o does not define '$s'"
done
for decl in 'void *' 'double *' 'const double *'; do
  cat >f.c <<C
#include <batchdiff.h>
#include <stdio.h>
#include <string.h>
BATCHDIFF double poly(double, $decl, int);
static double P[] = {1.5, -2.0, 0.25};
BATCHDIFF double f(double x) { return x * poly(x, P, 2); }
int main(void) {
  double x[5] = {1.5, -2.0, 3.0, 0.5, 7.25}, r[5], d[5] = {0};
  f_batched(5, x, r);
  f_grad(5, x, NULL, NULL, d);
  int bad = 0;
  for (int i = 0; i < 5; i++) {
    double s = f(x[i]), p = (1.5 * x[i] - 2.0) * x[i] + 0.25;
    double e = p + x[i] * (3.0 * x[i] - 2.0);
    bad += memcmp(&s, &r[i], sizeof s) != 0;
    bad += d[i] < e - 1e-12 * (1 + e * e) || d[i] > e + 1e-12 * (1 + e * e);
  }
  printf("%d\\n", bad);
  return bad != 0;
}
C
  expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c f.c -o f.o
  "$NM" f.o >f.nm
  grep -qF 'U batchdiff.abi:double poly(double, const double *, int):grad' \
    f.nm || fail "f.o ($decl) does not reference poly's grad ABI"
  run_rc 0 "$CLANG" f.o h.o "$RTLIB" -lsleef -lm -lpthread -o f
  run_rc 0 ./f
done

cat >f.c <<'C'
#include <batchdiff.h>
BATCHDIFF double keep(double, void *, int);
static double B[] = {1.0, 2.0};
BATCHDIFF double f(double x) { return keep(x, B, 1); }
int main(void) {
  double x[2] = {1, 2}, r[2];
  f_batched(2, x, r);
  return 0;
}
C
expect_ok bdcc -O2 -march=native -c f.c -o f.o
run_rc 1 "$CLANG" f.o h.o "$RTLIB" -lsleef -lm -lpthread -o f
grep -qF "undefined reference to \`batchdiff.abi:double keep(double, const double *, int):batched'" \
  "$WORK/last.out" || fail "no link error naming keep's batched ABI with const"
