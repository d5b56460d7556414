# Each chunk loop of the generated code (the loop over a thread's examples
# around the kernel) carries `#pragma clang loop unroll(disable)`: LLVM's
# LoopFullUnroll and LoopUnroll measured the whole loop at each of their
# runs (UnrollCostEstimator) and left it as it was; with the hint they skip
# it and the object code is the same (docs/compile-time.md, "Chunk loops not
# measured for unrolling"). Checked: the hint precedes each chunk loop of
# NAME_batched and NAME_grad and nothing else in the generated text, and it
# reaches the IR as llvm.loop.unroll.disable on a function without loops of
# its own (where LLVM adds no such metadata itself).
. "$SRC/lib.sh"

cat >cu.c <<'C'
#include <batchdiff.h>
#include <math.h>
BATCHDIFF double f(double x, double y) { return x > y ? exp(x) : x * y; }
C
mkdir -p em
bdcc -O2 -march=x86-64-v3 -fplugin-arg-batchdiff-emit=em -c cu.c -o cu.o
gen=em/cu.c.batchdiff.c
[ -f "$gen" ] || fail "no generated text in em/"
[ "$(grep -c '^#pragma clang loop unroll(disable)$' "$gen")" -eq 2 ] ||
  fail "expected the hint on the two chunk loops (f_batched, f_grad)"
[ "$(grep -A1 '^#pragma clang loop' "$gen" |
  grep -c '^  for (size_t __bd_i = __bd_lo; ')" -eq 2 ] ||
  fail "the hint does not precede the chunk loops"

bdcc -O2 -march=x86-64-v3 -S -emit-llvm cu.c -o cu.ll
grep -q '!"llvm.loop.unroll.disable"' cu.ll ||
  fail "the chunk loops' hint is not in the IR"
echo ok
