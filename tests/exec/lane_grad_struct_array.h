/* A function of another file (lane_grad_struct_array_other.c) marked
 * batch, diff in its header that reads and writes a struct with array
 * members, as ERFA's functions fill eraASTROM (`double eb[3]`, `double
 * bpn[3][3]`). Callers pass `&s` of a struct local and get the
 * derivatives from its NAME_grad (docs/calls.md). */
#ifndef BATCHDIFF_TESTS_LANE_GRAD_STRUCT_ARRAY_H
#define BATCHDIFF_TESTS_LANE_GRAD_STRUCT_ARRAY_H

#include <batchdiff.h>

typedef struct {
  double a;
  double eb[3];
  double m[2][2];
} lgs_st;

/* s->a *= x; s->eb[k] = s->eb[k]^2 + k x; s->m[1][0] = sin(x) s->m[0][1];
 * returns s->eb[2] x + s->m[1][1]. */
BATCHDIFF double lgs_step(double x, lgs_st *s);

#endif
