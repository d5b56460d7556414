/* A struct whose member is an array of structs. */
typedef struct { double x, y; } pt;
typedef struct { pt v[3]; } tri;
__attribute__((batch, diff)) double f(double x) {
  tri t;
  // CHECK: struct-member-array.c:[[@LINE-1]]:7: error: array member 'v' of 'tri' of type 'pt[3]' is not supported in a batch/diff function; use one array per member of the element struct
  return x;
}
