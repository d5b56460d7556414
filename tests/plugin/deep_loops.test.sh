# Deep loop nests (issue 8): a loop inside 64 loops used to be refused
# because the generated code nested three blocks per loop past clang's 256
# levels of brackets; since the kernel prints blocks deeper than 128 with
# gotos (66aa33f, deep_nest.test.sh) the limit is compile time, 256 loops
# (stmt-loop-depth). Checked: nests of 70 and 100 loops (for, while and do
# in turn, with braces, statements, continue and break at some levels, trip
# counts of 0, 1 or 2 per example at some levels) under BATCHDIFF BD_JVP,
# 200 loops without braces, and 256 (a helper of 128 inlined under
# 128, at -O0): NAME_batched and NAME_grad's values bit for bit vs the
# scalar function, gradients vs central differences, jvp's tangent vs the
# gradient. Past the limit a located error, no crash: 300 and 2000 loops;
# 2000 nested blocks (-fbracket-depth) compile.
. "$SRC/lib.sh"

cat >gen.awk <<'AWK'
# nest(name, attrs, D, B, inner): D nested loops, braces if B; a trip
# count of 0, 1 or 2 per example ((n + 2) % 3) at every twelfth level with
# braces, every 39th without (at most 2^8 runs of the innermost statement).
function nest(name, attrs, D, B, inner,   j, s, e, t, c) {
  printf "%s double %s(double x, int n) {\n", attrs, name
  s = ""; e = ""
  for (j = 0; j < D; j++) {
    t = j % (B ? 12 : 39) == 5 ? sprintf("(n + %d) %% 3", j) : "1"
    if (!B)
      s = s sprintf("for (int i%d = 0; i%d < %s; i%d++) ", j, j, t, j)
    else if (j % 3 == 0)
      s = s sprintf("for (int i%d = 0; i%d < %s; i%d++) {\n", j, j, t, j)
    else if (j % 3 == 1)
      s = s sprintf("int i%d = 0;\nwhile (i%d < %s) {\ni%d++;\n", j, j, t, j)
    else
      s = s sprintf("int i%d = 0;\ndo {\n", j)
    if (B && j % 5 == 0)
      s = s sprintf("x = x * 0.999 + 0.001 * i%d;\n", j)
    if (B && j % 13 == 6)
      s = s "if (x < 0.3) continue;\n"
    if (B) {
      c = j % 3 == 2 ? sprintf("} while (++i%d < %s);\n", j, t) : "}\n"
      if (j % 11 == 7)
        c = sprintf("if (x > %d.75) break;\n", 1 + j % 3) c
      e = c e
    }
  }
  printf "%s%s\n%s  return x;\n}\n", s, inner, e
}
BEGIN {
  leaf = "x = x * 0.9 + 0.1 * x * x / (1 + x * x) + 0.05 * n;"
  print "#include <batchdiff.h>"
  if (part == 1) {
    nest("l70", "BATCHDIFF BD_JVP", 70, 1, leaf)
    nest("l100", "BATCHDIFF BD_JVP", 100, 1, leaf)
    nest("l200", "BATCHDIFF", 200, 0, leaf)
  } else if (part == 2) {
    nest("h", "static inline", 128, 0, leaf)
    nest("l256", "BATCHDIFF", 128, 0, "x = h(x, n);")
  } else {
    nest("l" part, "BATCHDIFF", part, 0, leaf)
  }
}
AWK
awk -v part=1 -f gen.awk >d.c
awk -v part=2 -f gen.awk >d256.c
cat >main.c <<'MAIN'
#include <math.h>
#include <stdio.h>
#include <string.h>
typedef double scalar_fn(double, int);
typedef void batched_fn(size_t, const double *, const int *, double *);
typedef void grad_fn(size_t, const double *, const int *, double *,
                     const double *, double *);
typedef void jvp_fn(size_t, const double *, const int *, const double *,
                    double *, double *);
