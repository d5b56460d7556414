/* goto into a block whose statements from the label on always return, but
   read a variable declared in that block before the label (not initialised
   on the goto's path): not lowered as a copy of them. */
__attribute__((batch)) double f(double x) {
  if (x < 0.0) {
    double t = x * x;
  neg:
    return t;
  }
  if (x > 10.0)
    goto neg;
  // CHECK: stmt-goto-tail-var.c:[[@LINE-1]]:5: error: 'goto neg' into a block, loop or case it is not in is not supported in a batch/diff function; a goto may jump forward into ifs and blocks (not past a declaration used after the label), or to a label in its own block or one around it (forward: 'goto done;', backward: a retry loop)
  return x;
}
