/* An array of structs as a member of a struct parameter (or of an array of
 * structs, or of a static local struct; struct locals and global structs
 * may hold one). */
typedef struct { double x, y; } pt;
typedef struct { pt v[3]; } tri;
__attribute__((batch, diff)) double f(tri t) {
  // CHECK: struct-member-array.c:[[@LINE-1]]:43: error: array member 'v' of 'tri' of type 'pt[3]' is not supported in a batch/diff function; use one array per member of the element struct
  return t.v[0].x;
}
