/* goto forward into an if past a declaration the statements after the
   label read (its value would be indeterminate on the goto's path); a goto
   into ifs past statements that declare nothing read later works. */
__attribute__((batch, diff)) double f(double x) {
  if (x < 0.0)
    goto in;
  // CHECK: stmt-goto-enter-decl.c:[[@LINE-1]]:5: error: 'goto in' into a block, loop or case it is not in is not supported in a batch/diff function; a goto may jump forward into ifs and blocks (not past a declaration used after the label), or to a label in its own block or one around it (forward: 'goto done;', backward: a retry loop)
  double t = x * x;
  if (x > 1.0) {
    x = x * 2.0;
  in:
    x = x + t;
  }
  return x;
}
