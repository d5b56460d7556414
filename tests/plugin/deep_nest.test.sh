# Ifs and loops nested deeper than clang's 256 levels of brackets in the
# generated code (tests/robust/found, seed 6406): `if (c) if (c) ...`
# needs no braces in C, but each if on a BD_UNIFORM value was a block of
# the kernel, and from 255 of them the generated code failed to parse
# ("bracket nesting level exceeded maximum of 256") where plain clang
# compiled the function. The kernel now prints ifs and loops deeper than
# 128 blocks with gotos (plugin/emit/KernelStmt.cpp, flatten). Checked:
# nests of 1, 127-129 (around that depth), 255, 256 and 300 ifs with an
# else at every level, under `BATCHDIFF` and `BD_BATCH` (600), a varying if
# and a loop with per-example trips at the bottom; 20 nested loops under
# 120 ifs (loops and reverse loops printed flat); a helper of 150 nested
# ifs inlined under 150. Warning-free with -Wsystem-headers, NAME_batched
# and NAME_grad's values bit for bit vs the scalar function for several
# depths reached (m), gradients vs central differences.
. "$SRC/lib.sh"

cat >gen.awk <<'AWK'
function nest(name, attrs, depth, inner) {
  printf "%s double %s(double x, BD_UNIFORM int m, int n) {\n  int k = 0;\n  ", attrs, name
  for (i = 0; i < depth; i++)
    printf "if (k++ < m && (x = x * 1.01 + 0.25, 1)) "
  printf "%s", inner
  for (i = 0; i < depth; i++)
    printf " else x = x * 0.5 - k;"
  print "\n  return x;\n}"
}
BEGIN {
  leaf = "{ if (x > 3.0) x = sin(x) + x * 0.5; else x = x * x * 0.1; " \
         "for (int i = 0; i < n; i++) x = x * 0.9 + 0.1; }"
  print "#include <batchdiff.h>\n#include <math.h>"
  split("1 127 128 129 255 256 300", D, " ")
  for (d = 1; d in D; d++) {
    nest("g" D[d], "BATCHDIFF", D[d], leaf)
    if (D[d] == 256) nest("b" D[d], "BD_BATCH", D[d], leaf)
  }
  nest("b600", "BD_BATCH", 600, leaf)
  # Loops around the limit: 120 ifs, then 20 nested loops (the innermost
  # with a per-example trip count) with an if on a uniform value inside.
  loops = ""
  for (j = 0; j < 20; j++)
    loops = loops sprintf("for (int i%d = 0; i%d < (%d ? 1 : n); i%d++) ", j, j, j < 19, j)
  nest("gl", "BATCHDIFF", 120, "{ " loops "if (m > 3) x = x * 0.9 + sin(x); }")
  # A helper of 150 nested ifs called inside 150.
  print "static inline double h(double x, int m, int n) {\n  int k = 0;\n  "
  for (i = 0; i < 150; i++)
    printf "if (k++ < m && (x = x * 1.01 + 0.25, 1)) "
  printf "%s", leaf
  for (i = 0; i < 150; i++)
    printf " else x = x * 0.5 - k;"
  print "\n  return x;\n}"
  nest("gh", "BATCHDIFF", 150, "x = h(x, m - 150, n);")
}
AWK
awk -f gen.awk >d.c
cat >main.c <<'MAIN'
#include <math.h>
#include <stdio.h>
#include <string.h>
typedef double scalar_fn(double, int, int);
typedef void batched_fn(size_t, const double *, int, const int *, double *);
typedef void grad_fn(size_t, const double *, int, const int *, double *,
                     const double *, double *);
#define G(D)                                                                   \
  scalar_fn g##D;                                                              \
  batched_fn g##D##_batched;                                                   \
  grad_fn g##D##_grad;
#define B(D)                                                                   \
  scalar_fn b##D;                                                              \
  batched_fn b##D##_batched;
G(1) G(127) G(128) G(129) G(255) G(256) G(300) G(l) G(h) B(256) B(600)
static const struct {
  const char *name;
  int depth;
  scalar_fn *f;
  batched_fn *fb;
  grad_fn *fg;
} T[] = {
#define GE(D, N) {#D, N, g##D, g##D##_batched, g##D##_grad},
#define BE(D) {#D, D, b##D, b##D##_batched, 0},
    GE(1, 1) GE(127, 127) GE(128, 128) GE(129, 129) GE(255, 255)
        GE(256, 256) GE(300, 300) GE(l, 120) GE(h, 300) BE(256) BE(600)};
#define N 37
/* Central differences agree at step h or h / 4 (a step that crosses the
 * branch on x > 3.0 gives neither). */
static int fd_ok(scalar_fn *f, double x, int m, int n, double d) {
  for (double h = 1e-6 * (1 + fabs(x)); h > 1e-7 * (1 + fabs(x)); h /= 4) {
    double fd = (f(x + h, m, n) - f(x - h, m, n)) / (2 * h);
    if (fabs(fd - d) <= 1e-5 * (1 + fabs(fd)))
      return 1;
  }
  return 0;
}
int main(void) {
  int bad = 0;
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    int D = T[t].depth, ms[] = {0, 1, D / 2, D - 1, D, D + 1, 1000};
    for (int j = 0; j < 7; j++) {
      int m = ms[j], n[N];
      double x[N], r[N], g[N], dx[N];
      for (int i = 0; i < N; i++)
        x[i] = 0.1 + 0.37 * i / 3.0, n[i] = i % 5, dx[i] = 0.5;
      T[t].fb(N, x, m, n, r);
      if (T[t].fg)
        T[t].fg(N, x, m, n, g, NULL, dx);
      for (int i = 0; i < N; i++) {
        double s = T[t].f(x[i], m, n[i]);
        if (memcmp(&s, &r[i], sizeof s) ||
            (T[t].fg && (memcmp(&s, &g[i], sizeof s) ||
                         !fd_ok(T[t].f, x[i], m, n[i], dx[i] - 0.5)))) {
          printf("%s m=%d example %d: %a %a vs %a, grad %g\n", T[t].name, m,
                 i, r[i], g[i], s, dx[i] - 0.5);
          bad++;
        }
      }
    }
  }
  return bad != 0;
}
MAIN
expect_ok "$CLANG" -O2 -march=native -Wall -Wextra -Werror \
  -I"$SRC/../../annotations" -c d.c -o plain.o
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -Wsystem-headers \
  -I"$SRC/../../annotations" -c d.c -o d.o
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o d.o "$RTLIB" -lsleef -lm -lpthread -o both
run_rc 0 ./both
