/* A pointer read before anything points it into an array. */
__attribute__((batch, diff)) double f(double x) {
  double t[2] = {x, x};
  double *p;
  double s = x;
  for (int i = 0; i < 2; i++) {
    if (i > 0)
      s += *p;
    // CHECK: ptr-uninit.c:[[@LINE-1]]:13: error: reading pointer 'p' before it points into an array is not supported in a batch/diff function; initialise it where it is declared
    p = t + i;
  }
  return s;
}

/* Set to NULL, then read by a loop's test before its first assignment,
   which does not say which array (a choice between two array parameters
   declared without a length): '&a[i]', 'a + k', 'a', 'tab[k]' or a '?:'
   of those into one array, into tables or into read-only array parameters
   declared with a length say it. */
#include <stddef.h>
__attribute__((batch)) double g(const double *a, const double *b,
                                double x) {
  const double *best = NULL;
  for (int i = 0; i < 4; i++)
    if (!best || *best < x)
      // CHECK: ptr-uninit.c:[[@LINE-1]]:19: error: reading pointer 'best', set to NULL, before it points into an array (its first assignment, at line 27, does not say which array) is not supported in a batch/diff function; make that assignment '&a[i]', 'a + k', 'a', 'tab[k]' of a table of pointers, or a '?:' of those into one array, into read-only tables or into read-only array parameters declared with a constant length ('a[N]', N a constant); or keep an index instead of a pointer ('int k = -1;', then 'if (k >= 0)')
      best = x > 0 ? a : b;
  return x;
}
