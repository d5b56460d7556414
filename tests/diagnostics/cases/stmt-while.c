/* A while loop. */
__attribute__((batch, diff)) float f(float x) {
  float y = x;
  while (y > 1.0f)
  // CHECK: stmt-while.c:[[@LINE-1]]:3: error: a loop is not supported in a batch/diff function; loops are not supported yet; unroll it by hand
    y = y * 0.5f;
  return y;
}
