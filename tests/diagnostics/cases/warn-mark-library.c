/* batch/diff on a C library function the file declares but does not
 * define has no effect, a warning at the mark: batch/diff functions call
 * the library's function (exp and j0 through batchdiff's vector code and
 * derivatives; scalbln, outside that table, once per example, not through
 * a scalbln_batched that nothing defines). */
// EXIT: 0
// DEFINES: g g_batched g_grad h h_batched
// NOREFS: exp_batched exp_grad j0_batched scalbln_batched
double exp(double) __attribute__((batch, diff));
// CHECK: warn-mark-library.c:[[@LINE-1]]:35: warning: 'batch'/'diff' on 'exp', a C library function this file does not define, has no effect: batch/diff functions call the library's 'exp' (through batchdiff's own vector code and derivative where docs/subset.md lists one, else once per example); remove the attribute, or give a function of your own a name of its own
double j0(double) __attribute__((batch, diff));
// CHECK: warn-mark-library.c:[[@LINE-1]]:34: warning: 'batch'/'diff' on 'j0', a C library function this file does not define, has no effect: batch/diff functions call the library's 'j0' (through batchdiff's own vector code and derivative where docs/subset.md lists one, else once per example); remove the attribute, or give a function of your own a name of its own
double scalbln(double, long) __attribute__((batch));
// CHECK: warn-mark-library.c:[[@LINE-1]]:45: warning: 'batch'/'diff' on 'scalbln', a C library function this file does not define, has no effect: batch/diff functions call the library's 'scalbln' (through batchdiff's own vector code and derivative where docs/subset.md lists one, else once per example); remove the attribute, or give a function of your own a name of its own
__attribute__((batch, diff)) double g(double x) { return exp(x) * j0(x); }
__attribute__((batch)) double h(double x) { return scalbln(x, 2L) * x; }
