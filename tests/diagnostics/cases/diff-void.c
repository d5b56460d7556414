/* 'diff' needs a return value to differentiate. */
__attribute__((diff)) void f(float x) {
  // CHECK: diff-void.c:[[@LINE-1]]:28: error: 'diff' on a function returning void is not supported in a batch/diff function; return the value to differentiate
  (void)x;
}
