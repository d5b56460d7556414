/* goto into a block it is not in, whose statements from the label on fall
 * through (backward and forward gotos to a label in the same block or one
 * around them work, and into a block whose statements from the label on
 * always return). */
__attribute__((batch, diff)) float f(float x) {
  if (x < 0.0f)
    goto inside;
  // CHECK: stmt-goto.c:[[@LINE-1]]:5: error: 'goto inside' into a block, loop or case it is not in is not supported in a batch/diff function; jump only to a label in the same block as the goto or in a block around it (forward: 'goto done;', backward: a retry loop)
  {
    x = x * x;
  inside:
    x = x + 1.0f;
  }
  return x;
}
