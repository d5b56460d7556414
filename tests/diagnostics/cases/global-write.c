/* Writing a global on some paths only: after the call it would have to
 * hold the value of the last example that wrote it. */
float last;
__attribute__((batch, diff)) float f(float x) {
  if (x > 0.0f)
    last = x;
  // CHECK: global-write.c:[[@LINE-1]]:5: error: writing global 'last' on some paths only is not supported in a batch/diff function; after the call it must hold what the last example left in it; write it on every path through the function, or return the value instead
  return x;
}
