/* Functions another file defines (extern_struct_out_other.c) that take
 * pointers to structs of numbers, as GSL's special functions return
 * their results: `int gsl_sf_exp_e(double x, gsl_sf_result *r)` writes
 * {val, err} and returns a status. */
#ifndef BATCHDIFF_TESTS_EXTERN_STRUCT_OUT_H
#define BATCHDIFF_TESTS_EXTERN_STRUCT_OUT_H

typedef struct {
  double val, err;
} xs_result;

struct xs_result_e10 {
  double val, err;
  int e10;
};

/* A nested struct and members of other widths. */
struct xs_pair {
  xs_result r;
  float w;
  short k;
  long n;
};

/* exp(x) and an error estimate; status 1 (and +inf) above 709. */
int xs_exp_e(double x, xs_result *r);
/* x * exp(y) as val * 10^e10. */
int xs_exp_mult_e10_e(double x, double y, struct xs_result_e10 *r);
/* Reads and writes: r->val *= k, r->err *= |k|; counts its calls. */
void xs_scale(double k, xs_result *r);
/* Reads only. */
double xs_sum(const xs_result *r);
/* Reads p's members and writes them all. */
void xs_step(double x, struct xs_pair *p);
/* The number of calls of xs_scale so far. */
long xs_scale_calls(void);

#endif
