/* Assigning a file-scope function pointer: the function it holds is not
   known to the other calls through it. */
static double sq(double t) { return t * t; }
double (*current)(double);
__attribute__((batch, diff)) double g(double x) {
  current = sq;
  // CHECK: call-function-pointer-global.c:[[@LINE-1]]:3: error: assigning a function pointer that is not local is not supported in a batch/diff function; keep the function in a local function pointer, or pass it to the helpers that call it
  return sq(x);
}
