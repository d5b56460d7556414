/* A conversion that is not between arithmetic types. */
__attribute__((batch, diff)) float f(float x) {
  (void)(_Complex int)x;
  // CHECK: conversion-kind.c:[[@LINE-1]]:9: error: a conversion from 'int' to '_Complex int' is not supported in a batch/diff function; use conversions between arithmetic types
  return x;
}
