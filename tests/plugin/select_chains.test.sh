# Long chains of selects (`y > 15.5 ? z * 16 : y > 14.5 ? z * 15 : ...`):
# by the rules each select's derivative is `c ? 0 : g` of the next one's,
# a chain LLVM's InstCombine takes quadratic time on (tests/robust/found,
# seed 4491: 20 s for the gradient of 1,000 conditionals). The AD modes
# now build a long chain's derivatives from its first one under merged
# masks (plugin/transforms/ad/SelectChains.h). Checked: chains of 16
# through else arms, through then arms, and inside a loop with per-example
# trips (conditions reloaded from the tape), and chains of 200 through else
# and then arms and in such a loop, under BATCHDIFF BD_JVP BD_HVP:
# values, gradients, tangents and H.v bit for bit against closed forms
# (small multiples of 1/2: every operation exact); and in the emitted
# gradient, jvp and hvp no chain of 8 (MinSelectChain) or more selects
# with a +0 arm each taking the previous one's value (25 before; 300 and
# more for deep_select.sh's chain of 300). The reverse sweep builds each
# merged mask once (Reverser::maskOp), and in a loop (where the arms
# `z * k` are hoisted out of it) does not merge the conditions a chain has
# merged already: the emitted file's mask `|` and `&` stay linear in the
# chains' length (1,560 for all of c.c; 121,650 before, each arm of a
# chain of 200 rebuilding the `|` or `&` of the conditions before it;
# 42,028 with the chain in the loop alone doing so).
. "$SRC/lib.sh"

cat >gen.awk <<'AWK'
# The annotated functions of select_chains.test.sh: chains of 16 selects
# through the else arm (kill), through the then arm (keep), and the first
# inside a loop with a per-example trip count; and chains of 200 (also in
# a loop).
function killchain(v, n,   k, s) {
  s = ""
  for (k = n; k >= 1; k--)
    s = s sprintf("%s > %d.5 ? z * %d : ", v, k - 1, k)
  return "(" s "x)"
}
function keepchain(v, n,   k, s, e) {
  s = ""; e = ""
  for (k = 1; k <= n; k++) {
    s = s sprintf("%s > %d.5 ? (", v, k - 1)
    e = sprintf(") : z * %d", k) e
  }
  return "(" s "x" e ")"
}
BEGIN {
  print "#include <batchdiff.h>"
  print "BATCHDIFF BD_JVP BD_HVP double fkill(double x, double y, double z) {"
  print "  return " killchain("y", 16) " * y;\n}"
  print "BATCHDIFF BD_JVP BD_HVP double fkeep(double x, double y, double z) {"
  print "  return " keepchain("y", 16) " * y;\n}"
  print "BATCHDIFF BD_JVP BD_HVP double floop(double x, double y, double z, int n) {"
  print "  double s = 0;\n  for (int i = 0; i < n; i++) {\n    double w = y - i;"
  print "    s += " killchain("w", 16) " * w;\n  }\n  return s;\n}"
  print "BATCHDIFF BD_JVP BD_HVP double flong(double x, double y, double z) {"
  print "  return " killchain("y", 200) " * y;\n}"
  print "BATCHDIFF BD_JVP BD_HVP double fklong(double x, double y, double z) {"
  print "  return " keepchain("y", 200) " * y;\n}"
  print "BATCHDIFF BD_JVP BD_HVP double fllong(double x, double y, double z, int n) {"
  print "  double s = 0;\n  for (int i = 0; i < n; i++) {\n    double w = y - i;"
  print "    s += " killchain("w", 200) " * w;\n  }\n  return s;\n}"
}
AWK
cat >chk.awk <<'AWK'
# chk.awk: the longest chain of selects with a +0 arm in emitted C, each
# taking the previous one's value (a temp defined by such a select), in
# any one function.
/^(static|void) / { split("", len) }
{
  if (match($0, /__bd_t[0-9_]+ = bd_select_f(64d|32n|64n|32d)\([^,]*, (bd_splat_f(64d|32n|64n|32d)\(0x0p\+0\)|__bd_t[0-9_]+), (bd_splat_f(64d|32n|64n|32d)\(0x0p\+0\)|__bd_t[0-9_]+)\);/)) {
    s = substr($0, RSTART, RLENGTH)
    dst = s; sub(/ = .*/, "", dst)
    split(s, p, /[(,)]/)
    # p[2] mask, p[3..] arms (splat has its own parens)
    a = s; sub(/^[^(]*\([^,]*, /, "", a); sub(/\);$/, "", a)
    n = split(a, arm, /, /)
    d = 0
    if (arm[1] ~ /0x0p\+0/ && arm[2] in len) d = len[arm[2]]
    if (arm[2] ~ /0x0p\+0/ && arm[1] in len) d = len[arm[1]]
    if (arm[1] ~ /0x0p\+0/ || arm[2] ~ /0x0p\+0/) { len[dst] = d + 1; if (d + 1 > mx) mx = d + 1 }
  }
}
END { print mx + 0 }
AWK
awk -f gen.awk >c.c
cat >main.c <<'MAIN'
#include <stdio.h>
#include <string.h>
#define N 37
#define DECL(F, ...)                                                           \
  double F(double, double, double __VA_ARGS__);                                \
  void F##_batched(size_t, const double *, const double *,                     \
                   const double * __VA_ARGS__, double *);                      \
  void F##_grad(size_t, const double *, const double *,                        \
                const double * __VA_ARGS__, double *, const double *,          \
                double *, double *, double *);                                 \
  void F##_jvp(size_t, const double *, const double *,                         \
               const double * __VA_ARGS__, const double *, const double *,     \
               const double *, double *, double *);                            \
  void F##_hvp(size_t, const double *, const double *,                         \
               const double * __VA_ARGS__, const double *, const double *,     \
               const double *, double *, const double *, double *, double *,   \
               double *, double *, double *, double *);
