/* A call through a function pointer that is one of several functions
   returning a struct: such a call returns a scalar. */
struct pt { double x, y; };
static struct pt up(double t) { return (struct pt){t, 1.0}; }
static struct pt down(double t) { return (struct pt){t, -1.0}; }
__attribute__((batch, diff)) double g(double x) {
  struct pt p = (x > 0.0 ? up : down)(x);
  // CHECK: call-function-choice-struct.c:[[@LINE-1]]:17: error: a call of one of several functions returning 'struct pt' is not supported in a batch/diff function; return a scalar, or call the functions directly under if/else
  return p.x * p.y;
}
