/* A pointer re-pointed into another table in a loop that read it before
 * (choosing the table before the loop works). */
static const double PA[2] = {1.0, 2.0}, PB[2] = {3.0, 4.0};
__attribute__((batch, diff)) double f(double x, int n) {
  const double *p = PA;
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += x * p[i & 1];
    if (s > 1.0)
      p = PB;
    // CHECK: ptr-tables-loop.c:[[@LINE-1]]:7: error: re-pointing 'p' into another table ('PB') in a loop that reads it before is not supported in a batch/diff function; choose the table before the loop, or use one pointer per table
  }
  return s;
}
