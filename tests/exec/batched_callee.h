/* Functions of another file (batched_callee_other.c) marked batch and/or
 * diff where they are declared: test_batched_callee.c's functions call
 * them through their NAME_batched and NAME_grad. */
#ifndef BATCHDIFF_TESTS_BATCHED_CALLEE_H
#define BATCHDIFF_TESTS_BATCHED_CALLEE_H

#include <batchdiff.h>

/* A branch per example. */
BATCHDIFF double bc_kink(double x, double y);
/* A loop with a per-example trip count and an integer parameter. */
BATCHDIFF double bc_root(double c, int iters);
BATCHDIFF float bc_sqf(float x);
/* A uniform, a nodiff and a float parameter besides a double one. */
BATCHDIFF double bc_mix(double x, BD_UNIFORM double u, BD_NODIFF double w,
                        float y);
/* batch only: no bc_plain_grad. */
BD_BATCH double bc_plain(double x);
/* diff only: no bc_gradonly_batched. */
BD_DIFF double bc_gradonly(double x);
/* Declared again by a system header (batched_callee_sys.h). */
BATCHDIFF double bc_cube(double x);
/* An integer result. */
BD_BATCH int bc_sign(double x);

#endif