DECL(fkill)
DECL(fkeep)
DECL(flong)
DECL(fklong)
#define LDECL(F)                                                               \
  double F(double, double, double, int);                                       \
  void F##_batched(size_t, const double *, const double *, const double *,     \
                   const int *, double *);                                     \
  void F##_grad(size_t, const double *, const double *, const double *,        \
                const int *, double *, const double *, double *, double *,     \
                double *);                                                     \
  void F##_jvp(size_t, const double *, const double *, const double *,         \
               const int *, const double *, const double *, const double *,    \
               double *, double *);                                            \
  void F##_hvp(size_t, const double *, const double *, const double *,         \
               const int *, const double *, const double *, const double *,    \
               double *, const double *, double *, double *, double *,         \
               double *, double *, double *);
LDECL(floop)
LDECL(fllong)
/* The chosen arm at an integer w in a chain of len: z * k, or x (k = 0). */
static int pick(int keep, int len, double w) {
  int k = 0;
  if (keep)
    k = w > len - 0.5 ? 0 : w > 0.5 ? (int)w + 1 : 1;
  else
    k = w > len - 0.5 ? len : w > 0.5 ? (int)w : 0;
  return k;
}
/* Closed forms of value, gradient, tangent and H.v at one example: sums
 * over the iterations (one for fkill and fkeep); every value is a small
 * multiple of 1/2, so every operation is exact. */