#define G(D) scalar_fn D; batched_fn D##_batched; grad_fn D##_grad;
G(l70) G(l100) G(l200) G(l256)
jvp_fn l70_jvp, l100_jvp;
static const struct {
  const char *name;
  scalar_fn *f;
  batched_fn *fb;
  grad_fn *fg;
  jvp_fn *fj;
} T[] = {{"l70", l70, l70_batched, l70_grad, l70_jvp},
         {"l100", l100, l100_batched, l100_grad, l100_jvp},
         {"l200", l200, l200_batched, l200_grad, 0},
         {"l256", l256, l256_batched, l256_grad, 0}};
#define N 37
/* Central differences agree at step h or h / 4 (a step that crosses a
 * break or continue gives neither). */
static int fd_ok(scalar_fn *f, double x, int n, double d) {
  for (double h = 1e-6 * (1 + fabs(x)); h > 1e-7 * (1 + fabs(x)); h /= 4) {
    double fd = (f(x + h, n) - f(x - h, n)) / (2 * h);
    if (fabs(fd - d) <= 1e-5 * (1 + fabs(fd)))
      return 1;
  }
  return 0;
}
int main(void) {
  int bad = 0;
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    int n[N];
    double x[N], r[N], g[N], dx[N], one[N], jr[N], jd[N];
    for (int i = 0; i < N; i++)
      x[i] = -0.4 + 0.11 * i, n[i] = i % 7, dx[i] = 0.5, one[i] = 1;
    T[t].fb(N, x, n, r);
    T[t].fg(N, x, n, g, NULL, dx);
    if (T[t].fj)
      T[t].fj(N, x, n, one, jr, jd);
    for (int i = 0; i < N; i++) {
      double s = T[t].f(x[i], n[i]), d = dx[i] - 0.5;
      if (memcmp(&s, &r[i], sizeof s) || memcmp(&s, &g[i], sizeof s) ||
          !fd_ok(T[t].f, x[i], n[i], d) ||
          (T[t].fj && (memcmp(&s, &jr[i], sizeof s) ||
                       fabs(jd[i] - d) > 1e-12 * (1 + fabs(d))))) {
        printf("%s example %d (x %g, n %d): %a %a vs %a, grad %g jvp %g\n",
               T[t].name, i, x[i], n[i], r[i], g[i], s, d,
               T[t].fj ? jd[i] : 0);
        bad++;
      }
    }
  }
  return bad != 0;
}
MAIN
W="-Wall -Wextra -Werror -Wno-invalid-feature-combination"
# shellcheck disable=SC2086
expect_ok "$CLANG" -O2 -march=native $W -I"$SRC/../../annotations" \
  -c d.c -o plain.o
# shellcheck disable=SC2086
expect_ok bdcc -O2 -march=native $W -Wsystem-headers \
  -I"$SRC/../../annotations" -c d.c -o d.o
# shellcheck disable=SC2086
expect_ok bdcc -O0 -march=native $W -Wsystem-headers \
  -I"$SRC/../../annotations" -c d256.c -o d256.o
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o d.o d256.o "$RTLIB" -lsleef -lm -lpthread -o both
run_rc 0 ./both

# Past the limit: the error at the 257th loop, exit status 1 (no signal).
for d in 300 2000; do
  awk -v part=$d -f gen.awk >l$d.c
  run_rc 1 bdcc -fsyntax-only -I"$SRC/../../annotations" l$d.c
  grep -q "^l$d.c:3:[0-9]*: error: a loop inside 256 enclosing loops" \
    last.out || fail "$d loops: $(head -c 300 last.out)"
done
# 2000 nested blocks (clang's own parser stops near 5000).
awk 'BEGIN { printf "#include <batchdiff.h>\nBATCHDIFF double b(double x) {\n"
  for (i = 0; i < 2000; i++) printf "{ x = x * 0.5 + %d;\n", i
  for (i = 0; i < 2000; i++) printf "}"
  print "\n  return x;\n}" }' >blocks.c
expect_ok bdcc -fbracket-depth=3000 -O0 -I"$SRC/../../annotations" \
  -c blocks.c -o blocks.o
expect_syms blocks.o b b_batched b_grad
