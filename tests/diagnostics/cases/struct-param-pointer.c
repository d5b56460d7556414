/* A pointer to structs as a parameter (arrays of records). */
typedef struct { double x, y; } pt;
__attribute__((batch, diff)) double f(const pt *p) {
  // CHECK: struct-param-pointer.c:[[@LINE-1]]:49: error: pointer parameter 'p' to struct 'pt' is not supported in a batch/diff function; pass the struct by value (one record per example), or its members as arrays (arrays of records are not supported yet)
  return p->x;
}