struct want {
  double f, dx, dy, dz, t, hx, hy, hz;
};
static struct want closed(int keep, int len, int iters, double y0, double x,
                          double z, double s, double tx, double ty,
                          double tz) {
  struct want W = {0, 0, 0, 0, 0, 0, 0, 0};
  /* iters < 0: no loop, one term (no sum starting at +0). */
  for (int i = 0; i < (iters < 0 ? 1 : iters); i++) {
    double w = y0 - i;
    int k = pick(keep, len, w);
    double v = k ? z * k : x, tv = k ? tz * k : tx;
    W.f = iters < 0 ? v * w : W.f + v * w;
    W.dy += s * v;
    W.t = iters < 0 ? tv * w + ty * v : W.t + (tv * w + ty * v);
    W.hy += s * tv;
    if (k) {
      W.dz += s * w * k;
      W.hz += s * ty * k;
    } else {
      W.dx += s * w;
      W.hx += s * ty;
    }
  }
  return W;
}
static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
int main(void) {
  double x[N], y[N], z[N], s[N], tx[N], ty[N], tz[N];
  int n[N], bad = 0;
  for (int i = 0; i < N; i++) {
    x[i] = (i % 7) - 3.5;
    y[i] = (i * 5) % 19 - 1;
    z[i] = (i % 5) * 0.5 - 1;
    s[i] = (i % 3) - 1.5;
    tx[i] = (i % 4) - 2;
    ty[i] = (i % 3) * 0.5;
    tz[i] = 1 - (i % 6);
    n[i] = i % 5;
  }
  /* y for the chains of 200: integers from -3 to 207 */
  double y2[N];
  for (int i = 0; i < N; i++)
    y2[i] = (i * 23) % 211 - 3;
#define CALL(F, ...)                                                           \
  F##_batched(N, x, yy, z __VA_ARGS__, r);                                     \
  F##_grad(N, x, yy, z __VA_ARGS__, rg, s, dx, dy, dz);                        \
  F##_jvp(N, x, yy, z __VA_ARGS__, tx, ty, tz, rj, t);                         \
  F##_hvp(N, x, yy, z __VA_ARGS__, tx, ty, tz, rh, s, gx, gy, gz, hx, hy, hz)
  /* 0 fkill, 1 fkeep, 2 floop (chains of 16), 3 flong, 4 fklong, 5 fllong
   * (of 200) */
  for (int f = 0; f < 6; f++) {
    const double *yy = f < 3 ? y : y2;
    double r[N], rg[N], rj[N], rh[N], t[N], dx[N] = {0}, dy[N] = {0},
                                           dz[N] = {0}, gx[N] = {0},
                                           gy[N] = {0}, gz[N] = {0},
                                           hx[N] = {0}, hy[N] = {0},
                                           hz[N] = {0};
    if (f == 0) {
      CALL(fkill);
    } else if (f == 1) {
      CALL(fkeep);
    } else if (f == 3) {
      CALL(flong);
    } else if (f == 4) {
      CALL(fklong);
    } else if (f == 5) {
      CALL(fllong, , n);
    } else {
      CALL(floop, , n);
    }
    for (int i = 0; i < N; i++) {
      double v = f == 0   ? fkill(x[i], y[i], z[i])
                 : f == 1 ? fkeep(x[i], y[i], z[i])
                 : f == 2 ? floop(x[i], y[i], z[i], n[i])
                 : f == 3 ? flong(x[i], y2[i], z[i])
                 : f == 4 ? fklong(x[i], y2[i], z[i])
                          : fllong(x[i], y2[i], z[i], n[i]);
      struct want W = closed(f == 1 || f == 4, f < 3 ? 16 : 200,
                             f == 2 || f == 5 ? n[i] : -1, yy[i], x[i], z[i],
                             s[i], tx[i], ty[i], tz[i]);
      if (!same(v, W.f) || !same(r[i], v) || !same(rg[i], v) ||
          !same(rj[i], v) || !same(rh[i], v) || !same(dx[i], W.dx) ||
          !same(dy[i], W.dy) || !same(dz[i], W.dz) || !same(t[i], W.t) ||
          !same(gx[i], W.dx) || !same(gy[i], W.dy) || !same(gz[i], W.dz) ||
          !same(hx[i], W.hx) || !same(hy[i], W.hy) || !same(hz[i], W.hz)) {
        printf("f%d example %d: f %g %g want %g; grad %g %g %g want %g %g %g;"
               " jvp %g want %g; hvp %g %g %g want %g %g %g\n",
               f, i, v, r[i], W.f, dx[i], dy[i], dz[i], W.dx, W.dy, W.dz,
               t[i], W.t, hx[i], hy[i], hz[i], W.hx, W.hy, W.hz);
        bad++;
      }
    }
  }
  return bad != 0;
}
MAIN
mkdir -p emit
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -Wsystem-headers \
  -I"$SRC/../../annotations" -fplugin-arg-batchdiff-emit=emit -c c.c -o c.o
expect_ok "$CLANG" -O2 -c main.c -o main.o
expect_ok "$CLANG" main.o c.o "$RTLIB" -lsleef -lm -lpthread -o both
run_rc 0 ./both
longest=$(awk -f chk.awk emit/*.c)
[ "$longest" -lt 8 ] || fail "a chain of $longest selects with a +0 arm"
# Mask operations (bd_or_m*, bd_and_m*: the merged conditions) of all of
# c.c: linear in the chains' length, under 5 per conditional of its
# 3 * 16 + 3 * 200 (121,650 when each arm of a chain rebuilt its prefix).
masks=$(cat emit/*.c | grep -o 'bd_\(or\|and\)_m[a-z0-9]*(' | wc -l)
[ "$masks" -lt 3240 ] || fail "$masks mask operations in c.c's kernels"
# The same with the chain of deep_select.sh (found/README.md), 300 long.
sh "$SRC/../robust/found/deep_select.sh" 300 |
  sed 's/^__attribute__((batch, diff))/& __attribute__((diff(forward))) __attribute__((diff(hvp)))/' >sel.c
grep -q 'diff(hvp)' sel.c || fail "sel.c: $(cat sel.c)"
rm -rf emit && mkdir emit
expect_ok bdcc -O2 -march=native -Wall -Wextra -Werror -Wsystem-headers \
  -I"$SRC/../../annotations" -fplugin-arg-batchdiff-emit=emit -c sel.c -o sel.o
longest=$(awk -f chk.awk emit/*.c)
[ "$longest" -lt 8 ] || fail "deep_select: a chain of $longest selects"
