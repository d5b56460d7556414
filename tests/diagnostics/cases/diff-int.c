/* 'diff' on an integer function without a floating output. */
__attribute__((batch, diff)) int f(float x, int *flag) {
  // CHECK: diff-int.c:[[@LINE-1]]:30: error: 'diff' on a function returning a non-floating type without a floating output is not supported in a batch/diff function; return float or double, write the results through float or double pointer parameters, or use only 'batch'
  *flag = x > 1.0f;
  return x > 0.0f;
}
