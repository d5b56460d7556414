# Helpers with branches and gotos calling each other (the shape of
# toms708.c's bratio and its two dozen helpers, inlined at every call) give
# long kernels nested as deep as the calls: generated code that LLVM
# compiles in time linear in its length (issue 8, item 1), checked by
# structure, not by timing (docs/compile-time.md has the figures).
#
# LLVM's mem2reg (in SROA) places the phis of each local by walking the
# dominator tree from the blocks that store it: from the entry block, the
# whole kernel, for every local declared (and zeroed) at the kernel's top
# and stored again deeper. So a long kernel declares each variable in the
# innermost block around its accesses, and keeps the values one block
# computes for blocks after it (the forward sweep's values that the reverse
# sweep reads) in arrays from the arena: what it declares at its top does
# not grow with the function.
. "$SRC/lib.sh"

# chainf N: N helpers with branches and a goto, each calling the one before
# inside a branch (N ifs deep once inlined), and a batch, diff function
# calling the last twice: 2N inlined bodies.
chainf() {
  printf '#include <batchdiff.h>\n#include <math.h>\n'
  printf 'static double h0(double x, double y) { return x * y + 0.25; }\n'
  i=1
  while [ "$i" -le "$1" ]; do
    printf 'static double h%d(double x, double y) {\n' "$i"
    printf '  double r = 0.5 * x, s = y;\n'
    printf '  if (x > 0.%d * y) {\n' $((i % 9 + 1))
    printf '    s = h%d(x * 0.97, y + 0.01);\n' $((i - 1))
    printf '    if (s > 4.0)\n      goto out;\n'
    printf '    r = r + s * 0.5;\n  } else {\n    r = r - 0.25 * y * x;\n  }\n'
    printf '  r = r * 0.99 + sqrt(s * s + 1.0);\nout:\n  return r + s * 0.001;\n}\n'
    i=$((i + 1))
  done
  printf 'BATCHDIFF double chainf(double x, double y) {\n'
  printf '  return h%d(x, y) + h%d(y * 0.5, x);\n}\n' "$1" "$1"
}

# top FILE: declarations at the top level of the gradient's kernel.
top() {
  awk -v k="__bd_chainf_gk(" 'index($0, k) && /^static/ {p = 1} p && /^}/ {exit} p' "$1" |
    grep -Ec '^  (bd_[a-z0-9]+|double|float|u?int(32|64)_t) (__attribute__\(\(unused\)\) )?__bd_[vt][0-9]' || true
}

mkdir -p em
chainf 12 >c12.c
chainf 36 >c36.c
for n in 12 36; do
  expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror \
    -fplugin-arg-batchdiff-emit=em -c c$n.c -o c$n.o
done
expect_syms c36.o __bd_chainf_gk chainf_batched chainf_grad
# The generated code is linear in the helpers (3x the helpers, 2.9x the
# lines), and so is what LLVM gets to promote: the kernel's top-level
# declarations stay the same (before: 258 for 12 helpers, 594 for 36).
l12=$(wc -l <em/c12.c.batchdiff.c)
l36=$(wc -l <em/c36.c.batchdiff.c)
[ "$l36" -le $((l12 * 33 / 10)) ] || fail "generated lines $l12 -> $l36"
t12=$(top em/c12.c.batchdiff.c)
t36=$(top em/c36.c.batchdiff.c)
[ "$t12" -gt 0 ] || fail "no gradient kernel found"
[ "$t36" -eq "$t12" ] || fail "top-level declarations grow: $t12 -> $t36"
grep -q '^  bd_f64d \*__bd_keep_f64d = (bd_f64d \*)bd_arena_alloc(' em/c36.c.batchdiff.c ||
  fail "c36.c: forward values not kept in an arena array"
# Adjoints live in the blocks that use them: more nesting levels than the
# helpers (forward and reverse) declare variables.
n=$(grep -Ec '^ {20,}bd_f64d __bd_v[0-9]+_d' em/c36.c.batchdiff.c)
[ "$n" -ge 36 ] || fail "c36.c: $n adjoints declared 10 or more blocks deep"

# Same results: the values bit for bit against the scalar function, the
# gradient against central differences.
cat >main.c <<'MAIN'
#include <math.h>
#include <stdio.h>
#include <string.h>
double chainf(double x, double y);
void chainf_batched(size_t n, const double *x, const double *y, double *r);
void chainf_grad(size_t n, const double *x, const double *y, double *r,
                 const double *d_r, double *d_x, double *d_y);
#define N 203
int main(void) {
  double x[N], y[N], r[N], g[N], dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.02 * i - 1.3, y[i] = 1.1 - 0.017 * i + 0.3 * sin(i);
  chainf_batched(N, x, y, r);
  chainf_grad(N, x, y, g, NULL, dx, dy);
  int checked = 0;
  for (int i = 0; i < N; i++) {
    double s = chainf(x[i], y[i]);
    if (memcmp(&s, &r[i], sizeof s) || memcmp(&s, &g[i], sizeof s)) {
      printf("example %d: %a, %a != %a\n", i, r[i], g[i], s);
      return 1;
    }
    double h = 1e-7 * (1 + fabs(x[i]) + fabs(y[i]));
    double fx = (chainf(x[i] + h, y[i]) - chainf(x[i] - h, y[i])) / (2 * h);
    double fy = (chainf(x[i], y[i] + h) - chainf(x[i], y[i] - h)) / (2 * h);
    double fx2 = (chainf(x[i] + 2 * h, y[i]) - chainf(x[i] - 2 * h, y[i])) / (4 * h);
    double fy2 = (chainf(x[i], y[i] + 2 * h) - chainf(x[i], y[i] - 2 * h)) / (4 * h);
    /* (a branch or the goto between x +- 2h: not smooth there) */
    if (fabs(fx - fx2) > 1e-5 * (1 + fabs(fx)) ||
        fabs(fy - fy2) > 1e-5 * (1 + fabs(fy)))
      continue;
    checked++;
    if (!(fabs(fx - dx[i]) <= 1e-5 * (1 + fabs(fx))) ||
        !(fabs(fy - dy[i]) <= 1e-5 * (1 + fabs(fy)))) {
      printf("example %d: grad %g %g, differences %g %g\n", i, dx[i], dy[i],
             fx, fy);
      return 1;
    }
  }
  if (checked < N / 2) {
    printf("only %d of %d gradients checked\n", checked, N);
    return 1;
  }
  return 0;
}
MAIN
expect_ok "$CLANG" -O2 -c main.c -o main.o
for n in 12 36; do
  expect_ok "$CLANG" main.o c$n.o "$RTLIB" -lsleef -lm -lpthread -o chain$n
  run_rc 0 ./chain$n
done
