/* A three-dimensional array member (one- and two-dimensional members
   work). */
#include <batchdiff.h>
typedef struct { double m[2][2][2]; double b; } cube;
BATCHDIFF double f(cube a, double x) {
  // CHECK: struct-member-3d.c:[[@LINE-1]]:25: error: array member 'm' of 'cube' of type 'double[2][2][2]' is not supported in a batch/diff function; use a one- or two-dimensional array of 1..65536 scalars
  return a.m[0][0][1] * x + a.b;
}
