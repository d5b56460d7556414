/* Subscripting a global table (only local arrays can be indexed). */
const float table[4] = {1.0f, 2.0f, 4.0f, 8.0f};
__attribute__((batch, diff)) float f(int i, float x) {
  return x * table[i & 3];
  // CHECK: expr-subscript.c:[[@LINE-1]]:14: error: array subscripting of anything but a local array is not supported in a batch/diff function; index a local array or an array parameter of the function
}
