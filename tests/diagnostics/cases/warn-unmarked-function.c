/* uniform on a parameter of a function that is not batch/diff: a warning. */
// EXIT: 0
// DEFINES: f
float f(float x __attribute__((uniform))) { return x; }
// CHECK: warn-unmarked-function.c:[[@LINE-1]]:32: warning: 'uniform' has no effect on a function that is not marked batch or diff
