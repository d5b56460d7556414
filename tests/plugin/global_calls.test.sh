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
# (h's w carries its derivative across the call of scaled, which could
# change it: warn-global-call-derivative, docs/calls.md.)
run_rc 0 bdcc -O2 -march=native -Wall -Wextra -c a.c -o a.o
grep -qF "warning: 'scaled' may change floating global 'w'" "$WORK/last.out" ||
  fail "no warning at scaled: $(cat "$WORK/last.out")"
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
# global, one that reads sgn. Where the callee's file does not say that its
# generated functions leave such globals alone, the lanes call one at a
# time with sgn synchronized (before: a link error; before that, stale).
cat >ob.c <<'C'
#include <batchdiff.h>
int sgn;
BATCHDIFF double lgb(double x) { sgn = x < 0 ? -1 : 1; return x * 2; }
BATCHDIFF double pure(double x) { return x * 3; }
BATCHDIFF double reads(double x) { return x * sgn; }
BATCHDIFF double some(double x) {
  if (x < 0)
    sgn = -1;
  return x * 2;
}
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c ob.c -o ob.o
"$NM" --defined-only ob.o >ob.nm
for s in 'batchdiff.sets-no-global:pure' 'batchdiff.uses-no-global:pure' \
  'batchdiff.sets-no-global:reads' 'batchdiff.sets:lgb:sgn'; do
  grep -qF "$s" ob.nm || fail "ob.o does not define '$s'"
done
for s in 'batchdiff.sets-no-global:lgb' 'batchdiff.uses-no-global:lgb' \
  'batchdiff.uses-no-global:reads' 'batchdiff.sets:some:sgn'; do
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
  double x[3] = {1.5, -2.0, 3.0}, r[3], d[3] = {0};
  sgn = 5;
  g_batched(3, x, r);
  for (int i = 0; i < 3; i++)
    printf("%g%s", r[i], i < 2 ? " " : "\\n");
  printf("%d\\n", sgn);
  sgn = 5;
  g_grad(3, x, r, NULL, d);
  for (int i = 0; i < 3; i++)
    printf("%g%s", d[i], i < 2 ? " " : "\\n");
  return 0;
}
C
  expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c b.c -o b.o
  run_rc 0 "$CLANG" b.o ob.o "$RTLIB" -lsleef -lm -lpthread -o b
  for t in 1 2; do
    BATCHDIFF_NUM_THREADS=$t run_rc 0 ./b
    tr '\n' '|' <"$WORK/last.out" >out.txt
    [ "$(cat out.txt)" = "$3" ] || fail "g with $1, $t threads: $(cat out.txt), expected $3"
  done
}
# Reading sgn after a call that sets it: each example reads what its own
# call left (1.5 -> 1 * 3, -2 -> -1 * -4, 3 -> 1 * 6; the gradient 2 sgn),
# not the value from before the batch (15 -20 30) or the last example's
# (3 -4 6). sgn ends as the last example's call left it.
caller lgb 'double y = lgb(x); return sgn * y;' '3 4 6|1|2 -2 2|'
# After a callee that writes no global: sgn is the caller's.
caller pure 'double y = pure(x); return sgn * y;' '22.5 -30 45|5|15 15 15|'
# Read before the call only.
caller lgb 'double s = sgn; return s * lgb(x);' '15 -20 30|1|10 10 10|'
# Written before a call of a function that reads it: the callee reads the
# example's value (1.5 * 2 + 2, -2 * -2 - 2, 3 * 2 + 2).
caller reads 'sgn = x > 0 ? 2 : -2; return reads(x) + sgn;' '5 2 8|2|2 -2 2|'
# Written before a call of a function that uses no global.
caller pure 'sgn = x > 0 ? 2 : -2; return pure(x) + sgn;' '6.5 -8 11|2|3 3 3|'
# Cephes' lbeta: sgn read after the call before the caller writes it (at
# its end): what the call left, the example's own value since lgb sets it
# on every path (batchdiff.sets:lgb:sgn; global-carried before).
caller lgb 'double y = lgb(x); int s = sgn; sgn = 2 * s; return s * y;' \
  '3 4 6|2|2 -2 2|'
# A callee that sets it on some paths only: a link error naming the symbol.
cat >bs.c <<'C'
#include <batchdiff.h>
extern int sgn;
BATCHDIFF double some(double);
BATCHDIFF double g(double x) {
  double y = some(x);
  int s = sgn;
  sgn = 2 * s;
  return s * y;
}
int main(void) { return 0; }
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c bs.c -o bs.o
run_rc 1 "$CLANG" bs.o ob.o "$RTLIB" -lsleef -lm -lpthread -o bs
grep -qF 'undefined reference to `batchdiff.sets:some:sgn' "$WORK/last.out" ||
  fail "no link error naming batchdiff.sets:some:sgn: $(cat "$WORK/last.out")"

