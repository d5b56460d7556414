/* A C library function without a batched version that cannot be called once
   per example either (here nexttoward, whose second argument is a long
   double, from a function taking a struct: one that takes numbers and arrays
   runs per example as the scalar function, docs/calls-long-double.md). */
struct pt {
  double a, b;
};
#include <math.h>
__attribute__((batch, diff)) double f(struct pt p) {
  double x = p.a;
  return x * nexttoward(x, 2.0L);
  // CHECK: call-library.c:[[@LINE-1]]:14: error: the library function 'nexttoward' is not supported in a batch/diff function; it has no batched version yet (docs/subset.md lists the <math.h> functions that have one)
}
