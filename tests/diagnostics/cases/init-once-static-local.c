/* A block run once under a function's static local flag that writes a
 * file-scope global: the generated code runs the block again, on copies of
 * the function's static locals, so it may write only those. */
static double table[16];
__attribute__((batch, diff)) double f(double x) {
  static int ready;
  if (!ready) {
    for (int i = 0; i < 16; i++)
      table[i] = 0.5 * i;
    // CHECK: init-once-static-local.c:[[@LINE-1]]:7: error: writing global 'table' in the block run once under static local 'ready' is not supported in a batch/diff function; the generated code runs such a block again, on its own copies of the function's static locals, so it may write only those; declare 'ready' (and what the block fills) at file scope, static
    ready = 1;
  }
  return table[(int)(x * x) % 16] * x;
}
