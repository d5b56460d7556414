/* Memory from the C library's allocators: named as the call, not as the
   conversion of its void *. */
#include <stdlib.h>
__attribute__((batch)) double f(double x) {
  double *b = malloc(8 * sizeof *b);
// CHECK: mem-malloc.c:[[@LINE-1]]:15: error: memory from 'malloc' is not supported in a batch/diff function; use a local array, of constant size or sized per example ('double t[n]'; 1..65536 elements; large ones live in batchdiff's arena, not on the stack)
  double *c;
  c = (double *)calloc(4, sizeof *c);
// CHECK: mem-malloc.c:[[@LINE-1]]:7: error: memory from 'calloc' is not supported in a batch/diff function; use a local array, of constant size or sized per example ('double t[n]'; 1..65536 elements; large ones live in batchdiff's arena, not on the stack)
  float *d = __builtin_alloca(16);
// CHECK: mem-malloc.c:[[@LINE-1]]:14: error: memory from 'alloca' is not supported in a batch/diff function; use a local array, of constant size or sized per example ('double t[n]'; 1..65536 elements; large ones live in batchdiff's arena, not on the stack)
  b[0] = x;
  c[0] = x;
  d[0] = (float)x;
  double r = b[0] + c[0] + d[0];
  free(b);
  free(c);
  return r;
}
/* Memory the caller allocated is fine to read; freeing it is not. */
__attribute__((batch)) double g(double *p) {
  double v = p[0];
  free(p);
// CHECK: mem-malloc.c:[[@LINE-1]]:3: error: a call to 'free' is not supported in a batch/diff function; allocate no memory: use a local array, of constant size or sized per example ('double t[n]')
  return v;
}
