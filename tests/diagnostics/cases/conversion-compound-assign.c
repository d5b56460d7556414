/* x += 1.0L computes in long double: reported at the assignment (in a
   function taking an array: one that takes and returns numbers only runs
   per example as the scalar function, docs/calls.md). */
__attribute__((batch, diff)) double f(int n, const double a[n]) {
  double x = a[0];
  x += 1.0L;
  // CHECK: conversion-compound-assign.c:[[@LINE-1]]:3: error: a conversion to 'long double' is not supported in a batch/diff function; use arithmetic types
  return x;
}
