/* Indexing a global pointer (global arrays are tables, and work). */
const float *table;
__attribute__((batch, diff)) float f(int i, float x) {
  return x * table[i & 3];
  // CHECK: expr-subscript.c:[[@LINE-1]]:14: error: indexing global pointer 'table' is not supported in a batch/diff function; make it a global array, or pass the data as an array parameter
}
