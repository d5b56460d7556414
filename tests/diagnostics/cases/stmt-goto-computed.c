/* A computed goto (GNU labels as values). */
__attribute__((batch)) double f(double x) {
  goto *(x > 0.0 ? &&pos : &&neg);
  // CHECK: stmt-goto-computed.c:[[@LINE-1]]:3: error: a computed 'goto' is not supported in a batch/diff function; jump to a named label
pos:
  return x;
neg:
  return -x;
}
