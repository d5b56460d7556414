/* C computes a VLA parameter's dimensions once, on entry: a function that
   assigns one would index its rows by the new value. */
__attribute__((batch)) double f(int r, int c, const double m[r][c]) {
  // CHECK: param-array-vla-assigned.c:[[@LINE-1]]:60: error: array parameter 'm' has rows of 'c' elements, and the function assigns 'c'; C computes the dimension once, on entry: copy 'c' into a local and change that
  double s = 0.0;
  for (int i = 0; i < r; i++, c--)
    s += m[i][0];
  return s;
}
/* The same in a helper: reported where a row is indexed. */
static double last(int r, int c, const double m[r][c]) {
  c = c > 0 ? c : 1;
  return m[r - 1][c - 1];
  // CHECK: param-array-vla-assigned.c:[[@LINE-1]]:10: error: assigning 'c', the dimension of a variable-length array parameter, is not supported in a batch/diff function; C computes the dimension once, on entry: copy 'c' into a local and change that
}
__attribute__((batch)) double g(int r, int c, const double m[r][c]) {
  return last(r, c, m);
}
