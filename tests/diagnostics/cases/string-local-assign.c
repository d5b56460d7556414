/* A local pointer to string literals is given string literals only (and
   '?:' of them): here a local array is assigned to it. */
#include <stdio.h>
__attribute__((batch)) double f(double x) {
  char buf[2] = {'a', 0}, *msg = "";
  if (x < 0)
    msg = buf;
  // CHECK: string-local-assign.c:[[@LINE-1]]:11: error: assigning 'msg', a local pointer to string literals, something other than a string literal is not supported in a batch/diff function; such a pointer may only be assigned string literals ('msg = "..."', 'c ? "a" : "b"') and passed whole to functions called once per example (printf, an error reporter)
  puts(msg);
  return x + buf[0];
}
