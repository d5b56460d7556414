/* A column-major matrix a[i + j * lda] (i < m, j < n) gives (n - 1) * lda
   + m elements only with one leading dimension, loops keeping i and j at 0
   or above, and nothing else indexing a; the triangle `i <= j` only when
   j's loop is the one place that changes j. */
__attribute__((batch)) double f(int m, int n, const double *a, int lda,
                                int ldb) {
  double s = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++)
      s += a[i + j * lda] - a[i + j * ldb];
  // CHECK: param-array-extent-column.c:[[@LINE-1]]:31: error: cannot infer the extent of 'a' in a batch/diff function; declare it as 'const double a[n]' with an integer parameter n before it (or arithmetic of such parameters, 'a[n + 1]'), or 'const double a[static N]', or annotate it BD_EXTENT(n)
  return s;
}
__attribute__((batch)) double g(int n, const double *r, int ldr) {
  double s = r[0];
  for (int j = 0; j < n; j++)
    s += r[j + j * ldr];
  // CHECK: param-array-extent-column.c:[[@LINE-1]]:12: error: cannot infer the extent of 'r' in a batch/diff function; declare it as 'const double r[n]' with an integer parameter n before it (or arithmetic of such parameters, 'r[n + 1]'), or 'const double r[static N]', or annotate it BD_EXTENT(n)
  return s;
}
__attribute__((batch)) double h(int n, const double *r, int ldr) {
  double s = 0;
  int i, j;
  for (j = 0; j < n; j++) {
    if (s > 0)
      j++;
    for (i = 0; i <= j; i++)
      s += r[i + j * ldr];
    // CHECK: param-array-extent-column.c:[[@LINE-1]]:14: error: cannot infer the extent of 'r' in a batch/diff function; declare it as 'const double r[n]' with an integer parameter n before it (or arithmetic of such parameters, 'r[n + 1]'), or 'const double r[static N]', or annotate it BD_EXTENT(n)
  }
  return s;
}
__attribute__((batch)) double k(int n, const double *r, int ldr, int c) {
  double s = 0;
  for (int j = 0; j < n; j++)
    for (int i = j - c; i < n; i++)
      s += r[i + j * ldr];
  // CHECK: param-array-extent-column.c:[[@LINE-1]]:14: error: cannot infer the extent of 'r' in a batch/diff function; declare it as 'const double r[n]' with an integer parameter n before it (or arithmetic of such parameters, 'r[n + 1]'), or 'const double r[static N]', or annotate it BD_EXTENT(n)
  return s;
}
