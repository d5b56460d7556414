/* A label nobody jumps to. */
__attribute__((batch, diff)) float f(float x) {
  x = x * x;
 again:
  // CHECK: stmt-label.c:[[@LINE-1]]:2: error: a label is not supported in a batch/diff function; use if/else and early returns
  return x;
}
