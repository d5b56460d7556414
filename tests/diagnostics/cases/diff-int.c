/* 'diff' on an integer function without a floating output (also with a
 * calling convention attribute on the function type: located at the type). */
__attribute__((batch, diff)) int f(float x, int *flag) {
  // CHECK: diff-int.c:[[@LINE-1]]:30: error: 'diff' on a function returning a non-floating type without a floating output is not supported in a batch/diff function; return float or double, write the results through float or double pointer parameters, or use only 'batch'
  *flag = x > 1.0f;
  return x > 0.0f;
}
__attribute__((ms_abi)) __attribute__((batch, diff)) int g(float x) {
  // CHECK: diff-int.c:[[@LINE-1]]:54: error: 'diff' on a function returning a non-floating type without a floating output is not supported in a batch/diff function; return float or double, write the results through float or double pointer parameters, or use only 'batch'
  return x > 0.0f;
}
