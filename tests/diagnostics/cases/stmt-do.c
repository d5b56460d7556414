/* A do-while loop. */
__attribute__((batch, diff)) float f(float x) {
  do { x = x * 0.5f; } while (x > 1.0f);
  // CHECK: stmt-do.c:[[@LINE-1]]:3: error: a loop is not supported in a batch/diff function; loops are not supported yet; unroll it by hand
  return x;
}
