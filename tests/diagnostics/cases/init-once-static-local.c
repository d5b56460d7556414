/* A block run once under a function's static local flag: the generated
 * code cannot name the function's statics. */
static double table[16];
__attribute__((batch, diff)) double f(double x) {
  static int ready;
  if (!ready) {
    // CHECK: init-once-static-local.c:[[@LINE-1]]:7: error: a block run once under static local 'ready' is not supported in a batch/diff function; batchdiff runs the block as a function of its own, which cannot name a function's static locals; declare 'ready' (and what the block fills) at file scope, static
    for (int i = 0; i < 16; i++)
      table[i] = 0.5 * i;
    ready = 1;
  }
  return table[(int)(x * x) % 16] * x;
}
