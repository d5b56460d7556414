/* goto back into a block it is not in, whose statements from the label on
 * fall through (forward gotos into ifs and blocks, backward and forward
 * gotos to a label in the same block or one around them, and gotos into a
 * block whose statements from the label on always return work). */
__attribute__((batch, diff)) float f(float x) {
  {
    x = x * x;
  inside:
    x = x + 1.0f;
  }
  if (x < 3.0f)
    goto inside;
  // CHECK: stmt-goto.c:[[@LINE-1]]:5: error: 'goto inside' into a block, loop or case it is not in is not supported in a batch/diff function; a goto may jump forward into ifs and blocks (not past a declaration used after the label), or to a label in its own block or one around it (forward: 'goto done;', backward: a retry loop)
  return x;
}
