/* A union parameter of a diff function (in a batch function, or
 * BD_NODIFF, a union with an integer member of its size works). */
union pair { float a; int b; };
__attribute__((batch, diff)) float f(union pair p) {
  // CHECK: param-union.c:[[@LINE-1]]:49: error: parameter 'p' of type 'union pair' in a diff function is not supported in a batch/diff function; its bits carry no derivative: mark the parameter BD_NODIFF, or pass the floating member's value
  return p.a;
}
