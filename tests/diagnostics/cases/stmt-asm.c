/* Inline assembly. */
__attribute__((batch, diff)) float f(float x) {
  __asm__ volatile("" ::: "memory");
  // CHECK: stmt-asm.c:[[@LINE-1]]:3: error: inline assembly is not supported in a batch/diff function; write the computation in C
  return x;
}
