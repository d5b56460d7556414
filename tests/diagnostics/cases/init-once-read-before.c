/* Reading a table filled once before the test that fills it: an example
 * after the first would see it filled in the scalar loop, not batched. */
static double table[16];
static int ready;
static void init(void) {
  for (int i = 0; i < 16; i++)
    table[i] = 0.5 * i;
  ready = 1;
}
__attribute__((batch, diff)) double f(double x) {
  double first = table[1];
  // CHECK: init-once-read-before.c:[[@LINE-1]]:18: error: reading global 'table' where an example may not have run the block that 'ready' guards, is not supported in a batch/diff function; the block runs once, when the first example reaches it, and the examples run together; read what it fills only after the test of 'ready', on every path
  if (!ready)
    init();
  return table[(int)(x * x) % 16] * x + first;
}
