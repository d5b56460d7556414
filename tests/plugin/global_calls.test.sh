# Globals around calls that may use them (docs/calls.md, "Globals such a
# call may write"; plugin/lower/GlobalCalls.cpp). Before, two wrong results:
# (1) a function writing a global, calling a function of another file that
# sets it, then reading it, read its own value for every example; (2) a
# function reading a global after calling another file's batch function
# that sets it read the value from before the batch (cephes' beta reading
# sgngam after lgam, once lgam is batch).
. "$SRC/lib.sh"

# (1) A function of another file, called once per example, that sets sgn.
cat >o.c <<'C'
int sgn;
double lg(double x) { sgn = x < 0 ? -1 : 1; return x * 2; }
/* Reads the global: sees the example's value. */
int scaled(int k) { return k * sgn; }
C
cat >a.c <<'C'
#include <batchdiff.h>
extern int sgn;
double lg(double);
int scaled(int);
__attribute__((batch)) double f(double x) {
  sgn = 0;
  double y = lg(x);
  return sgn * y;
}
/* The callee reads the example's value, and a float global keeps its
   derivative across a call that leaves it alone. */
double w;
BATCHDIFF double h(double x) {
  sgn = x > 1 ? 3 : -2;
  w = x * x;
  int y = scaled(2);
  return y + w * 0.5 + sgn;
}
C
cat >m.c <<'C'
#include <stdio.h>
#include <stddef.h>
extern int sgn;
extern double w;
double f(double);
void f_batched(size_t, const double *, double *);
double h(double);
void h_batched(size_t, const double *, double *);
void h_grad(size_t, const double *, double *, const double *, double *);
int main(void) {
  double x[5] = {1, -2, 3, -4, 5}, r[5], d[5] = {0};
  int bad = 0, last;
  double lastw;
  f_batched(5, x, r);
  for (int i = 0; i < 5; i++)
    bad += r[i] != f(x[i]);
  last = sgn; /* f(5) leaves 1 */
  bad += last != 1;
  sgn = 7;
  h_batched(5, x, r);
  last = sgn, lastw = w;
  for (int i = 0; i < 5; i++)
    bad += r[i] != h(x[i]);
  bad += last != sgn || lastw != w; /* h(5) as the last example */
  h_grad(5, x, r, NULL, d);
  for (int i = 0; i < 5; i++) /* d/dx (3 * sgn + x * x / 2) */
    bad += d[i] != x[i];
  printf("%d\n", bad);
  return bad != 0;
}
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c a.c -o a.o
run_rc 0 "$CLANG" -O2 -c o.c -o o.o
run_rc 0 "$CLANG" -O2 m.c a.o o.o "$RTLIB" -lsleef -lm -lpthread -o m
run_rc 0 ./m

# Written on some paths only before such a call: where the example has
# written it, the callee sees its value; where not, the global as the
# batch found it (peek reads sgn only where x > 0, which f writes).
cat >o2.c <<'C'
int sgn;
double peek(double x) { return x > 0 ? x * sgn : x; }
C
cat >s.c <<'C'
#include <batchdiff.h>
extern int sgn;
double peek(double);
__attribute__((batch)) double f2(double x) {
  if (x > 0)
    sgn = x > 2 ? 3 : 1;
  double y = peek(x);
  sgn = 2;
  return sgn * y;
}
C
cat >m2.c <<'C'
#include <stdio.h>
#include <stddef.h>
extern int sgn;
double f2(double);
void f2_batched(size_t, const double *, double *);
int main(void) {
  double x[6] = {1, -2, 3, -4, 5, 0.5}, r[6];
  int bad = 0;
  sgn = 7;
  f2_batched(6, x, r);
  for (int i = 0; i < 6; i++)
    bad += r[i] != f2(x[i]);
  printf("%d\n", bad);
  return bad != 0;
}
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c s.c -o s.o
run_rc 0 "$CLANG" -O2 -c o2.c -o o2.o
run_rc 0 "$CLANG" -O2 m2.c s.o o2.o "$RTLIB" -lsleef -lm -lpthread -o m2
run_rc 0 ./m2

# (2) Another file's batch functions: one that sets sgn, one that uses no
# global, one that reads sgn.
cat >ob.c <<'C'
#include <batchdiff.h>
int sgn;
BATCHDIFF double lgb(double x) { sgn = x < 0 ? -1 : 1; return x * 2; }
BATCHDIFF double pure(double x) { return x * 3; }
BATCHDIFF double reads(double x) { return x * sgn; }
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c ob.c -o ob.o
"$NM" --defined-only ob.o >ob.nm
for s in 'batchdiff.sets-no-global:pure' 'batchdiff.uses-no-global:pure' \
  'batchdiff.sets-no-global:reads'; do
  grep -qF "$s" ob.nm || fail "ob.o does not define '$s'"
done
for s in 'batchdiff.sets-no-global:lgb' 'batchdiff.uses-no-global:lgb' \
  'batchdiff.uses-no-global:reads'; do
  if grep -qF "$s" ob.nm; then
    fail "ob.o defines '$s'"
  fi
done
caller() {
  cat >b.c <<C
#include <batchdiff.h>
#include <stdio.h>
extern int sgn;
BATCHDIFF double $1(double);
BATCHDIFF double g(double x) { $2 }
int main(void) {
  double x[3] = {1.5, -2.0, 3.0}, r[3];
  sgn = 5;
  g_batched(3, x, r);
  for (int i = 0; i < 3; i++)
    printf("%g%s", r[i], i < 2 ? " " : "\\n");
  return 0;
}
C
  expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c b.c -o b.o
  run_rc "$3" "$CLANG" b.o ob.o "$RTLIB" -lsleef -lm -lpthread -o b
}
# Reading sgn after a call that sets it: a link error, not the old value.
caller lgb 'double y = lgb(x); return sgn * y;' 1
grep -qF "batchdiff.sets-no-global:lgb" "$WORK/last.out" ||
  fail "no link error naming lgb's sets-no-global"
# After a callee that writes no global: links, sgn is the caller's.
caller pure 'double y = pure(x); return sgn * y;' 0
run_rc 0 ./b
grep -qx '22.5 -30 45' "$WORK/last.out" || fail "g after pure: $(cat "$WORK/last.out")"
# Read before the call only: no requirement.
caller lgb 'double s = sgn; return s * lgb(x);' 0
run_rc 0 ./b
grep -qx '15 -20 30' "$WORK/last.out" || fail "g before lgb: $(cat "$WORK/last.out")"
# Written before a call of a function that reads it: a link error.
caller reads 'sgn = x > 0 ? 2 : -2; return reads(x) + sgn;' 1
grep -qF "batchdiff.uses-no-global:reads" "$WORK/last.out" ||
  fail "no link error naming reads' uses-no-global"
# Written before a call of a function that uses no global: links.
caller pure 'sgn = x > 0 ? 2 : -2; return pure(x) + sgn;' 0
run_rc 0 ./b
grep -qx '6.5 -8 11' "$WORK/last.out" || fail "g writing sgn: $(cat "$WORK/last.out")"
