/* A block guarded by a static flag that sets it on some runs only: the
 * test may stay true, so the block is not one run once. */
static double table[16];
static int ready;
__attribute__((batch, diff)) double f(double x) {
  if (!ready) {
    // CHECK: init-once-unset.c:[[@LINE-1]]:3: error: a block guarded by 'ready' that some runs leave without setting it is not supported in a batch/diff function; a block run once must set its flag to a nonzero constant in a statement every run reaches (`ready = 1;` at its end, or in the helper it calls)
    for (int i = 0; i < 16; i++)
      table[i] = 0.25 * i;
    if (table[3] > 0.5)
      ready = 1;
  }
  return table[(int)(x * x) % 16] * x;
}