# Which way the lanes call: together where the callee's file defines the
# symbol, one at a time where not (a g_batched written by hand that
# records the counts it is called with).
cat >hw.c <<'C'
#include <stddef.h>
int sgn, maxn;
double hw(double x) { return x * 3; }
void hw_batched(size_t n, const double *x, double *r) {
  if ((int)n > maxn)
    maxn = (int)n;
  for (size_t i = 0; i < n; i++)
    r[i] = x[i] * 3;
}
void hw_grad(size_t n, const double *x, double *r, const double *dr,
             double *dx) {
  for (size_t i = 0; i < n; i++) {
    if (r)
      r[i] = x[i] * 3;
    if (dx)
      dx[i] += 3 * (dr ? dr[i] : 1);
  }
}
const char hw_abi_b[1] __asm__("batchdiff.abi:double hw(double):batched") = {0};
const char hw_abi_g[1] __asm__("batchdiff.abi:double hw(double):grad") = {0};
#ifdef PROMISE
const char hw_sng[1] __asm__("batchdiff.sets-no-global:hw") = {0};
#endif
C
cat >hc.c <<'C'
#include <batchdiff.h>
#include <stdio.h>
extern int sgn, maxn;
BATCHDIFF double hw(double);
BATCHDIFF double hg(double x) { double y = hw(x); return sgn * y; }
int main(void) {
  double x[16], r[16];
  for (int i = 0; i < 16; i++)
    x[i] = i;
  sgn = 2;
  hg_batched(16, x, r);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    bad += r[i] != 6 * i;
  printf("%d %d\n", bad, maxn);
  return bad != 0;
}
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c hc.c -o hc.o
for d in '' -DPROMISE; do
  run_rc 0 "$CLANG" -O2 $d -c hw.c -o hw.o
  run_rc 0 "$CLANG" hc.o hw.o "$RTLIB" -lsleef -lm -lpthread -o hb
  run_rc 0 ./hb
  n=$(cut -d' ' -f2 "$WORK/last.out")
  if [ -n "$d" ]; then
    [ "$n" -gt 1 ] || fail "with the symbol, hw_batched called for $n lanes"
  else
    [ "$n" -eq 1 ] || fail "without the symbol, hw_batched called for $n lanes"
  fi
done

# Cephes' shape: a batch function of another file that calls a function of
# a third file (mtherr) and sets its own global (sgngam) keeps its file
# from saying anything; a caller that only reads a constant (MACHEP, which
# nothing writes) after calling it links and is right, value and gradient.
cat >cst.c <<'C'
double MACHEP = 1.0 / 1024;
int merror;
int mtherr(const char *name, int code) { (void)name; merror = code; return 0; }
C
cat >cg.c <<'C'
#include <batchdiff.h>
int sgngam;
int mtherr(const char *, int);
BATCHDIFF double cgam(double x) {
  sgngam = x < 0 ? -1 : 1;
  if (x > 100) {
    mtherr("cgam", 3);
    return 1e300;
  }
  return x * x + 1;
}
BATCHDIFF double cpure(double x) { return x * 3; }
C
cat >cc.c <<'C'
#include <batchdiff.h>
#include <stdio.h>
extern double MACHEP;
extern int merror, sgngam;
BATCHDIFF double cgam(double);
BATCHDIFF double cpure(double);
BATCHDIFF double cbeta(double x) {
  double y = cgam(x);
  return y * (1 + MACHEP) + sgngam;
}
/* Two callees, one whose file says it leaves globals alone, in two
   functions (their promise symbols, one declaration each). */
BATCHDIFF double cboth(double x) {
  double y = cpure(x) * MACHEP;
  return y + cgam(x) * MACHEP;
}
int main(void) {
  double x[5] = {0.5, -2, 3, 200, -1}, r[5], d[5] = {0};
  int bad = 0;
  cbeta_batched(5, x, r);
  for (int i = 0; i < 5; i++)
    bad += r[i] != cbeta(x[i]);
  cbeta_grad(5, x, r, NULL, d);
  for (int i = 0; i < 5; i++) /* 2x (1 + MACHEP), 0 past 100 */
    bad += d[i] != (x[i] > 100 ? 0 : 2 * x[i] * (1 + MACHEP));
  cboth_batched(5, x, r);
  for (int i = 0; i < 5; i++)
    bad += r[i] != cboth(x[i]);
  printf("%d %d\n", bad, merror);
  return bad != 0;
}
C
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c cg.c -o cg.o
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c cc.c -o cc.o
run_rc 0 "$CLANG" -O2 -c cst.c -o cst.o
run_rc 0 "$CLANG" cc.o cg.o cst.o "$RTLIB" -lsleef -lm -lpthread -o cb
for t in 1 2; do
  BATCHDIFF_NUM_THREADS=$t run_rc 0 ./cb
  grep -qx '0 3' "$WORK/last.out" || fail "cbeta, $t threads: $(cat "$WORK/last.out")"
done
