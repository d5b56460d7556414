# Generated code that LLVM compiles in time linear in a function's length
# (issue 8, item 1), checked by structure, not by timing (bench/
# compile_time.sh measures): a straight-line function leaves LLVM no loop
# per statement to rotate and unroll (broadcasts are not loops), and a long
# kernel is a function of its own instead of one huge chunk-loop body.
. "$SRC/lib.sh"

# longf N: a straight-line double function of 2N statements, no calls.
longf() {
  printf '#include <batchdiff.h>\nBATCHDIFF double longf(double x, double y) {\n'
  printf '  double a = x, b = y;\n'
  i=0
  while [ "$i" -lt "$1" ]; do
    printf '  a = a * 0.999 + b * 0.00%d;\n  b = b - 0.0005 * a + (a * a) * 0.001;\n' $((i % 7 + 1))
    i=$((i + 1))
  done
  printf '  return a + b;\n}\n'
}

unrolled() { # FILE: loops LLVM fully unrolled in the generated code
  run_rc 0 bdcc -O2 -march=native -Rpass=loop-unroll -c "$1" -o "$1.o"
  grep -c 'completely unrolled' last.out || true
}

longf 50 >l50.c
longf 200 >l200.c
u50=$(unrolled l50.c)
u200=$(unrolled l200.c)
# A few loops per generated function (the tail's partial loads), none per
# statement (before: one per broadcast, 673 for 100 statements).
[ "$u50" -le 8 ] || fail "l50.c: $u50 loops unrolled in generated code"
[ "$u200" -eq "$u50" ] || fail "loops grow with statements: $u50 -> $u200"

# The long gradient's kernel (past 3000 IR statements) is a function of
# its own; a short function's kernels are inlined into their chunk loops.
expect_syms l200.c.o __bd_longf_gk longf_batched longf_grad
longf 2 >l2.c
mkdir -p eml
run_rc 0 bdcc -O2 -march=native -fplugin-arg-batchdiff-emit=eml -c l2.c -o l2.o
"$NM" l2.o | grep -q '__bd_longf_[bg]k' && fail "short kernel not inlined"
# A long kernel's adjoints are declared in the block of the guard that uses
# them, not up front (mem2reg scanned that block once per adjoint: 95% of
# the time at 1000 statements), and its locals get no lifetime markers (a
# label before them: clang walked every marker at every call it emitted).
expect_ok bdcc -O2 -march=native -fplugin-arg-batchdiff-emit=eml -c l200.c -o l200e.o
n=$(grep -c '^    bd_f64d __bd_v[0-9]*_d' eml/l200.c.batchdiff.c)
[ "$n" -ge 400 ] || fail "l200.c: $n adjoints declared in the guard's block"
grep -q '^  __bd_nolt0: __attribute__((unused));' eml/l200.c.batchdiff.c ||
  fail "l200.c: no label before the long kernel's locals"
grep -q '__bd_nolt' eml/l2.c.batchdiff.c && fail "l2.c: label in a short kernel"
# and its accumulations are one statement, `v = bd_add_f64d(v, t)`, not a
# load, an add and a store through two more locals.
grep -Eq '(__bd_v[0-9]+_d[0-9]+) = bd_add_f64d\(\1, ' eml/l200.c.batchdiff.c ||
  fail "l200.c: accumulations not folded"
grep -Eq '(__bd_v[0-9]+_d[0-9]+) = bd_add_f64d\(\1, ' eml/l2.c.batchdiff.c &&
  fail "l2.c: accumulations folded in a short kernel"
# Same results either way: the long one against its scalar function.
cat >main.c <<'MAIN'
#include <stdio.h>
#include <string.h>
double longf(double x, double y);
void longf_batched(size_t n, const double *x, const double *y, double *r);
void longf_grad(size_t n, const double *x, const double *y, double *r,
                const double *d_r, double *d_x, double *d_y);
int main(void) {
  double x[11], y[11], r[11], dx[11] = {0}, dy[11] = {0};
  for (int i = 0; i < 11; i++)
    x[i] = 0.1 * i - 0.4, y[i] = 0.3 - 0.05 * i;
  longf_batched(11, x, y, r);
  for (int i = 0; i < 11; i++) {
    double s = longf(x[i], y[i]);
    if (memcmp(&s, &r[i], sizeof s)) {
      printf("example %d: %a != %a\n", i, r[i], s);
      return 1;
    }
  }
  /* The long gradient against central differences of the scalar function. */
  longf_grad(11, x, y, r, NULL, dx, dy);
  for (int i = 0; i < 11; i++) {
    double h = 1e-6;
    double fx = (longf(x[i] + h, y[i]) - longf(x[i] - h, y[i])) / (2 * h);
    double fy = (longf(x[i], y[i] + h) - longf(x[i], y[i] - h)) / (2 * h);
    if (!(fabs(fx - dx[i]) <= 1e-6 * (1 + fabs(fx))) ||
        !(fabs(fy - dy[i]) <= 1e-6 * (1 + fabs(fy)))) {
      printf("example %d: grad %g %g, differences %g %g\n", i, dx[i], dy[i],
             fx, fy);
      return 1;
    }
  }
  return 0;
}
MAIN
sed -i 's/#include <string.h>/#include <math.h>\n#include <string.h>/' main.c
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o l200.c.o "$RTLIB" -lsleef -lm -lpthread -o long
run_rc 0 ./long

