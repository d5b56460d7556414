/* A table of short: tables are read with gathers of 32- or 64-bit elements. */
static const short steps[4] = {1, 2, 4, 8};
__attribute__((batch)) int f(int i) {
  return steps[i & 3];
  // CHECK: global-table-type.c:[[@LINE-1]]:10: error: the global table 'steps' of type 'const short[4]' is not supported in a batch/diff function; use a one-dimensional table of int, long, float or double
}
