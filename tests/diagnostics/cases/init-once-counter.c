/* A static counter beside a table filled once: the counter carries a value
 * from one example to the next (the block run once is supported). */
static double table[16];
static int ready, calls;
static void init(void) {
  for (int i = 0; i < 16; i++)
    table[i] = 0.5 * i;
  ready = 1;
}
__attribute__((batch, diff)) double f(double x) {
  if (!ready)
    init();
  calls++;
  // CHECK: init-once-counter.c:[[@LINE-1]]:3: error: reading global 'calls' where an example may not have written it yet is not supported in a batch/diff function; a value one example leaves in a global for the next cannot be batched (the examples run together); write it before every read, on every path, or pass the value as a parameter (a static global filled once under a static flag, `if (!ready) { ...; ready = 1; }`, works)
  return table[(int)(x * x) % 16] * x;
}
