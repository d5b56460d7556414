/* nodiff on an integer parameter is a warning; the code is still generated. */
// EXIT: 0
// DEFINES: f f_batched f_grad g g_batched g_grad
__attribute__((batch, diff)) float f(float x, int n __attribute__((nodiff))) {
  // CHECK: warn-nodiff-integer.c:[[@LINE-1]]:68: warning: 'nodiff' has no effect on parameter 'n' of non-floating type 'int'
  return x * (float)n;
}

/* On a struct with a floating member it removes the shadow: no warning
 * (fuzz seed 44 with --features structs,arrays warned on one). */
typedef struct { int k; double w[2]; } rec;
__attribute__((batch, diff)) double g(double x, rec r __attribute__((nodiff))) {
  return x * r.w[1] + (double)r.k;
}
