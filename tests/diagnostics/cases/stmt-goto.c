/* goto (reported before the label it jumps to). */
__attribute__((batch, diff)) float f(float x) {
  if (x < 0.0f)
    goto done;
  // CHECK: stmt-goto.c:[[@LINE-1]]:5: error: 'goto' is not supported in a batch/diff function; use if/else and early returns
  x = x * x;
done:
  return x;
}
