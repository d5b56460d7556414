/* A struct with a bit-field member (reported at the variable). */
struct opt { double strike; unsigned call : 1; };
__attribute__((batch, diff)) double f(double x) {
  struct opt o = {x, 1};
  // CHECK: struct-bitfield.c:[[@LINE-1]]:14: error: bit-field member 'call' of 'struct opt' is not supported in a batch/diff function; use a plain integer member
  return o.strike;
}
