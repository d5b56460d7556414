/* diff's mode is reverse (NAME_grad), forward (NAME_jvp) or hvp (NAME_hvp). */
__attribute__((diff(sideways))) double f(double x) { return x; }
// CHECK: attr-diff-mode.c:[[@LINE-1]]:21: error: unknown 'diff' mode 'sideways'; expected reverse (NAME_grad), forward (NAME_jvp) or hvp (NAME_hvp)
