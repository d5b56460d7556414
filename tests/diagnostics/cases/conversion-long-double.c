/* A conversion to a type without SIMD lanes: at the cast (in a function
   taking an array: one that takes and returns numbers only runs per
   example as the scalar function, docs/calls.md). */
__attribute__((batch, diff)) double f(int n, const double x[n]) {
  return (long double)x[0] * 3;
  // CHECK: conversion-long-double.c:[[@LINE-1]]:10: error: a conversion to 'long double' is not supported in a batch/diff function; use arithmetic types
}