# Many costly math calls (past MathInlineMax = 32 per kernel) go through
# one out-of-line copy per function and kernel, not one inline body each
# (three quarters of a long function's code and compile time); a few stay
# inline. Results are the same bits: the copy calls the same function.
mathf() { # mathf N: N sin calls
  printf '#include <batchdiff.h>\n#include <math.h>\n'
  printf 'BATCHDIFF double mathf(double x, double y) {\n  double a = x, b = y;\n'
  i=0
  while [ "$i" -lt "$1" ]; do
    printf '  a = a * 0.999 + sin(b) * 0.00%d;\n  b = b - 0.0005 * a;\n' $((i % 7 + 1))
    i=$((i + 1))
  done
  printf '  return a + b;\n}\n'
}
mathf 40 >m40.c
mathf 4 >m4.c
mkdir -p em
expect_ok bdcc -O2 -march=native -fplugin-arg-batchdiff-emit=em -c m40.c -o m40.o
expect_ok bdcc -O2 -march=native -fplugin-arg-batchdiff-emit=em -c m4.c -o m4.o
grep -q 'noinline, unused)) bd_f64d __bd_mathf_bk_sin_f64d' em/m40.c.batchdiff.c ||
  fail "m40.c: no out-of-line sin in the batched kernel"
grep -q 'noinline, unused)) bd_f64d __bd_mathf_gk_cos_f64d' em/m40.c.batchdiff.c ||
  fail "m40.c: no out-of-line cos in the gradient's kernel"
n=$(grep -c '__bd_mathf_bk_sin_f64d(' em/m40.c.batchdiff.c)
[ "$n" -ge 41 ] || fail "m40.c: $n references to the copy, expected 40 calls (per chain) + 1 definition"
grep -q '_sin_f64d(bd_f64d __bd_x)' em/m4.c.batchdiff.c &&
  fail "m4.c: 4 calls went out of line"
cat >mmain.c <<'MAIN'
#include <stdio.h>
#include <string.h>
double mathf(double x, double y);
void mathf_batched(size_t n, const double *x, const double *y, double *r);
void mathf_grad(size_t n, const double *x, const double *y, double *r,
                const double *d_r, double *d_x, double *d_y);
int main(void) {
  double x[11], y[11], r[11], dx[11] = {0}, dy[11] = {0};
  for (int i = 0; i < 11; i++)
    x[i] = 0.1 * i - 0.4, y[i] = 0.3 - 0.05 * i;
  mathf_batched(11, x, y, r);
  for (int i = 0; i < 11; i++) {
    double s = mathf(x[i], y[i]);
    if (memcmp(&s, &r[i], sizeof s)) {
      printf("example %d: %a != %a\n", i, r[i], s);
      return 1;
    }
  }
  /* The gradient against central differences of the scalar function. */
  mathf_grad(11, x, y, r, NULL, dx, dy);
  for (int i = 0; i < 11; i++) {
    double h = 1e-6;
    double fx = (mathf(x[i] + h, y[i]) - mathf(x[i] - h, y[i])) / (2 * h);
    double fy = (mathf(x[i], y[i] + h) - mathf(x[i], y[i] - h)) / (2 * h);
    if (!(fabs(fx - dx[i]) <= 1e-6 * (1 + fabs(fx))) ||
        !(fabs(fy - dy[i]) <= 1e-6 * (1 + fabs(fy)))) {
      printf("example %d: grad %g %g, differences %g %g\n", i, dx[i], dy[i],
             fx, fy);
      return 1;
    }
  }
  return 0;
}
MAIN
sed -i 's/#include <string.h>/#include <math.h>\n#include <string.h>/' mmain.c
expect_ok "$CLANG" -O2 -c mmain.c -o mmain.o
expect_ok "$CLANG" mmain.o m40.o "$RTLIB" -lsleef -lm -lpthread -o mlong
run_rc 0 ./mlong

