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
