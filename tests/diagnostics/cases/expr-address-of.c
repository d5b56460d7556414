/* Taking the address of a local. */
__attribute__((batch, diff)) float f(float x) {
  (void)&x;
  // CHECK: expr-address-of.c:[[@LINE-1]]:9: error: taking addresses or dereferencing pointers is not supported in a batch/diff function; pointer and array parameters are not supported yet
  return x;
}
