/* A local union (structs work; a union's members share storage). */
union num { float f; int i; };
__attribute__((batch, diff)) float f(float x) {
  union num u;
  // CHECK: struct-union.c:[[@LINE-1]]:13: error: local variable 'u' of type 'union num' is not supported in a batch/diff function; unions are not supported; use a struct, or one variable per member
  u.f = x;
  return u.f;
}
