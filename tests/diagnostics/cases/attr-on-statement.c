/* A C23 attribute on a statement. */
// FLAGS: -std=c23
float f(float x) {
  [[batchdiff::diff]] return x;
  // CHECK: attr-on-statement.c:[[@LINE-1]]:5: error: 'diff' attribute only applies to functions
}
