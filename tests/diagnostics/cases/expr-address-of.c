/* Taking the address of a global. */
float gain = 2.0f;
static inline float get(const float *p) { return *p; }
__attribute__((batch, diff)) float f(float x) {
  return x * get(&gain);
  // CHECK: expr-address-of.c:[[@LINE-1]]:18: error: taking the address of global 'gain' is not supported in a batch/diff function; take the address of a local scalar or of an array element
}
