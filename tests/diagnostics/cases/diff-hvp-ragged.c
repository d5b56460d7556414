/* NAME_hvp of a function with a BD_PACKED or BD_POINTERS array: its tangent
 * and H·v arrays are strided only so far. */
__attribute__((batch, diff(hvp))) double f(__attribute__((ragged_offsets)) const double *x, int n) {
  // CHECK: diff-hvp-ragged.c:[[@LINE-1]]:42: error: diff(hvp) does not support the BD_PACKED array parameter 'x' yet; NAME_hvp needs strided arrays (drop BD_PACKED, or drop diff(hvp))
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}
