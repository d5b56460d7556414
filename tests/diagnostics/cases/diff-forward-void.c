/* Forward mode needs something to differentiate, as reverse mode does. */
__attribute__((diff(forward))) void f(float x) {
  // CHECK: diff-forward-void.c:[[@LINE-1]]:37: error: 'diff' on a function returning void is not supported in a batch/diff function; return the value to differentiate
  (void)x;
}
