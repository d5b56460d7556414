/* batch/diff on a declaration without a prototype (K&R 'double f();') of a
 * function this file does not define: its generated functions (another
 * file's) cannot be called without its parameters' types, so callers call
 * the scalar f once per example and the mark has no effect: a warning at
 * the mark. (A definition in this file, K&R or not, takes the mark.) */
// EXIT: 0
// FLAGS: -Wno-deprecated-non-prototype
// DEFINES: g g_batched k k_batched k_grad
// NOREFS: f_batched
double f() __attribute__((batch, diff));
// CHECK: warn-mark-no-prototype.c:[[@LINE-1]]:27: warning: 'batch'/'diff' on 'f', declared without a prototype and not defined in this file, has no effect: batch/diff functions call 'f' once per example on the scalar function, since its generated functions cannot be called without its parameters' types (and a differentiated argument of it is an error); declare it with its parameters, as its definition has them
__attribute__((batch)) double g(double x) { return f(x) * x; }

/* Defined here (K&R): the mark applies, no warning. */
double k() __attribute__((batch, diff));
double k(x) double x; { return x * x; }
