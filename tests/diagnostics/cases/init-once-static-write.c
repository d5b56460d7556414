/* A static local that a block run once under a static local flag fills,
 * written again outside the block: the generated code keeps its own copy,
 * which only the block fills. */
__attribute__((batch, diff)) double f(double x) {
  static int ready;
  static double last;
  if (!ready) {
    last = 1.0;
    ready = 1;
  }
  double r = last * x;
  last = x;
  // CHECK: init-once-static-write.c:[[@LINE-1]]:3: error: writing static local 'last' outside the block run once that uses it is not supported in a batch/diff function; the generated code runs that block on its own copy of 'last'; write it only in the block, or declare it (and the flag) at file scope, static
  return r;
}
