/* A switch on a type without SIMD lanes. */
__attribute__((batch)) double f(double x, long long k) {
  switch ((__int128)k) {
  // CHECK: stmt-switch-type.c:[[@LINE-1]]:11: error: a 'switch' on this type is not supported in a batch/diff function; switch on an integer
  case 0:
    return x;
  }
  return -x;
}
