/* Writing through a pointer into one of several tables (reading works). */
static double PA[2] = {1.0, 2.0}, PB[2] = {3.0, 4.0};
__attribute__((batch, diff)) double f(double x) {
  double *p = x > 0.0 ? PA : PB;
  p[1] = x;
  // CHECK: ptr-tables-write.c:[[@LINE-1]]:3: error: writing through a pointer into one of the tables 'PA', 'PB' is not supported in a batch/diff function; tables are only read; copy the table into a local array and point into that
  return p[0];
}
