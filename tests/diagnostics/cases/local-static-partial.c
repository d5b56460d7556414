/* Writing a static local array used as scratch when one of its elements
 * may be read before this call writes it (here u[3]: written on one path
 * only), so that a read may see what the previous call left. */
__attribute__((batch, diff)) double f(double x) {
  static double u[4];
  u[0] = x;
  // CHECK: local-static-partial.c:[[@LINE-1]]:3: error: writing static local 'u' (line 14 may read the value the previous call left in it) is not supported in a batch/diff function; a static local keeps its value from one call to the next, which the examples of a batch cannot share; write it (every element) before every read, on every path, or use an ordinary local
  u[1] = x * x;
  u[2] = 2.0 * x;
  if (x > 0.0)
    u[3] = u[1] + u[2];
  double s = 0.0;
  for (int k = 0; k < 4; k++)
    s += u[k];
  return s;
}
