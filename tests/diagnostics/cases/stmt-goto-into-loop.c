/* goto into the body of a loop from before it. */
__attribute__((batch, diff)) double f(double x, int n) {
  int i = 0;
  if (x > 1.0)
    goto mid;
  // CHECK: stmt-goto-into-loop.c:[[@LINE-1]]:5: error: 'goto mid' into a block, loop or case it is not in is not supported in a batch/diff function; a goto may jump forward into ifs and blocks (not past a declaration used after the label), or to a label in its own block or one around it (forward: 'goto done;', backward: a retry loop)
  while (i < n) {
    x = x * 0.5;
  mid:
    i++;
  }
  return x;
}
