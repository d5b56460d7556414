/* A block run once that calls a function of another file: what it writes
 * cannot be checked. */
extern void fill_from_disk(double *t, int n);
static double table[16];
static int ready;
__attribute__((batch, diff)) double f(double x) {
  if (!ready) {
    fill_from_disk(table, 16);
    // CHECK: init-once-outside.c:[[@LINE-1]]:5: error: a call of 'fill_from_disk', which this file does not define, in the block run once under 'ready' is not supported in a batch/diff function; a block run once under a static flag (`if (!ready) { ...; ready = 1; }`) may use constants, globals and its own locals, and write only 'static' globals; batchdiff must see what it writes: define it in this file
    ready = 1;
  }
  return table[(int)(x * x) % 16] * x;
}
