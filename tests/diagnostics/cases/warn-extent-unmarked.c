/* BD_EXTENT on a parameter of a function that is not batch/diff. */
// EXIT: 0
// DEFINES: f
#include <batchdiff.h>
double f(const double *x BD_EXTENT(n), int n) { return x[n - 1]; }
// CHECK: warn-extent-unmarked.c:[[@LINE-1]]:26: warning: 'extent' has no effect on a function that is not marked batch or diff
