/* Testing an array parameter for null (a helper's tests of a pointer its
   call passes NULL, or the address of a local, fold at the call). */
__attribute__((batch, diff)) double f(const double *p) { return p ? p[0] : 0.0; }
// CHECK: ptr-test.c:[[@LINE-1]]:65: error: testing or converting a pointer is not supported in a batch/diff function; pointers here always point into an array; test an integer index or count instead
