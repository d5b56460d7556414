/* BD_PACKED on a scalar: only arrays have a per-example layout. */
__attribute__((batch)) double f(__attribute__((ragged_offsets)) double x) {
  // CHECK: param-ragged-scalar.c:[[@LINE-1]]:72: error: BD_PACKED on scalar parameter 'x': only pointer and array parameters have a per-example layout; remove it
  return x;
}
