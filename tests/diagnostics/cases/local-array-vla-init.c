/* An initializer of a variable-length local array (C23's `= {}`). */
// FLAGS: -std=c23
__attribute__((batch, diff)) double f(double x, int n) {
  double v[n] = {};
  // CHECK: local-array-vla-init.c:[[@LINE-1]]:17: error: an initializer of a variable-length array is not supported in a batch/diff function; assign its elements in a loop
  v[0] = x;
  return v[0];
}
