/* memcpy into something that is not an array of numbers (a struct). */
#include <string.h>
typedef struct { double a, b; } pair;
__attribute__((batch, diff)) double f(double x) {
  pair p, q = {x, x};
  memcpy(&p, &q, sizeof p);
  // CHECK: mem-void.c:[[@LINE-1]]:10: error: 'memcpy' into 'pair *' is not supported in a batch/diff function; copy or clear arrays of float, double or integers
  return p.a;
}
