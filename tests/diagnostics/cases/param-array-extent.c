/* A pointer indexed by something no loop bound or constant explains. */
__attribute__((batch, diff)) float f(const float *v, int k) {
  return v[k * 2];
  // CHECK: param-array-extent.c:[[@LINE-1]]:12: error: cannot infer the extent of 'v' in a batch/diff function; declare it as 'const float v[n]' with an integer parameter n before it (or arithmetic of such parameters, 'v[n + 1]'), or 'const float v[static N]', or annotate it BD_EXTENT(n)
}
