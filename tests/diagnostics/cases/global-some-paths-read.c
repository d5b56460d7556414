/* Reading a global written on some paths only where a path may reach the
 * read without the write (writing it on some paths works: it is left as
 * the last example that wrote it leaves it). */
float last;
__attribute__((batch, diff)) float f(float x) {
  if (x > 0.0f)
    last = x;
  return x + last;
  // CHECK: global-some-paths-read.c:[[@LINE-1]]:14: error: reading global 'last' where an example may not have written it yet is not supported in a batch/diff function; a value one example leaves in a global for the next cannot be batched (the examples run together); write it before every read, on every path, or pass the value as a parameter (a static global filled once under a static flag, `if (!ready) { ...; ready = 1; }`, works)
}
