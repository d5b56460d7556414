/* A system header (as <math.h> is) declaring a function batched_callee.h
 * declares batch, diff: its latest declaration is then a system header's,
 * as glibc's gamma is after the first generated function of a file that
 * declares Cephes' gamma. */
#pragma GCC system_header
double bc_cube(double x);
