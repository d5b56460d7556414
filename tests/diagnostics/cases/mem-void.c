/* memcpy through an explicit cast to void * (the destination's type is
 * then unknown; pass the struct or array itself). */
#include <string.h>
typedef struct { double a, b; } pair;
__attribute__((batch, diff)) double f(double x) {
  pair p, q = {x, x};
  memcpy((void *)&p, &q, sizeof p);
  // CHECK: mem-void.c:[[@LINE-1]]:10: error: 'memcpy' into 'void *' is not supported in a batch/diff function; copy or clear arrays of float, double or integers
  return p.a;
}
