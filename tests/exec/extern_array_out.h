/* Functions another file defines (extern_array_out_other.c) that take
 * arrays of numbers, as musl's `int __rem_pio2(double x, double *y)`
 * writes the reduced argument as y[0] + y[1] and returns the quadrant. */
#ifndef BATCHDIFF_TESTS_EXTERN_ARRAY_OUT_H
#define BATCHDIFF_TESTS_EXTERN_ARRAY_OUT_H

/* x = n * pi/2 + y[0] + y[1] (Cody-Waite, two constants); returns n. */
int ao_rem_pio2(double x, double *y);
/* Reads and writes: v[i] = v[i] * x + i for i < 3; counts its calls. */
void ao_step3(float x, float *v);
/* Reads only: the sum of v[0..3] weighted 1, 2, 3, 4. */
double ao_dot4(const double *v);
/* Writes c[0] = (int)x, c[1] = c[0] % 7, c[2] += 1 (reads c[2]). */
void ao_count(double x, int *c);
/* The number of calls of ao_step3 so far. */
long ao_step3_calls(void);

#endif
