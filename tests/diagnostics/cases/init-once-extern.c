/* A table other files can name, filled once under a static flag (the
 * block may write static globals only). */
double table[16];
static int ready;
static void init(void) {
  for (int i = 0; i < 16; i++)
    table[i] = 0.5 * i;
  // CHECK: init-once-extern.c:[[@LINE-1]]:5: error: writing global 'table', which other files can name, in the block run once under 'ready' is not supported in a batch/diff function; a block run once under a static flag (`if (!ready) { ...; ready = 1; }`) may use constants, globals and its own locals, and write only 'static' globals; declare 'table' static
  ready = 1;
}
__attribute__((batch, diff)) double f(double x) {
  if (!ready)
    init();
  return table[(int)(x * x) % 16] * x;
}
