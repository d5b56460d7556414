/* A two-dimensional array member (not yet: one-dimensional array members
   and two-dimensional local arrays work). */
#include <batchdiff.h>
typedef struct { double m[2][2]; double b; } affine;
BATCHDIFF double f(affine a, double x) {
  // CHECK: struct-member-2d.c:[[@LINE-1]]:27: error: array member 'm' of 'affine' of type 'double[2][2]' is not supported in a batch/diff function; use a one-dimensional array of 1..65536 scalars
  return a.m[0][0] * x + a.b;
}
