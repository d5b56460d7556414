/* A table passed through a void * and read back as another element type:
   the pointer still points into the double table. */
static double C[] = {1.0, 2.0, 3.0};
static float first(const void *c) {
  const float *p = c;
  // CHECK: ptr-void-type.c:[[@LINE-1]]:20: error: a conversion from 'const void *' to 'const float *' of a pointer to 'double' is not supported in a batch/diff function; convert it back to 'double *'
  return p[0];
}
__attribute__((batch)) float f(float x) { return x * first(C); }
