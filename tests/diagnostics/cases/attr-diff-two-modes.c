/* One mode per diff(...): clang parses a second argument as an expression
 * (here it names a variable; otherwise clang reports it undeclared). */
int forward;
__attribute__((diff(reverse, forward))) double f(double x) { return x; }
// CHECK: attr-diff-two-modes.c:[[@LINE-1]]:16: error: 'diff' attribute takes no more than 1 argument
