/* x += 1.0L computes in long double: reported at the assignment. */
__attribute__((batch, diff)) double f(double x) {
  x += 1.0L;
  // CHECK: conversion-compound-assign.c:[[@LINE-1]]:3: error: a conversion to 'long double' is not supported in a batch/diff function; use arithmetic types
  return x;
}
