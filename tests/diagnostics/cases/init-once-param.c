/* A table filled once under a static flag from a parameter: the first
 * example to reach the block would decide the table for all. */
#include <math.h>
static double table[16];
static int ready;
__attribute__((batch, diff)) double f(double x) {
  if (!ready) {
    for (int i = 0; i < 16; i++)
      table[i] = x * i;
    // CHECK: init-once-param.c:[[@LINE-1]]:18: error: using 'x', a value of the example, in the block run once under 'ready' is not supported in a batch/diff function; a block run once under a static flag (`if (!ready) { ...; ready = 1; }`) may use constants, globals and its own locals, and write only 'static' globals (the first example to reach it would decide for all); compute what depends on the example outside the block
    ready = 1;
  }
  return table[(int)fabs(x) % 16] * x;
}
