/* A pointer to planes needs a declared number of planes (a declared
   'const double c[4][4][4]' or 'c[n][4][4]' works, as do indices that tell
   it: 'c[p]' under 'p < n', constant ones); 'c[k]' does not. */
__attribute__((batch)) double f(const double (*c)[4][4], int k) {
  // CHECK: param-array-3d-planes.c:[[@LINE-1]]:48: error: three-dimensional array parameter 'c' needs a declared number of planes in a batch/diff function; declare it as 'const double c[N][4][4]' or 'const double c[n][4][4]' with an integer parameter n
  return c[k][1][2];
}
