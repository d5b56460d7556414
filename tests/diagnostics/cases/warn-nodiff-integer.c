/* nodiff on an integer parameter is a warning; the code is still generated. */
// EXIT: 0
// DEFINES: f f_batched f_grad
__attribute__((batch, diff)) float f(float x, int n __attribute__((nodiff))) {
  // CHECK: warn-nodiff-integer.c:[[@LINE-1]]:68: warning: 'nodiff' has no effect on parameter 'n' of non-floating type 'int'
  return x * (float)n;
}
