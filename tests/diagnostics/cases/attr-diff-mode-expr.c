/* diff's mode is a name, not a value. */
__attribute__((diff(1))) double f(double x) { return x; }
// CHECK: attr-diff-mode-expr.c:[[@LINE-1]]:21: error: 'diff' takes one mode, reverse (NAME_grad), forward (NAME_jvp) or hvp (NAME_hvp); for several write diff(reverse), diff(forward)
