/* Clang drops the arguments of a plugin's [[...]] attribute: a diff mode
 * there would be lost, so it is an error. */
// FLAGS: -std=c2x
[[batchdiff::diff(forward)]] double f(double x) { return x; }
// CHECK: attr-diff-mode-c23.c:[[@LINE-1]]:3: error: a 'diff' mode is read only in the GNU spelling: write __attribute__((diff(forward))) (BD_JVP)
