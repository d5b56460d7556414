/* Calls through function pointers (docs/calls.md): a helper's
   parameter bound to the one function its call passes is a direct,
   inlined call (fp_bound); a choice of two per example is an if/else chain
   on the lane's position among them, one inlined call each (fp_choice). */
#include <batchdiff.h>

static double sq(double t) { return t * t; }
static double half(double t) { return 0.5 * t; }
static double apply(double (*f)(double), double x) { return f(x) + 1.0; }

BATCHDIFF double fp_bound(double x) { return apply(sq, x); }

BATCHDIFF double fp_choice(double x) { return apply(x > 0.0 ? sq : half, x); }
