# Implicit conversions that correct generated code never makes are errors
# located in it: clang hides the generated code's warnings (a system
# buffer), so a chunk function passing a large local array where its kernel
# takes the arena (84c39ce) compiled silently and crashed at run time. Here
# a line marker makes plain code look like a generated buffer
# (`# 1 "<batchdiff:NAME>" 3`: that name, a system header), the way clang
# sees the plugin's.
. "$SRC/lib.sh"

gen() { # gen BODY: a "generated" chunk function of BODY after a user file
  printf 'double user(double x) { return x * 2; }\n'
  printf '# 1 "<batchdiff:user>" 3\n'
  printf 'typedef struct bd_arena bd_arena;\n'
  printf 'static void k(long n, bd_arena *ar, const double *h, int *ix) {\n'
  printf '  (void)n; (void)ar; (void)h; (void)ix;\n}\n'
  printf 'void chunk(bd_arena *ar, double *h, const int *ci, void *v,\n'
  printf '           unsigned *u) {\n  %s\n}\n' "$1"
}

n=0
for body in 'k(0, h, (const double *)ar, 0);' 'k(0, ar, h, u);' \
  'k(h, ar, h, 0);' 'k(0, ar, h, ci);' \
  'k(0, ar, (double *)h, (int *)(long)h); k(0, ar, h, (int *)3); double *p = 0; long q = p;' \
  'k(0, ar, h, 0); bd_undeclared(h);'; do
  n=$((n + 1))
  gen "$body" >g$n.c
  # Plain clang hides the warnings (and C99's implicit declaration error).
  expect_ok "$CLANG" -Wall -Wextra -c g$n.c -o g$n.o
  run_rc 1 bdcc -Wall -Wextra -fno-color-diagnostics -c g$n.c -o g$n.o
  grep -q '^<batchdiff:user>:7:[0-9]*: error: batchdiff internal error: the generated code' last.out ||
    fail "g$n.c: no internal error located in the generated code"
  [ "$(grep -c 'error:' last.out)" -eq 1 ] || fail "g$n.c: one error"
done
grep -q "calls 'bd_undeclared', which is not declared" last.out ||
  fail "the undeclared function's name"
# What it says: the types.
gen 'k(0, h, h, 0);' >t.c
run_rc 1 bdcc -fno-color-diagnostics -c t.c -o t.o
grep -q "converts 'double \*' to 'bd_arena \*' (aka 'struct bd_arena \*') implicitly" last.out ||
  fail "the types"
# What correct generated code does stays silent: void pointers both ways,
# const added, null pointers, explicit casts, integer conversions.
gen 'k(0, v, v, (int *)ci); k(3u, ar, h, 0); k(0, ar, (const double *)v, (int *)u); void *w = h; (void)w; const int *c2 = (int *)v; (void)c2;' >ok.c
expect_ok bdcc -Wall -Wextra -c ok.c -o ok.o
# Outside a generated buffer the same code is the user's: clang's warning.
sed '/^# 1 "<batchdiff/d' g1.c >user.c
run_rc 0 bdcc -c user.c -o user.o
grep -q 'warning: incompatible pointer types' last.out || fail "user code"
expect_no_text last.out 'batchdiff internal error'
