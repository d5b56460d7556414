# The generated code's calls of always_inline functions with a vector wider
# than 128 bits in their signature are made through the function's address
# in the AST (plugin/inject/DirectCalls.cpp), so that clang's CodeGen skips
# its per-call ABI feature check (two copies of the target's feature map per
# call: 4% of the compile of bench/compile_time.sh's 20-function file; the
# object code is the same, docs/compile-time.md "The ABI check per call").
# Checked on the kernel's AST: at 256 bits every call is through '&' and
# none through the usual decay; at 128 bits (the check does not apply) and
# under -fsanitize= (which instruments calls that are not direct) the calls
# stay as written.
. "$SRC/lib.sh"

cat >dc.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF double f(double x, double y) { return x > y ? exp(x) : x * y; }
C
dump() {
  bdcc -O2 -fsyntax-only "$@" -Xclang -ast-dump -Xclang -ast-dump-filter \
    -Xclang __bd_f_bk dc.c
}
count() { grep -c "$1" "$2" || true; }

dump -march=x86-64-v3 >v3.txt
[ "$(count "prefix '&'" v3.txt)" -ge 4 ] ||
  fail "256 bits: the kernel's helper calls are not made through '&'"
[ "$(count FunctionToPointerDecay v3.txt)" -eq 0 ] ||
  fail "256 bits: a helper call is still direct in the AST"
grep -q "DeclRefExpr.*Function.*'bd_splat_f64d'" v3.txt ||
  fail "256 bits: the dump shows no call of bd_splat_f64d"

dump -march=x86-64 >sse.txt
[ "$(count "prefix '&'" sse.txt)" -eq 0 ] ||
  fail "128 bits: calls rewritten where clang checks nothing"
[ "$(count FunctionToPointerDecay sse.txt)" -ge 4 ] ||
  fail "128 bits: the dump shows no direct helper calls"

dump -march=x86-64-v3 -fsanitize=undefined >san.txt
[ "$(count "prefix '&'" san.txt)" -eq 0 ] ||
  fail "-fsanitize=: calls rewritten"
echo ok
