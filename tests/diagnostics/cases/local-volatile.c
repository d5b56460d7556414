/* A volatile local whose address is taken (one whose address is never
   taken is an ordinary local: R's qbeta). */
__attribute__((batch, diff)) float f(float x) {
  volatile float y = x;
  // CHECK: local-volatile.c:[[@LINE-1]]:18: error: a volatile variable is not supported in a batch/diff function; remove 'volatile'
  volatile float *p = &y;
  return *p;
}
