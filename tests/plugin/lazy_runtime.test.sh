# The runtime headers' function bodies are parsed at the end of the file,
# and only those the file uses (plugin/inject/LazyRuntime.cpp;
# docs/compile-time.md, "Runtime bodies parsed where used"). Checked:
# - the vector API called from the user's own code (an external function
#   emitted at once, a static one, a function pointer, a call in the file's
#   last declaration) and from generated code links and gives the same bits
#   as the same file compiled without the plugin (every body parsed at its
#   header);
# - a math body keeps its header's floating-point state: floating-point
#   pragmas in effect at the end of the file, where the bodies are parsed,
#   and `#pragma clang optimize off` left open there change nothing in the
#   runtime's object code;
# - a body that calls runtime functions no other code calls (the records'
#   permutes, the math's rare paths) gets theirs too.
. "$SRC/lib.sh"

cat >api.c <<'C'
#include <batchdiff.h>
#include <batchdiff/batchdiff_rt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

BATCHDIFF double f(double x, double y) { return x > y ? tanh(x) : log1p(y * y); }

/* external: CodeGen emits it at once, before any runtime body is parsed */
double api_exp_sum(const double *x) {
  bd_f64d v = bd_exp_f64d(bd_load_f64d(x));
  return bd_hsum_f64d(v);
}

static bd_f64d (*const pick)(bd_f64d) = bd_log_f64d;

static void api_records(const double *p, double *out) {
  bd_f64d a, b, c;
  bd_aos_load3_f64d(p, &a, &b, &c);
  bd_store_f64d(out, bd_add_f64d(bd_mul_f64d(a, b), pick(c)));
}

int main(void) {
  double x[64], y[64], r[64], g0[64], g1[64], rec[3 * 64], out[64];
  for (int i = 0; i < 64; i++) {
    x[i] = 0.37 * i - 9.0;
    y[i] = 1.0 / (i + 1.5);
    rec[3 * i] = x[i];
    rec[3 * i + 1] = y[i];
    rec[3 * i + 2] = 1.0 + i;
  }
#ifdef WITH_PLUGIN
  memset(g0, 0, sizeof g0);
  memset(g1, 0, sizeof g1);
  f_batched(64, x, y, r);
  f_grad(64, x, y, 0, 0, g0, g1);
  for (int i = 0; i < 64; i++)
    printf("%a %a %a\n", r[i], g0[i], g1[i]);
#endif
  printf("%a\n", api_exp_sum(y));
  api_records(rec, out);
  for (int i = 0; i < (int)(sizeof(bd_f64d) / sizeof(double)); i++)
    printf("%a\n", out[i]);
  return 0;
}

/* the file's last declaration calls the runtime */
double api_last(double v) { return bd_hsum_f64d(bd_sqrt_f64d(bd_splat_f64d(v))); }
C

# With the plugin, and without it (every body parsed in its header).
bdcc -O2 -march=x86-64-v3 -DWITH_PLUGIN api.c "$RTLIB" -lm -lpthread -o api
"$CLANG" -O2 -march=x86-64-v3 -D__BATCHDIFF__ -I"$SRC/../../runtime/include" \
  -I"$SRC/../../annotations" -c api.c -o plain.o 2>plain.err ||
  { cat plain.err >&2; fail "api.c does not compile without the plugin"; }
"$CLANG" plain.o "$RTLIB" -lm -lpthread -o plain
./api >api.out || fail "api failed"
./plain >plain.out || fail "plain failed"
[ "$(wc -l <api.out)" -eq $((64 + 1 + 4)) ] || fail "api printed $(wc -l <api.out) lines"
tail -n 5 api.out >api.tail
cmp -s api.tail plain.out || {
  diff api.tail plain.out >&2
  fail "the vector API gives other bits with the plugin"
}

# Floating-point pragmas at the end of the file: the math bodies parsed
# there are compiled as in their headers all the same.
cp api.c fp.c
printf '#pragma clang fp contract(fast) reassociate(on)\n' >>fp.c
printf '#pragma float_control(precise, off)\n' >>fp.c
bdcc -O2 -march=x86-64-v3 -DWITH_PLUGIN -c api.c -o a.o
bdcc -O2 -march=x86-64-v3 -DWITH_PLUGIN -c fp.c -o b.o
"$OBJDUMP" -d --no-show-raw-insn a.o | tail -n +4 >a.dis
"$OBJDUMP" -d --no-show-raw-insn b.o | tail -n +4 >b.dis
cmp -s a.dis b.dis || {
  diff a.dis b.dis | head -20 >&2
  fail "pragmas at the end of the file changed the runtime's code"
}
# `#pragma clang optimize off` left open: api_last is not optimized, the
# runtime's bodies are as before.
cp api.c opt.c
printf '#pragma clang optimize off\nint api_unopt(int v) { return v + 1; }\n' >>opt.c
bdcc -O2 -march=x86-64-v3 -DWITH_PLUGIN -c opt.c -o c.o
"$OBJDUMP" -d --no-show-raw-insn c.o | tail -n +4 |
  awk '/<api_unopt>:/ {skip = 1} /^$/ {skip = 0} !skip' |
  grep -v -e '^$' -e 'nop' >c.dis
grep -v -e '^$' -e 'nop' a.dis >a2.dis
cmp -s a2.dis c.dis || {
  diff a2.dis c.dis | head -20 >&2
  fail "#pragma clang optimize off at the end changed the runtime's code"
}
echo ok