# Need flags (issue 8): adjoint work that serves every differentiable
# parameter, or costs a few operations, runs without an `if (need_...)`
# test (one block and branch fewer per guard to compile); costlier work for
# some parameters keeps its test. A NULL shadow changes nothing else.
cat >ng.c <<'SRC'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF double shared(double x, double y, BD_UNIFORM double w) {
  double t = tanh(w * x + y);
  return t * t + (x > y ? x : y);
}
BATCHDIFF double costly(double x, double y) {
  return x + log(y * y + 1.0) / (y + 3.0);
}
SRC
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -fplugin-arg-batchdiff-emit=em -c ng.c -o ng.o
guards() { # guards NAME: the uniform `if (temp) {` tests in NAME's gradient kernel
  awk -v k="__bd_$1_gk(" 'index($0, k) && /^static/ {p = 1} p && /^}/ {exit} p' \
    em/ng.c.batchdiff.c | grep -Ec '^ *if \(__bd_t[0-9]+\) \{' || true
}
[ "$(guards shared)" -eq 0 ] || fail "shared: $(guards shared) need tests left"
[ "$(guards costly)" -ge 1 ] || fail "costly: y's logarithm and division lost their need test"
cat >ngmain.c <<'MAIN'
#include <math.h>
#include <stdio.h>
#include <string.h>
double shared(double x, double y, double w);
double costly(double x, double y);
void shared_grad(size_t n, const double *x, const double *y, double w,
                 double *r, const double *d_r, double *d_x, double *d_y,
                 double *d_w);
void costly_grad(size_t n, const double *x, const double *y, double *r,
                 const double *d_r, double *d_x, double *d_y);
#define N 13
int main(void) {
  double x[N], y[N], ax[N] = {0}, ay[N] = {0}, bx[N] = {0}, by[N] = {0};
  double aw = 0, bw = 0, h = 1e-6;
  for (int i = 0; i < N; i++)
    x[i] = 0.2 * i - 1.1, y[i] = 0.7 - 0.15 * i;
  shared_grad(N, x, y, 0.8, NULL, NULL, ax, ay, &aw);
  shared_grad(N, x, y, 0.8, NULL, NULL, bx, NULL, NULL); /* d_y, d_w NULL */
  shared_grad(N, x, y, 0.8, NULL, NULL, NULL, by, NULL);
  shared_grad(N, x, y, 0.8, NULL, NULL, NULL, NULL, &bw);
  shared_grad(N, x, y, 0.8, NULL, NULL, NULL, NULL, NULL);
  if (memcmp(ax, bx, sizeof ax) || memcmp(ay, by, sizeof ay) || aw != bw) {
    printf("shared: a NULL shadow changed another gradient\n");
    return 1;
  }
  double sw = 0;
  for (int i = 0; i < N; i++) {
    double fx = (shared(x[i] + h, y[i], 0.8) - shared(x[i] - h, y[i], 0.8)) / (2 * h);
    double fy = (shared(x[i], y[i] + h, 0.8) - shared(x[i], y[i] - h, 0.8)) / (2 * h);
    sw += (shared(x[i], y[i], 0.8 + h) - shared(x[i], y[i], 0.8 - h)) / (2 * h);
    if (!(fabs(fx - ax[i]) <= 1e-6 * (1 + fabs(fx))) ||
        !(fabs(fy - ay[i]) <= 1e-6 * (1 + fabs(fy)))) {
      printf("shared %d: grad %g %g, differences %g %g\n", i, ax[i], ay[i], fx, fy);
      return 1;
    }
  }
  if (!(fabs(sw - aw) <= 1e-5 * (1 + fabs(sw)))) {
    printf("shared: d_w %g, differences %g\n", aw, sw);
    return 1;
  }
  memset(ax, 0, sizeof ax), memset(ay, 0, sizeof ay);
  memset(bx, 0, sizeof bx), memset(by, 0, sizeof by);
  costly_grad(N, x, y, NULL, NULL, ax, ay);
  costly_grad(N, x, y, NULL, NULL, bx, NULL);
  costly_grad(N, x, y, NULL, NULL, NULL, by);
  if (memcmp(ax, bx, sizeof ax) || memcmp(ay, by, sizeof ay)) {
    printf("costly: a NULL shadow changed another gradient\n");
    return 1;
  }
  for (int i = 0; i < N; i++) {
    double fy = (costly(x[i], y[i] + h) - costly(x[i], y[i] - h)) / (2 * h);
    if (ax[i] != 1.0 || !(fabs(fy - ay[i]) <= 1e-6 * (1 + fabs(fy)))) {
      printf("costly %d: grad %g %g, difference %g\n", i, ax[i], ay[i], fy);
      return 1;
    }
  }
  return 0;
}
MAIN
expect_ok "$CLANG" -O2 -c ngmain.c -o ngmain.o
expect_ok "$CLANG" ngmain.o ng.o "$RTLIB" -lsleef -lm -lpthread -o needs
run_rc 0 ./needs
