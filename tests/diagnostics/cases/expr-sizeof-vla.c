/* `sizeof` of a variable-length array type (`sizeof t` of a local
 * variable-length array works). */
__attribute__((batch, diff)) double f(double x, int n) {
  return x * sizeof(double[n]);
  // CHECK: expr-sizeof-vla.c:[[@LINE-1]]:14: error: 'sizeof' of a variable-length array is not supported in a batch/diff function; multiply the size by the element's ('n * sizeof(double)'); 'sizeof t' of a local variable-length array works
}
