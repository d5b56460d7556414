/* 'diff' on an integer function. */
__attribute__((batch, diff)) int f(float x) {
  // CHECK: diff-int.c:[[@LINE-1]]:30: error: 'diff' on a function returning a non-floating type is not supported in a batch/diff function; return float or double, or use only 'batch'
  return x > 0.0f;
}
