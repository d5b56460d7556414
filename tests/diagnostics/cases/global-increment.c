/* Incrementing a global counter: each example would read what the one
 * before it left. */
int calls;
__attribute__((batch, diff)) float f(float x) {
  calls++;
  // CHECK: global-increment.c:[[@LINE-1]]:3: error: reading global 'calls' where an example may not have written it yet is not supported in a batch/diff function; a value one example leaves in a global for the next cannot be batched (the examples run together); write it before every read, on every path, or pass the value as a parameter (a static global filled once under a static flag, `if (!ready) { ...; ready = 1; }`, works)
  return x;
}
