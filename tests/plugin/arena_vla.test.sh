# A function with both a local variable-length array and a local array too
# large for the stack (docs/abi.md, "Stack frames": both from the arena)
# passes them to its kernel in the kernel's order: the chunk function
# passed the large array where the kernel takes the arena, and NAME_batched
# crashed (SIGSEGV) before.
. "$SRC/lib.sh"

cat >v.c <<'SRC'
#include <batchdiff.h>
BATCHDIFF double f(double x, int n) {
  double big[600];
  double t[n];
  for (int i = 0; i < 600; i++)
    big[i] = x * i;
  for (int i = 0; i < n; i++)
    t[i] = big[i % 600] + 1.0;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x;
  return s;
}
SRC
cat >main.c <<'MAIN'
#include <math.h>
#include <stdio.h>
#include <string.h>
double f(double x, int n);
void f_batched(size_t, const double *, const int *, double *);
void f_grad(size_t, const double *, const int *, double *, const double *,
            double *);
#define N 37
int main(void) {
  double x[N], r[N], g[N], dx[N] = {0};
  int n[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.5 + i, n[i] = 1 + (i * 7) % 50;
  f_batched(N, x, n, r);
  f_grad(N, x, n, g, NULL, dx);
  for (int i = 0; i < N; i++) {
    double s = f(x[i], n[i]), h = 1e-6 * (1 + fabs(x[i]));
    double d = (f(x[i] + h, n[i]) - f(x[i] - h, n[i])) / (2 * h);
    if (memcmp(&s, &r[i], sizeof s) || memcmp(&s, &g[i], sizeof s) ||
        !(fabs(d - dx[i]) <= 1e-6 * (1 + fabs(d)))) {
      printf("example %d: %a %a vs %a, grad %g vs %g\n", i, r[i], g[i], s,
             dx[i], d);
      return 1;
    }
  }
  return 0;
}
MAIN
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -c v.c -o v.o
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o v.o "$RTLIB" -lsleef -lm -lpthread -o both
run_rc 0 ./both
