/* A union member initialised from a struct value (braces work). */
#include <stdint.h>
struct words { uint32_t lsw, msw; };
typedef union { double value; struct words parts; } shape;
__attribute__((batch)) double f(double x, uint32_t hi) {
  struct words w = {0, hi};
  shape s = {.parts = w};
  // CHECK: union-init.c:[[@LINE-1]]:23: error: this initializer of a union member is not supported in a batch/diff function; initialise its scalar members (braces and designators work)
  return s.value * x;
}
