/* An array of unions without an integer member of their size as a
 * parameter (with one, 'uint64_t u', arrays of unions work). */
union pair { double d; float f[2]; };
__attribute__((batch, diff)) double f(const union pair *p) {
  // CHECK: struct-array-union.c:[[@LINE-1]]:57: error: parameter 'p' of type 'union pair' is not supported in a batch/diff function; a union passed to or from the annotated function needs an integer member of its size ('uint64_t u'), which carries its bits; add one, or pass the member's value
  return p->d;
}
