/* An offset view of a pointer parameter (1-based code on a 0-based array,
 * 'const double *a = x - 1;') indexed from 0 under a loop: a[0] would read
 * x[-1], before the array, so no extent explains it (a[1] .. a[n], from
 * 'for (i = 1; i <= n; i++)' or 'for (i = n; i >= 1; i--)', give n) */
__attribute__((batch, diff)) double f(const double *x, int n) {
  const double *a = x - 1;
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i];
  // CHECK: param-array-extent-view.c:[[@LINE-1]]:12: error: this index of 'a' ('a = x - 1') can be 0, which reads 'x[-1]', before the start of 'x'; start at 1 ('a[1]' is 'x[0]'), or, if a test keeps it there, declare the extent: 'const double x[n]' with an integer parameter n before it, or BD_EXTENT(n)
  return s;
}
/* f2c's `--x;` on entry makes x a view of itself: x[0] there is the
   caller's x[-1]. */
__attribute__((batch, diff)) double g(const double *x, int n) {
  double s = 0.0;
  --x;
  for (int i = 0; i < n; i++)
    s += x[i];
  // CHECK: param-array-extent-view.c:[[@LINE-1]]:12: error: this index of 'x' ('x = x - 1') can be 0, which reads 'x[-1]', before the start of 'x'; start at 1 ('x[1]' is 'x[0]'), or, if a test keeps it there, declare the extent: 'const double x[n]' with an integer parameter n before it, or BD_EXTENT(n)
  return s;
}
