/* A BD_UNIFORM array that the function writes would be written by every
 * example of the batch. */
__attribute__((batch)) void f(float x, __attribute__((uniform)) float out[4]) {
  // CHECK: param-array-uniform-output.c:[[@LINE-1]]:71: error: BD_UNIFORM output array 'out': every example would write the same array; make it varying (one array per example) or const
  out[0] = x;
}
