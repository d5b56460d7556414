/* Reading a member of a global struct (local structs work). */
struct coef { float a, b; };
const struct coef k = {2.0f, 1.0f};
__attribute__((batch, diff)) float f(float x) {
  return k.a * x;
  // CHECK: expr-member.c:[[@LINE-1]]:10: error: global struct 'k' is not supported in a batch/diff function; pass its values as parameters, or use const scalars or tables
}
