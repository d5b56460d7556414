/* A function declared but not defined in this file. */
float elsewhere(float);
__attribute__((batch, diff)) float f(float x) {
  return 2.0f * elsewhere(x);
  // CHECK: call-unknown.c:[[@LINE-1]]:17: error: call to unknown function 'elsewhere' is not supported in a batch/diff function; only <math.h> functions, batch/diff functions and static inline helpers defined earlier in this file can be called
}
