/* memcpy into a struct from something else than structs of its type
 * (between structs of one type, whole ones, it works). */
#include <string.h>
typedef struct { double a, b; } pair;
__attribute__((batch, diff)) double f(double x) {
  double v[2] = {x, 2.0 * x};
  pair p;
  memcpy(&p, v, sizeof p);
  // CHECK: mem-struct-types.c:[[@LINE-1]]:14: error: 'memcpy' from 'double *' into 'pair *' is not supported in a batch/diff function; copy between structs of the same type
  return p.a;
}
