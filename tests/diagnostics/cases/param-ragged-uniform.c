/* A BD_UNIFORM array is one array for the batch: it has no layout. */
__attribute__((batch)) double f(__attribute__((uniform, ragged_pointers)) const double *x, int n) {
  // CHECK: param-ragged-uniform.c:[[@LINE-1]]:89: error: BD_UNIFORM array 'x' cannot be BD_POINTERS: one array for the whole batch has no per-example layout; drop one of the two
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
