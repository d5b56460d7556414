/* A helper writing into a file-scope table passed to it (tables are only
 * read). */
static double work[4];
static void keep(double *w, double v) { w[1] = v; }
// CHECK: global-table-write.c:[[@LINE-1]]:41: error: writing into global table 'work' is not supported in a batch/diff function; tables are only read, or filled once under a static flag (`if (!ready) { ...; ready = 1; }`, from no value of the example); copy it into a local array, or write into an array parameter
__attribute__((batch, diff)) double f(double x) {
  keep(work, x);
  return x * work[0];
}
