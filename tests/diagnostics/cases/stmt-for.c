/* A for loop: loops are errors until loop support lands. */
__attribute__((batch, diff)) float f(float x) {
  for (int i = 0; i < 3; i++)
  // CHECK: stmt-for.c:[[@LINE-1]]:3: error: a loop is not supported in a batch/diff function; loops are not supported yet; unroll it by hand
    x *= 2.0f;
  return x;
}
