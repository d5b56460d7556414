/* Memory from the C library's allocators: a local pointer set to malloc,
   calloc or alloca memory where it is declared is the example's own
   memory (tests/exec/test_local_malloc.c); set anywhere else, named as the
   call, not as the conversion of its void *. */
#include <stdlib.h>
__attribute__((batch)) double f(double x) {
  double *b = malloc(8 * sizeof *b);
  double *c;
  c = (double *)calloc(4, sizeof *c);
// CHECK: mem-malloc.c:[[@LINE-1]]:7: error: memory from 'calloc' here is not supported in a batch/diff function; set a local pointer to it where it is declared ('double *w = malloc(n * sizeof *w);': the example's own memory, as a local array sized per example), or use a local array, of constant size or sized per example ('double t[n]'; 1..65536 elements)
  float *d = __builtin_alloca(16);
  b[0] = x;
  c[0] = x;
  d[0] = (float)x;
  double r = b[0] + c[0] + d[0];
  free(b);
  return r;
}
/* Memory the caller allocated is fine to read; freeing it is not. */
__attribute__((batch)) double g(double *p) {
  double v = p[0];
  free(p);
// CHECK: mem-malloc.c:[[@LINE-1]]:3: error: a call to 'free' of memory not allocated here is not supported in a batch/diff function; free only what a local pointer was set to where it is declared ('double *w = malloc(n * sizeof *w);')
  return v;
}
/* realloc, and re-pointing the pointer that holds the memory. */
__attribute__((batch)) double h(double x, int n) {
  double *w = realloc(0, 16);
// CHECK: mem-malloc.c:[[@LINE-1]]:15: error: memory from 'realloc' is not supported in a batch/diff function; use malloc, calloc or alloca of float, double, integer or _Bool elements for a local pointer, or a local array, of constant size or sized per example ('double t[n]'; 1..65536 elements)
  double *q = malloc(n * sizeof *q);
// CHECK: mem-malloc.c:[[@LINE-1]]:11: error: re-pointing 'q', which points to memory from 'malloc', is not supported in a batch/diff function; keep 'q' pointing there and walk the memory with an index ('q[i]') or with another pointer set to 'q'
  for (int i = 0; i < n; i++)
    *q++ = x;
  return w[0] + q[-1];
}
