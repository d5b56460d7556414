/* Taking the address of a local. */
__attribute__((batch, diff)) float f(float x) {
  (void)&x;
  // CHECK: expr-address-of.c:[[@LINE-1]]:9: error: taking addresses or dereferencing pointers is not supported in a batch/diff function; index array parameters and local arrays with [] instead
  return x;
}
