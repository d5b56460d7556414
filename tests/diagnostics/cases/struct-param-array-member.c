/* A struct parameter with an array member (struct locals may have them). */
typedef struct { double w[3]; double b; } layer;
__attribute__((batch, diff)) double f(layer l, double x) {
  // CHECK: struct-param-array-member.c:[[@LINE-1]]:45: error: the array member 'w' of struct parameter 'l' is not supported in a batch/diff function; pass the array as an array parameter, or use scalar members
  return l.w[0] * x + l.b;
}
