/* qsort of an array of structs (docs/calls.md, "qsort": arrays of numbers). */
#include <stdlib.h>
struct pt { double key, w; };
static int cmp(const void *a, const void *b) {
  const struct pt *p = a, *q = b;
  return (p->key > q->key) - (p->key < q->key);
}
__attribute__((batch, diff)) double first(const double x[3]) {
  struct pt t[3] = {{x[0], 1}, {x[1], 2}, {x[2], 3}};
  qsort(t, 3, sizeof t[0], cmp);
  // CHECK: call-qsort-element.c:[[@LINE-1]]:9: error: sorting an array of 'struct pt' is not supported in a batch/diff function; qsort sorts local arrays of float, double or integers
  return t[0].w;
}
