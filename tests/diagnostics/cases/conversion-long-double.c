/* A conversion to a type without SIMD lanes: at the cast. */
__attribute__((batch, diff)) double f(double x) {
  return (long double)x * 3;
  // CHECK: conversion-long-double.c:[[@LINE-1]]:10: error: a conversion to 'long double' is not supported in a batch/diff function; use arithmetic types
}
