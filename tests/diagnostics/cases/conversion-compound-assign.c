/* x += 1.0L computes in long double: reported at the assignment (in a
   function taking a struct: one that takes numbers and arrays runs per
   example as the scalar function, docs/calls-long-double.md). */
struct pt {
  double a, b;
};
__attribute__((batch, diff)) double f(struct pt p) {
  double x = p.a;
  x += 1.0L;
  // CHECK: conversion-compound-assign.c:[[@LINE-1]]:3: error: a conversion to 'long double' is not supported in a batch/diff function; use arithmetic types
  return x;
}
