/* Reading a global's old value, then writing it (a global every example
 * writes before reading it works). */
double state;
__attribute__((batch, diff)) double f(double x) {
  double old = state;
  // CHECK: global-carried.c:[[@LINE-1]]:16: error: reading global 'state' where an example may not have written it yet is not supported in a batch/diff function; a value one example leaves in a global for the next cannot be batched (the examples run together); write it before every read, on every path, or pass the value as a parameter (a static global filled once under a static flag, `if (!ready) { ...; ready = 1; }`, works)
  state = x;
  return x + old;
}
