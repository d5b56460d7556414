/* A void * re-pointed from a double table to a float one. */
static double D[] = {1.0, 2.0};
static const float F[] = {1.0f, 2.0f};
static double pick(const void *c) { return *(const double *)c; }
__attribute__((batch)) double f(double x) {
  const void *c = D;
  if (x > 0)
    c = F;
  // CHECK: ptr-void-repoint.c:[[@LINE-1]]:5: error: a 'void *' that points to 'double' and, here, to 'float' is not supported in a batch/diff function; keep each pointer in one array
  return x * pick(c);
}
