/* goto back into a block whose statements from the label on leave by a
   goto to a label the first goto could not jump to from where it is (in a
   block that does not hold it): not lowered as a copy of them (a goto to a
   label around both, cephes' 'goto done;', works, and so does a forward
   goto into these blocks). */
__attribute__((batch)) double f(double x) {
  if (x > 5.0) {
    {
    in:
      x = 1.0;
      goto out;
    }
    x = 2.0;
  out:
    x += 3.0;
  }
  if (x < 0.0)
    goto in;
  // CHECK: stmt-goto-tail-jump.c:[[@LINE-1]]:5: error: 'goto in' into a block, loop or case it is not in is not supported in a batch/diff function; a goto may jump forward into ifs and blocks (not past a declaration used after the label), or to a label in its own block or one around it (forward: 'goto done;', backward: a retry loop)
  return x;
}
