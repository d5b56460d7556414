/* ragged_offsets on a parameter of a function that is not batch/diff. */
// EXIT: 0
// DEFINES: f
double f(__attribute__((ragged_offsets)) const double *x) { return x[0]; }
// CHECK: warn-ragged-unmarked.c:[[@LINE-1]]:25: warning: 'ragged_offsets' has no effect on a function that is not marked batch or diff
