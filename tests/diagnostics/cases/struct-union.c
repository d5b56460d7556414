/* A local union whose members differ in size (unions whose members all
 * have its size, 4 or 8 bytes, are type punning and work). */
union num { double d; float f; };
__attribute__((batch, diff)) float f(float x) {
  union num u;
  // CHECK: struct-union.c:[[@LINE-1]]:13: error: member 'f' of 'union num' (4 bytes in a union of 8) is not supported in a batch/diff function; use a union of 4 or 8 bytes whose members all have its size (double with uint64_t or uint32_t[2], float with uint32_t)
  u.f = x;
  return u.f;
}
