/* Writing into a global struct or a table of structs, also through a
 * helper (reading them works: they are read in place). */
struct coef { float a, b; };
struct coef k = {2.0f, 1.0f};
static struct coef T[2];
static void set(struct coef *c, float v) { c->b = v; }
// CHECK: global-struct-write.c:[[@LINE-1]]:44: error: writing into global table of structs 'T' is not supported in a batch/diff function; global structs and tables of structs are only read; copy the record into a local struct, or pass the data as a parameter
__attribute__((batch, diff)) float f(float x) {
  set(&T[1], x);
  k.a = x;
  // CHECK: global-struct-write.c:[[@LINE-1]]:3: error: writing into global struct 'k' is not supported in a batch/diff function; global structs and tables of structs are only read; copy the record into a local struct, or pass the data as a parameter
  return k.a * x + T[0].b;
}
