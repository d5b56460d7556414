/* A '?:' choosing a pointer whose arm calls a helper: both arms run in
 * every lane, so only <math.h> calls may be there (a call in the condition,
 * 'fabs(x) < 1 ? A : B', runs once and works; so does a nested '?:' whose
 * condition calls only <math.h> functions). */
static const double A[2] = {1.0, 2.0}, B[2] = {3.0, 4.0};
static int small(double x) { return x * x < 0.25; }
__attribute__((batch, diff)) double f(double x) {
  const double *c = x < 0.0 ? A : small(x) ? B : A;
  // CHECK: ptr-conditional-call.c:[[@LINE-1]]:35: error: a '?:' choosing pointers whose arm calls a function or has a side effect is not supported in a batch/diff function; choose the pointer with if/else (only <math.h> calls may be in the arms), or compute the offset with '?:' and add it to one pointer
  return c[0] * x + c[1];
}
