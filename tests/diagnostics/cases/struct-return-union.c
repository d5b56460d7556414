/* A union return value of a diff function (at the function; in a batch
 * function it works). */
typedef union { double d; long long bits; } num;
__attribute__((batch, diff)) num f(double x) {
  // CHECK: struct-return-union.c:[[@LINE-1]]:34: error: the return value of type 'num' in a diff function is not supported in a batch/diff function; its bits carry no derivative: return the floating member's value
  num u;
  u.d = x;
  return u;
}
