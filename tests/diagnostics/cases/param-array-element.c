/* Output arrays of narrow elements are not batched yet (inputs are). */
__attribute__((batch)) void f(short s[4], const short t[4]) {
  // CHECK: param-array-element.c:[[@LINE-1]]:37: error: output array parameter 's' of 'short' is not supported yet in a batch/diff function; use int, float or double elements (const arrays of char, short and _Bool elements are read)
  s[0] = t[1];
}
