/* goto from one case of a switch into another. */
__attribute__((batch)) double f(double x, int k) {
  switch (k) {
  case 0:
    x = x + 1.0;
    goto two;
  // CHECK: stmt-goto-into-case.c:[[@LINE-1]]:5: error: 'goto two' into a block, loop or case it is not in is not supported in a batch/diff function; a goto may jump forward into ifs and blocks (not past a declaration used after the label), or to a label in its own block or one around it (forward: 'goto done;', backward: a retry loop)
  case 1:
    x = x * 2.0;
  two:
    x = x - 3.0;
    break;
  }
  return x;
}
