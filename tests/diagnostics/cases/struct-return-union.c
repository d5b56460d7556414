/* A union return value (struct return values work; at the function). */
typedef union { double d; long long bits; } num;
__attribute__((batch)) num f(double x) {
  // CHECK: struct-return-union.c:[[@LINE-1]]:28: error: the return value of type 'num' is not supported in a batch/diff function; unions work inside the body (locals, and helpers' parameters and return values); pass or return the member's value instead
  num u;
  u.d = x;
  return u;
}
