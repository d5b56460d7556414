/* A '?:' choosing a pointer whose arm reads an array parameter: both arms
 * run in every lane, so 'k < n ? T + x[k] : T' would read x[n] in the
 * lanes where C does not (past the caller's array). Taking an address,
 * '&x[k]', reads nothing and works. */
static const double T[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__attribute__((batch, diff)) double f(int n, const int x[n], double t) {
  int k = n > 2 ? 2 : n;
  const double *c = k < n ? T + x[k] : T;
  // CHECK: ptr-conditional-read.c:[[@LINE-1]]:29: error: a '?:' choosing pointers whose arm reads an array parameter or through a pointer is not supported in a batch/diff function; both arms run in every lane, where C may not read there: choose the pointer with if/else, or read the value under an if first
  return c[0] * t;
}
