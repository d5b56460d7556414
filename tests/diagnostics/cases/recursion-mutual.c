/* Mutual recursion through static inline helpers: reported at the call
   that closes the cycle. */
static inline float odd(float x);
static inline float even(float x) { return x > 1.0f ? odd(x - 1.0f) : x; }
static inline float odd(float x) { return even(x * 0.5f); }
  // CHECK: recursion-mutual.c:[[@LINE-1]]:43: error: recursion (through 'even') is not supported in a batch/diff function; write the recursion as a loop
__attribute__((batch, diff)) float f(float x) { return even(x); }
