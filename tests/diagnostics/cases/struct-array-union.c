/* An array of unions (arrays of records work). */
union pair { double d; float f[2]; };
__attribute__((batch, diff)) double f(const union pair *p) {
  // CHECK: struct-array-union.c:[[@LINE-1]]:57: error: parameter 'p' of type 'union pair' is not supported in a batch/diff function; unions work inside the body (locals, and helpers' parameters and return values); pass or return the member's value instead
  return p->d;
}
