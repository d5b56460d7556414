/* A conversion to a type without SIMD lanes: at the cast (in a function
   taking a struct: one that takes numbers and arrays runs per example as
   the scalar function, docs/calls-long-double.md). */
struct pt {
  double a, b;
};
__attribute__((batch, diff)) double f(struct pt p) {
  return (long double)p.a * 3;
  // CHECK: conversion-long-double.c:[[@LINE-1]]:10: error: a conversion to 'long double' is not supported in a batch/diff function; use arithmetic types
}
