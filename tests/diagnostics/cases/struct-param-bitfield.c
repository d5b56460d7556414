/* A struct parameter with a bit-field member (reported at the parameter). */
typedef struct { double x; int flags : 3; } tagged;
__attribute__((batch, diff)) double f(tagged a) {
  // CHECK: struct-param-bitfield.c:[[@LINE-1]]:46: error: bit-field member 'flags' of 'tagged' is not supported in a batch/diff function; use a plain integer member
  return a.x;
}
