/* BD_PACKED and BD_POINTERS on one parameter: two layouts at once. */
__attribute__((batch)) double f(__attribute__((ragged_offsets, ragged_pointers)) const double *x, int n) {
  // CHECK: param-ragged-both.c:[[@LINE-1]]:96: error: array parameter 'x' is marked both BD_PACKED and BD_POINTERS; pick one layout
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
