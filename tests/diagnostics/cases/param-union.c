/* A union parameter (struct parameters work). */
union pair { float a; int b; };
__attribute__((batch, diff)) float f(union pair p) {
  // CHECK: param-union.c:[[@LINE-1]]:49: error: parameter 'p' of type 'union pair' is not supported in a batch/diff function; unions work inside the body (locals, and helpers' parameters and return values); pass or return the member's value instead
  return 0.0f;
}
