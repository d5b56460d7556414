/* Arrays of narrow elements are not batched yet. */
__attribute__((batch)) int f(const short s[4]) {
  // CHECK: param-array-element.c:[[@LINE-1]]:42: error: array parameter 's' of 'const short' is not supported yet in a batch/diff function; use int, float or double elements
  return s[0];
}
