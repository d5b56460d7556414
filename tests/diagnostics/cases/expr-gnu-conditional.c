/* The GNU binary conditional 'a ?: b'. */
__attribute__((batch, diff)) float f(float x) {
  return x ?: 1.0f;
  // CHECK: expr-gnu-conditional.c:[[@LINE-1]]:10: error: the GNU '?:' extension is not supported in a batch/diff function; write 'a ? a : b'
}
