# Loops under '#pragma omp simd' are lowered as the plain loop
# (plugin/lower/LowerOmp.cpp): the generated code of inputs/omp_simd.c
# (globals written or read only in the loop, a static scratch array, a
# pointer set to NULL assigned in it, pointer walks, goto and continue,
# struct locals, function pointers, the counter read after the loop,
# outputs, volatile and 2-D locals) is the same with -fopenmp-simd and with
# -fopenmp as without the pragma: every AST walk sees through the loop's
# outlined region (lower/OmpSimd.h). '#pragma omp declare simd' on a batch
# function is accepted (clang makes its vector variants; batchdiff ignores
# it).
. "$SRC/lib.sh"

mkdir -p none simd full
expect_ok bdcc -O2 -march=native -DP= -fsyntax-only \
  -fplugin-arg-batchdiff-emit=none "$IN/omp_simd.c"
ls none/* >/dev/null 2>&1 || fail "nothing emitted"
expect_ok bdcc -O2 -march=native -fopenmp-simd -fsyntax-only \
  -fplugin-arg-batchdiff-emit=simd "$IN/omp_simd.c"
expect_ok bdcc -O2 -march=native -fopenmp -fsyntax-only \
  -fplugin-arg-batchdiff-emit=full "$IN/omp_simd.c"
for d in simd full; do
  diff -r none "$d" >/dev/null || {
    diff -r none "$d" | head -20 >&2
    fail "-f$d: other code than without the pragma"
  }
done

cat >declare.c <<'C'
#pragma omp declare simd
__attribute__((batch, diff)) double sq(double x) { return x * x; }
C
expect_ok bdcc -O2 -march=native -fopenmp-simd -c declare.c -o declare.o
expect_syms declare.o sq sq_batched sq_grad
