/* A table filled under a static flag its block does not set (the function
 * sets it after the block): not a block run once, so the table is written
 * per example, which tables never are. */
static double table[16];
static int ready;
static void init(void) {
  for (int i = 0; i < 16; i++)
    table[i] = 0.5 * i;
  // CHECK: init-once-flag-elsewhere.c:[[@LINE-1]]:5: error: writing into global table 'table' is not supported in a batch/diff function; tables are only read, or filled once under a static flag (`if (!ready) { ...; ready = 1; }`, from no value of the example); copy it into a local array, or write into an array parameter
}
__attribute__((batch, diff)) double f(double x) {
  if (!ready)
  // CHECK: init-once-flag-elsewhere.c:[[@LINE-1]]:8: error: reading global 'ready' where an example may not have written it yet is not supported in a batch/diff function; a value one example leaves in a global for the next cannot be batched (the examples run together); write it before every read, on every path, or pass the value as a parameter (a static global filled once under a static flag, `if (!ready) { ...; ready = 1; }`, works)
    init();
  ready = 1;
  return table[(int)(x * x) % 16] * x;
}
