/* A flat matrix A[i * c + j] (or a row pointer A + i * c read as row[j])
   gives r x c elements only when j's loop is counted by the multiplier c
   and nothing else indexes A; another integer parameter as the multiplier,
   A[i * r + j], is a leading dimension ((r - 1) * r + c elements,
   param-array-extent-column.c), a local is neither. */
__attribute__((batch)) double f(const double *A, int r, int c) {
  double s = 0;
  int k = r + c;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      s += A[i * k + j];
  // CHECK: param-array-extent-flat.c:[[@LINE-1]]:14: error: cannot infer the extent of 'A' in a batch/diff function; declare it as 'const double A[n]' with an integer parameter n before it (or arithmetic of such parameters, 'A[n + 1]'), or 'const double A[static N]', or annotate it BD_EXTENT(n)
  return s;
}
__attribute__((batch)) double g(const double *A, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      s += A[i * c + j] * A[j];
  // CHECK: param-array-extent-flat.c:[[@LINE-1]]:14: error: cannot infer the extent of 'A' in a batch/diff function; declare it as 'const double A[n]' with an integer parameter n before it (or arithmetic of such parameters, 'A[n + 1]'), or 'const double A[static N]', or annotate it BD_EXTENT(n)
  return s;
}
__attribute__((batch)) double h(const double *A, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++) {
    const double *row = A + i * c;
    for (int j = 0; j < r; j++)
      s += row[j];
    // CHECK: param-array-extent-flat.c:[[@LINE-1]]:16: error: cannot infer the extent of 'A' in a batch/diff function; declare it as 'const double A[n]' with an integer parameter n before it (or arithmetic of such parameters, 'A[n + 1]'), or 'const double A[static N]', or annotate it BD_EXTENT(n)
  }
  return s;
}
